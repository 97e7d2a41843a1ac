import { describe, expect, it } from "vitest";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import {
  createRedisTopUpStore,
  type TopUpNotice,
  type UnreadableNotice,
} from "../../src/payments/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { topUpService } from "../support/khalti.ts";
import { loggedLines } from "../support/log-lines.ts";
import {
  startTopUp,
  topUpRecord,
  topUpStoreKinds,
  useKhaltiStandIn,
  useTestRedis,
} from "../support/topup-rig.ts";

/**
 * Open top-ups past the refund watch (a day in these services, 7 days by default) are looked up
 * daily, and the admins have a list of them (`pastWatch`, behind /topups and the back office's
 * Held top-ups page): open ones only, oldest first, with when they were listed. Before, no list.
 */

const khalti = useKhaltiStandIn();
const redisEnv = useTestRedis("past-watch");

let n = 0;
// On Redis a prefix of its own per test: the list reads the whole schedule.
const perTest = topUpStoreKinds(redisEnv, () => `${redisEnv.prefix}${++n}:`);

describe.each(perTest)("open top-ups past the refund watch (%s)", (name, stores) => {
  it("lists the open ones only, oldest first, with their age", async () => {
    const s = stores();
    let offset = 0;
    const notices: TopUpNotice[] = [];
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store: s.store(),
      ledger: s.ledger,
      notices,
      now: () => Date.now() + offset,
    });
    const base = name === "memory" ? 9500 : 9600;
    const start = async (userId: number, rupees: number) =>
      (await startTopUp(topUps, userId, rupees * 100)).paymentId;
    const pending = await start(base + 1, 300);
    khalti.standIn.act(pending, "pending");
    const paid = await start(base + 2, 400);
    khalti.standIn.act(paid, "pay");
    expect((await topUps.confirm("khalti", paid))?.status).toBe("completed");
    offset += 3_600_000; // an hour later: another open one, within the watch
    const initiated = await start(base + 3, 500);
    expect((await topUps.pastWatch()).topUps).toEqual([]);

    offset += 86_400_000 - 1_800_000; // the first past the day's watch, the last not yet
    await topUps.reconcile(500);
    let listed = await topUps.pastWatch();
    expect(listed.topUps.map((t) => t.paymentId)).toEqual([pending]);
    expect(listed.topUps[0]).toMatchObject({ userId: base + 1, amountPaisa: 30_000 });

    offset += 3_600_000 * 3; // both past the watch, still open after the daily lookups
    await topUps.reconcile(500);
    listed = await topUps.pastWatch();
    expect(listed.topUps.map((t) => t.paymentId)).toEqual([pending, initiated]);
    expect(listed.at - listed.topUps[0]!.createdAt).toBeGreaterThan(86_400_000);
    expect(listed.topUps.map((t) => t.status)).toEqual(["pending", "initiated"]);
    // An ended one leaves the list.
    khalti.standIn.act(pending, "pay");
    expect((await topUps.confirm("khalti", pending))?.status).toBe("completed");
    expect((await topUps.pastWatch()).topUps.map((t) => t.paymentId)).toEqual([initiated]);
    await gateway.close();
  });
});

/** A Redis store under a prefix of its own whose log lines are kept. */
function loggedStore(tag: string) {
  const prefix = `${redisEnv.prefix}${tag}${++n}:`;
  const redis = redisEnv.connect();
  const { logger, lines } = loggedLines();
  return { prefix, redis, logger, lines, store: createRedisTopUpStore({ redis, prefix, logger }) };
}

describe("the past-watch list on Redis with a record that does not parse", () => {
  it("skips and logs the bad rows and lists the rest", async () => {
    const { prefix, redis, lines, store } = loggedStore("bad");
    const created = Date.now() - 8 * 86_400_000;
    const good = topUpRecord({
      id: "TUpastgood1",
      paymentId: "PastWatchGood1",
      userId: 9701,
      amountPaisa: 30_000,
      status: "pending",
      createdAt: created,
    });
    await store.create(good, Date.now() + 86_400_000);
    // Two damaged records on the schedule: one not JSON, one that no longer fits the schema.
    const k = keyspace(prefix);
    for (const [pid, j] of [
      ["PastWatchBadJson", "{not json"],
      ["PastWatchBadShape", JSON.stringify({ ...good, paymentId: "x", status: "lost" })],
    ] as const) {
      await redis.hset(k.topUp("khalti", pid), "v", "3", "j", j);
      await redis.zadd(k.topUpsDue, String(Date.now() + 86_400_000), `khalti:${pid}`);
    }
    const listed = await store.openSince(Date.now() - 86_400_000, 20);
    expect(listed.topUps.map((t) => t.paymentId)).toEqual([good.paymentId]);
    // Counted and named for the admins, not hidden (review s23-d, 1).
    expect(listed.unreadable.sort()).toEqual([
      "khalti:PastWatchBadJson",
      "khalti:PastWatchBadShape",
    ]);
    const bad = lines.filter((l) => String(l.msg).includes("does not parse"));
    expect(bad.map((l) => l.member).sort()).toEqual([
      "khalti:PastWatchBadJson",
      "khalti:PastWatchBadShape",
    ]);
    expect(bad.every((l) => l.level === 50)).toBe(true);
  });
});

describe("the reconciler with a top-up record that does not parse (Redis)", () => {
  it("sets it aside, alerts the admins once, and goes on with the top-ups due after it", async () => {
    const { prefix, redis, logger, lines, store } = loggedStore("stall");
    const ledger = createRedisLedger({ redis: redisEnv.connect(), prefix });
    const notices: TopUpNotice[] = [];
    const unreadable: UnreadableNotice[] = [];
    let offset = 0;
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store,
      ledger,
      notices,
      unreadable,
      logger,
      now: () => Date.now() + offset,
    });
    // A paid top-up whose redirect never came: only the reconciler credits it.
    const pidx = (await startTopUp(topUps, 9751, 20_000)).paymentId;
    khalti.standIn.act(pidx, "pay");
    // A damaged record due before it (the schedule is read oldest due first).
    const k = keyspace(prefix);
    await redis.hset(k.topUp("khalti", "StallBadRecord"), "v", "2", "j", "{not json");
    await redis.zadd(k.topUpsDue, "1", "khalti:StallBadRecord");
    offset += 5_000;
    await topUps.reconcile(1);
    // Before: the pass threw at the bad record, every pass, and the credit never came.
    await topUps.reconcile(50);
    expect((await topUps.get(pidx))?.status).toBe("completed");
    expect((await ledger.balance(account.customer(9751))).postedPaisa).toBe(20_000);
    expect(await redis.zscore(k.topUpsDue, "khalti:StallBadRecord")).toBeNull();
    expect(unreadable).toEqual([{ chatId: 3001, gateway: "khalti", paymentId: "StallBadRecord" }]);
    expect(lines.some((l) => String(l.msg).includes("taken off the reconciler's schedule"))).toBe(
      true,
    );
    // Still listed for the admins (it is off the schedule now), and alerted only once.
    expect((await topUps.pastWatch()).unreadable).toEqual(["khalti:StallBadRecord"]);
    await redis.zadd(k.topUpsDue, "1", "khalti:StallBadRecord");
    offset += 5_000;
    await topUps.reconcile(50);
    expect(unreadable).toHaveLength(1);
    expect(await redis.zscore(k.topUpsDue, "khalti:StallBadRecord")).toBeNull();
    await gateway.close();
  });
});
