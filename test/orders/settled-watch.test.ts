import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Orders } from "../../src/orders/service.ts";
import { SETTLED_WATCH } from "../../src/orders/settled-watch.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import {
  creditCustomer,
  KEPT_PENDING,
  ordersOnRedis,
  reconcilerOnRedis,
  type SandboxAggregator,
  startSandboxAggregator,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis } from "../support/orders.ts";

/**
 * Review s22 money 2, note 1: the reconciler asks a few due settled orders per tick (the soonest
 * first). An entry whose ask threw (here: its order record no longer parses) kept its due time,
 * so it stayed among the soonest, and five of them stopped every other settled order from being
 * asked again. Now a failed ask is asked again later, with back-off, and no more after the
 * watch's 7 days. Real Redis, the sandbox aggregator over loopback (it keeps the order pending),
 * the product's reconciler on the test's clock.
 */

const TOKEN = "settled-watch-token";
const HOUR = 3_600_000;
const MINUTE = 60_000;
const SETTLE_AFTER = 4 * HOUR;
const ADMIN = 7101;

describe("the settled-order watch with entries whose ask always fails", () => {
  const r = testRedis("settled-watch");
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;
  let clock = Date.now() - 500 * HOUR;

  beforeAll(async () => {
    aggregator = await startSandboxAggregator({
      token: TOKEN,
      balancePaisa: 5_000_000,
      delays: KEPT_PENDING,
      maxRetries: 0,
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      settleAfterMs: SETTLE_AFTER,
      now: () => clock,
    });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  it("a failed ask is asked again later (backing off), so the other settled orders are asked; after 7 days failing it is dropped", async () => {
    const k = keyspace(r.prefix);
    await creditCustomer(ledger, 9101, 50_000, `sw-credit-${r.prefix}`);
    const order = await placeAndSubmit(
      orders,
      mobileInput({ userId: 9101, chatId: 9101, connectionNo: "9841331001", amountPaisa: 20_000 }),
    );
    expect(["queued", "pending"]).toContain(order.status);
    clock += SETTLE_AFTER;
    const settled = await orders.settle({
      reference: order.reference,
      outcome: "failed",
      adminId: ADMIN,
      reason: "operator says no recharge",
      admins: [ADMIN],
    });
    expect(settled.ok).toBe(true);
    const settledAt = clock;
    // Five watched settled orders whose records no longer parse, due before the real one.
    const broken = [
      "9000000000001",
      "9000000000002",
      "9000000000003",
      "9000000000004",
      "9000000000005",
    ];
    for (const ref of broken) {
      await r.redis.hset(k.order(ref), { v: "1", j: JSON.stringify({ reference: ref }) });
      await r.redis.zadd(k.settledWatch, settledAt, ref);
    }
    await expect(orders.get(broken[0] ?? "")).rejects.toThrow();

    const reconciler = reconcilerOnRedis(r, {
      orders,
      provider: aggregator.client,
      maxAgeMs: 1_000 * HOUR,
      adminChatIds: [ADMIN],
      now: () => clock,
    });
    clock += 20 * MINUTE;
    const first = await reconciler.runOnce();
    expect(first).toMatchObject({ settledAsked: 0, errors: broken.length });
    // The failed ones wait their back-off; the real one is asked on the next tick.
    const second = await reconciler.runOnce();
    expect(second).toMatchObject({ settledAsked: 1, errors: 0 });
    for (const ref of broken)
      expect(Number(await r.redis.zscore(k.settledWatch, ref))).toBe(
        clock + SETTLED_WATCH.firstAskMs,
      );

    // Failing again, each waits twice as long, at most 6 hours (the real one is due too: two
    // ticks ask all six, each failed one once).
    clock += SETTLED_WATCH.firstAskMs;
    const again = [await reconciler.runOnce(), await reconciler.runOnce()];
    expect(again.map((t) => t.errors).reduce((a, b) => a + b)).toBe(broken.length);
    expect(again.map((t) => t.settledAsked).reduce((a, b) => a + b)).toBe(1);
    for (const ref of broken)
      expect(Number(await r.redis.zscore(k.settledWatch, ref))).toBe(
        clock + 2 * SETTLED_WATCH.firstAskMs,
      );

    // Failing for the watch's 7 days, they are asked no more (a bounded number of times).
    let errors = 0;
    for (let i = 0; i < 200 && (await r.redis.zcard(k.settledWatch)) > 0; i++) {
      clock += 6 * HOUR;
      errors += (await reconciler.runOnce()).errors;
    }
    for (const ref of broken) expect(await r.redis.zscore(k.settledWatch, ref)).toBeNull();
    expect(errors).toBeLessThanOrEqual(broken.length * (7 * 4 + 2));
    expect(await r.redis.zscore(k.settledWatch, order.reference)).toBeNull();
  });
});
