import { describe, expect, it } from "vitest";
import { memoryComplaints, paidOrder, refundedComplaint } from "../support/complaints.ts";

/**
 * The order's refunding complaint (review s24-e leftover): the memory store answers `refundOf`
 * from its order -> refunding complaint mark, as the Redis store does (order-refunded.test.ts),
 * and an order nobody refunded has none.
 */

const order = paidOrder("1700000000002", 43, 10_000);

describe("refundOf in memory", () => {
  it("names the complaint whose refund was booked on the order", async () => {
    const { store, service } = memoryComplaints(order);
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
