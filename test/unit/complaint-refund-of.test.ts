import { describe, expect, it } from "vitest";
import { createComplaints, createMemoryComplaintStore } from "../../src/complaints/index.ts";
import { createMemoryLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import type { Order } from "../../src/orders/model.ts";

/**
 * The order's refunding complaint (review s24-e leftover): the memory store answers `refundOf`
 * from its order -> refunding complaint mark, as the Redis store does (order-refunded.test.ts),
 * and an order nobody refunded has none.
 */

const order = {
  reference: "1700000000002",
  userId: 43,
  status: "success",
  holdId: "order:1700000000002",
  price: { amountPaisa: 10_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 10_000 },
} as Order;

describe("refundOf in memory", () => {
  it("names the complaint whose refund was booked on the order", async () => {
    const store = createMemoryComplaintStore({
      ledger: createMemoryLedger(),
      outbox: { append: () => {} },
    });
    const service = createComplaints({
      store,
      orders: { get: async (ref) => (ref === order.reference ? order : null) },
      logger: createLogger({ level: "silent" }),
    });
    expect(await service.refundOf(order.reference)).toBeNull();
    const raised = await service.raise({
      userId: 43,
      chatId: 43,
      locale: "en",
      orderReference: order.reference,
      reason: "not_received",
    });
    if (!raised.ok) throw new Error("not raised");
    await service.resolve(raised.complaint.reference, 1, { text: "back", refundPaisa: 4_000 });
    expect(await store.refundOf(order.reference)).toBe(raised.complaint.reference);
    expect(await service.refundOf(order.reference)).toMatchObject({
      reference: raised.complaint.reference,
      closing: { refund: { amountPaisa: 4_000 } },
    });
  });
});
