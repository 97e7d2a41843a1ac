import type { Socket } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createRedisCrossings } from "../../src/books/crossing.ts";
import { createFloatWatch } from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import type { Notification } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders, type OrdersProvider } from "../../src/orders/service.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { mobileInput, testRedis } from "../support/orders.ts";

/**
 * The execute's answer and the wallet reading it carries reach Redis in one socket write (a
 * socket write is about a third of the product's busy CPU on the benchmark machine): the reading
 * that only re-arms the low-float alert is told in the same turn as the answer's write, and an
 * alert still names the order's status as that write left it.
 */
describe("the execute's answer and its wallet reading", () => {
  const r = testRedis("submit-writes");
  afterAll(() => r.cleanup());

  type Writes = { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
  const socket = () => (r.redis as unknown as { stream: Socket }).stream as unknown as Writes;

  function setup(
    creditAvailablePaisa: number,
    opts: { answerWriteFails?: boolean; readingThrows?: boolean } = {},
  ) {
    const real = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
    let executed = false;
    // The answer's write (the first update after the execute) fails, as a Redis error would.
    const store: typeof real = {
      ...real,
      update: (...a) =>
        opts.answerWriteFails && executed
          ? Promise.reject(new Error("write failed"))
          : real.update(...a),
    };
    const crossings = createRedisCrossings(r.redis, r.prefix);
    const watch = createFloatWatch({ thresholdPaisa: 100_000, adminChatIds: [3001], crossings });
    const counted: Array<ReturnType<typeof vi.spyOn>> = [];
    const provider: OrdersProvider = {
      async execute(req) {
        executed = true;
        // Counted from the answer on: what submit writes after the execute came back.
        counted.push(vi.spyOn(socket(), "_write"), vi.spyOn(socket(), "_writev"));
        return {
          kind: "accepted",
          referenceNo: req.referenceNo,
          transactionId: `TX-${req.referenceNo}`,
          status: "queued",
          message: "Queued",
          amountPaisa: 10_000,
          serviceChargePaisa: 0,
          instantDiscountPaisa: 0,
          debitAmountPaisa: 10_000,
          creditAvailablePaisa,
          commissionPaisa: 0,
        };
      },
      async statusByReference() {
        throw new Error("not used");
      },
    };
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider,
      onWalletReading: opts.readingThrows
        ? () => {
            throw new Error("the reading's callback threw");
          }
        : watch,
    });
    const writes = () => counted.reduce((n, s) => n + s.mock.calls.length, 0);
    const restore = () => {
      for (const s of counted) s.mockRestore();
    };
    return { orders, writes, restore };
  }

  const k = keyspace(r.prefix);
  /** The admin alerts the outbox holds for an order. */
  async function alertsOf(reference: string) {
    const queued = await r.redis.xrange(k.outbox, "-", "+");
    return queued
      .map(([, fields]) => JSON.parse(fields[1] ?? "{}") as Notification)
      .filter((n) => n.kind === "admin_alert" && n.reference === reference);
  }

  it("a reading above the line re-arms the alert in the answer's own socket write", async () => {
    const { orders, writes, restore } = setup(500_000);
    await r.redis.set(k.crossing("low-float"), "below");
    const placed = await orders.place(mobileInput());
    try {
      const done = await orders.submit(placed.reference, { known: placed });
      expect(writes()).toBe(1);
      expect(done.status).toBe("queued");
    } finally {
      restore();
    }
    // Re-armed with the reading's time (a low reading older than it is stale: books/crossing.ts).
    expect(await r.redis.get(k.crossing("low-float"))).toMatch(/^above:\d+$/);
    expect((await orders.get(placed.reference))?.status).toBe("queued");
  });

  it("a reading below the line alerts with the status the answer's write left", async () => {
    const { orders, restore } = setup(50_000);
    await r.redis.set(k.crossing("low-float"), "above");
    const placed = await orders.place(mobileInput());
    try {
      await orders.submit(placed.reference, { known: placed });
    } finally {
      restore();
    }
    expect(await r.redis.get(k.crossing("low-float"))).toBe("below");
    const alerts = await alertsOf(placed.reference);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ topic: "low_float", status: "queued", chatId: 3001 });
  });

  it("a reading below the line alerts even when the answer's write fails, naming the stored mark", async () => {
    const { orders, restore } = setup(50_000, { answerWriteFails: true });
    await r.redis.set(k.crossing("low-float"), "above");
    const placed = await orders.place(mobileInput());
    try {
      await expect(orders.submit(placed.reference, { known: placed })).rejects.toThrow();
    } finally {
      restore();
    }
    await vi.waitFor(async () => expect(await r.redis.get(k.crossing("low-float"))).toBe("below"));
    const alerts = await alertsOf(placed.reference);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ topic: "low_float", status: "submitting", chatId: 3001 });
  });

  it("a wallet reading whose callback throws at once does not fail the order's submit", async () => {
    const { orders, restore } = setup(50_000, { readingThrows: true });
    const placed = await orders.place(mobileInput());
    try {
      const done = await orders.submit(placed.reference, { known: placed });
      expect(done.status).toBe("queued");
    } finally {
      restore();
    }
    expect((await orders.get(placed.reference))?.status).toBe("queued");
  });
});
