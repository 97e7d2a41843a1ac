import { afterAll, describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import { redisLimits } from "../../src/orders/limits.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { NotReservedError } from "../../src/orders/store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { mobileInput, placedOrder, testRedis } from "../support/orders.ts";

/**
 * The order's create with a guard (orders/store.ts CreateOptions): it runs only when the
 * reservation it names said ok, checked in the create's own step, so the checkout can send the
 * reservation and the create together. Refused, it writes nothing: no order, no key, no hold.
 */
describe("a create guarded by the limits reservation (Redis)", () => {
  const r = testRedis("create-guard");
  afterAll(() => r.cleanup());
  const k = keyspace(r.prefix);
  const store = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
  const ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
  const limits = redisLimits(r.redis, r.prefix, { dailyCapPaisa: 1_000_000, ordersPerHour: 10 });
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "prepaid",
    store,
    provider: {
      execute: async () => {
        throw new Error("not used");
      },
      statusByReference: async () => {
        throw new Error("not used");
      },
    },
  });

  it("refuses without an ok, writing nothing; creates once the reservation says ok", async () => {
    const userId = 5_501;
    const funded = await ledger.transfer({
      id: "fund-5501",
      debit: account.merchant.funding,
      credit: account.customer(userId),
      amountPaisa: 100_000,
      kind: "credit",
    });
    expect(funded.ok).toBe(true);
    const input = mobileInput({ userId, chatId: userId });
    const guard = limits.reservedGuard?.(userId, input.idempotencyKey);
    if (!guard) throw new Error("one Redis node offers the guard");
    const held = async () => (await ledger.balance(account.customer(userId))).availablePaisa;
    // Never reserved, refused, released: nothing is written.
    for (const kept of [null, "daily_cap", "rate", "released"]) {
      if (kept !== null) await r.redis.set(guard.key, kept);
      await expect(orders.place(input, { guard })).rejects.toBeInstanceOf(NotReservedError);
      expect(await r.redis.exists(k.idempotency(input.idempotencyKey))).toBe(0);
      expect(await orders.listByUser(userId, 10)).toEqual([]);
      expect(await held()).toBe(100_000);
    }
    await r.redis.del(guard.key);
    expect(await limits.reserve(userId, input.amountPaisa, input.idempotencyKey)).toEqual({
      ok: true,
    });
    const placed = await orders.place(input, { guard });
    expect(placed.status).toBe("placed");
    expect(await held()).toBe(100_000 - input.amountPaisa);
    // A replay finds the same order (the reservation still says ok).
    expect((await orders.place(input, { guard })).reference).toBe(placed.reference);
  });

  it("the memory store takes no guard", async () => {
    const { createMemoryOrderStore } = await import("../../src/orders/memory-store.ts");
    const memory = createMemoryOrderStore({ outbox: { append: () => {} } });
    await expect(
      memory.create(placedOrder(), { guard: { key: "x", prefix: "ok" } }),
    ).rejects.toThrow(/no create guard/);
  });
});
