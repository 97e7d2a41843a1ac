import { afterAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * Reading an order trusts the JSON this store wrote (validated before every write) after a cheap
 * check of what readers rely on; anything else still gets zod's full parse and its error.
 */
describe("reading a stored order", () => {
  const t = testRedis("store-read");
  const store = createRedisOrderStore({ redis: t.redis, prefix: t.prefix });
  const k = keyspace(t.prefix);
  afterAll(() => t.cleanup());

  it("reads back what was written, field for field", async () => {
    const order = placedOrder({ reference: "7100000000001", idempotencyKey: "read-1" });
    await store.create(order);
    expect(await store.get(order.reference)).toEqual(order);
  });

  it("refuses a stored order that is not one, as the full schema does", async () => {
    const order = placedOrder({ reference: "7100000000002", idempotencyKey: "read-2" });
    await store.create(order);
    const key = k.order(order.reference);
    const bad = [
      { ...order, status: "lost" },
      { ...order, category: undefined },
      { ...order, version: "1" },
      { ...order, balanceAfterPaisa: 1.5 },
      { ...order, price: { amountPaisa: 1, feePaisa: 0, discountPaisa: 0, totalPaisa: 2 } },
    ];
    for (const o of bad.slice(0, 4)) {
      await t.redis.hset(key, "j", JSON.stringify(o));
      await expect(store.get(order.reference)).rejects.toThrow(ZodError);
    }
    // Past the check, the rest is trusted: it was validated when this store wrote it.
    await t.redis.hset(key, "j", JSON.stringify(bad[4]));
    await expect(store.get(order.reference)).resolves.toMatchObject({ reference: order.reference });
  });
});
