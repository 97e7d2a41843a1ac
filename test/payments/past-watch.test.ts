import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryLedger, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import {
  createMemoryTopUpStore,
  createRedisTopUpStore,
  type TopUpNotice,
  type TopUpStore,
} from "../../src/payments/index.ts";
import { serveKhaltiStandIn, topUpService } from "../support/khalti.ts";
import { testRedis } from "../support/redis.ts";

/**
 * Open top-ups past the refund watch (a day in these services, 7 days by default) are looked up
 * daily, and the admins have a list of them (`pastWatch`, behind /topups and the back office's
 * Held top-ups page): open ones only, oldest first, with when they were listed. Before, no list.
 */

let khalti: Awaited<ReturnType<typeof serveKhaltiStandIn>>;
beforeAll(async () => {
  khalti = await serveKhaltiStandIn();
});
const redisEnv = testRedis("past-watch");
afterAll(async () => {
  await khalti.close();
  await redisEnv.cleanup();
});

type Stores = { store: TopUpStore; ledger: LedgerStore };
const memoryStores = (): Stores => {
  const ledger = createMemoryLedger();
  return { store: createMemoryTopUpStore({ ledger }), ledger };
};
let n = 0;
const redisStores = (): Stores => {
  // A prefix of its own per test: the list reads the whole schedule.
  const prefix = `${redisEnv.prefix}${++n}:`;
  return {
    store: createRedisTopUpStore({ redis: redisEnv.connect(), prefix }),
    ledger: createRedisLedger({ redis: redisEnv.connect(), prefix }),
  };
};

describe.each([
  ["memory", memoryStores],
  ["redis", redisStores],
])("open top-ups past the refund watch (%s)", (name, stores) => {
  it("lists the open ones only, oldest first, with their age", async () => {
    const s = stores();
    let offset = 0;
    const notices: TopUpNotice[] = [];
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store: s.store,
      ledger: s.ledger,
      notices,
      now: () => Date.now() + offset,
    });
    const base = name === "memory" ? 9500 : 9600;
    const start = async (userId: number, rupees: number) => {
      const r = await topUps.start({
        userId,
        chatId: userId,
        locale: "en",
        amountPaisa: rupees * 100,
      });
      if (!r.ok) throw new Error("start refused");
      return r.topUp.paymentId;
    };
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
