import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import { createRedisTopUpStore, type TopUp, type TopUpNotice } from "../../src/payments/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { topUpService } from "../support/khalti.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTopUp, topUpRecord, useKhaltiStandIn, useTestRedis } from "../support/topup-rig.ts";

/**
 * The Redis store's credit reads the user's top-ups of the day, then its script checks the caps
 * against exactly those. A top-up of that day created between the read and the script is refused
 * by the script (code 4, nothing written) and the store reads them again, up to 5 reads. Here the
 * read itself is followed by another process creating a top-up of the same user (a second
 * connection and store), so the first script always finds an undeclared one. Real Redis.
 */

const r = useTestRedis("cap-reread");
const khalti = useKhaltiStandIn();

/** Another top-up of `userId`, created now by another process. */
let seq = 0;
function another(userId: number): TopUp {
  const now = Date.now();
  const paymentId = `Another${userId}n${++seq}`;
  return topUpRecord({
    id: `TUanother${seq}`,
    paymentId,
    userId,
    amountPaisa: 1_000,
    status: "initiated",
    createdAt: now,
  });
}

/**
 * A connection whose reads of `userId`'s top-ups (ZRANGEBYSCORE on its index) are each followed,
 * while `races.left` > 0, by another process creating a top-up of that user: the read the store
 * hands its script is then out of date. `races.reads` counts those reads.
 */
function racedConnection(userId: number, races: { left: number; reads: number }): Redis {
  const conn = r.connect();
  const other = createRedisTopUpStore({ redis: r.connect(), prefix: r.prefix });
  const byUser = keyspace(r.prefix).topUpsByUser(userId);
  const read = conn.zrangebyscore.bind(conn) as (...a: unknown[]) => Promise<string[]>;
  const hooked = async (...a: unknown[]) => {
    const got = await read(...a);
    if (a[0] === byUser) {
      races.reads += 1;
      if (races.left > 0) {
        races.left -= 1;
        await other.create(another(userId), Date.now() + 3_600_000);
      }
    }
    return got;
  };
  (conn as unknown as { zrangebyscore: typeof hooked }).zrangebyscore = hooked;
  return conn;
}

describe("a top-up of the day created between the caps' read and the script", () => {
  it("is read again and the credit booked once (code 4 retried)", async () => {
    const userId = 9901;
    const races = { left: 1, reads: 0 };
    const ledger = createRedisLedger({ redis: r.connect(), prefix: r.prefix });
    const store = createRedisTopUpStore({
      redis: racedConnection(userId, races),
      prefix: r.prefix,
    });
    const notices: TopUpNotice[] = [];
    const { topUps, gateway } = topUpService({ apiUrl: khalti.apiUrl, store, ledger, notices });
    const pidx = (await startTopUp(topUps, userId, 25_000)).paymentId;
    khalti.standIn.act(pidx, "pay");
    const after = await topUps.confirm("khalti", pidx);
    expect(after?.status).toBe("completed");
    expect(after?.creditedPaisa).toBe(25_000);
    // The first read raced (refused by the script), the second was current.
    expect(races).toEqual({ left: 0, reads: 2 });
    expect((await ledger.balance(account.customer(userId))).postedPaisa).toBe(25_000);
    expect((await ledger.journal()).entries.filter((e) => e.id.includes(pidx))).toHaveLength(1);
    await expectBooksBalanced(ledger);
    await gateway.close();
  });

  it("gives up after 5 reads as a version race, nothing written", async () => {
    const userId = 9902;
    const races = { left: 100, reads: 0 };
    const store = createRedisTopUpStore({
      redis: racedConnection(userId, races),
      prefix: r.prefix,
    });
    const t = another(userId);
    await store.create(t, Date.now());
    const credited = { ...t, status: "completed" as const, creditedPaisa: 1_000 };
    const day = Date.now() - 86_400_000;
    const cap = {
      creditPaisa: 1_000,
      maxPaisa: 100_000,
      dailyCapPaisa: 1_000_000,
      from: day,
      until: day + 2 * 86_400_000,
    };
    expect(await store.update(0, credited, undefined, null, cap)).toEqual({
      ok: false,
      reason: "version",
    });
    expect(races.reads).toBe(5);
    expect(await store.get("khalti", t.paymentId)).toMatchObject({
      status: "initiated",
      version: 0,
    });
    // Once no top-up comes in between, the same update goes through.
    races.left = 0;
    expect(await store.update(0, credited, undefined, null, cap)).toEqual({ ok: true });
    expect(races.reads).toBe(6);
  });
});
