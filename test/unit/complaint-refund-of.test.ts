import { describe, expect, it } from "vitest";
import { createComplaints, createMemoryComplaintStore } from "../../src/complaints/index.ts";
import { createMemoryLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import type { Order } from "../../src/orders/model.ts";
import { refundedComplaint } from "../support/complaints.ts";

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
    const { reference } = await refundedComplaint(service, 43, order.reference, 4_000, {
      text: "back",
    });
    expect(await store.refundOf(order.reference)).toBe(reference);
    expect(await service.refundOf(order.reference)).toMatchObject({
      reference,
      closing: { refund: { amountPaisa: 4_000 } },
    });
  });
});
