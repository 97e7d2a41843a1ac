import { afterEach, describe, expect, it } from "vitest";
import { booksText } from "../../conversations/books/command.ts";
import { createBooks, createRedisCrossings } from "../../src/books/index.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { createComplaints, createRedisComplaintStore } from "../../src/complaints/index.ts";
import { createRedisLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { succeededOrder, walletEffects } from "../support/books.ts";
import { refundedComplaint } from "../support/complaints.ts";
import { creditCustomer } from "../support/order-rig.ts";
import { testRedis } from "../support/redis.ts";

/**
 * Review s24-h, note 8, on real Redis: /books's figures for a complaint refund its order does not
 * let it take whole. A refund whose order cannot be read keeps its fee share in fee income (it
 * cannot be computed): now counted and shown as a warning, not silently. A refund of a success
 * booked with a zero debit (no float debit: not in the margin) was taken out of the margin all the
 * same: now left out of it, as its order is, and shown.
 */

const t = translator(
  createI18n(() => "en"),
  "en",
);

let r: ReturnType<typeof testRedis>;
afterEach(async () => {
  await r.cleanup();
});

function system() {
  r = testRedis("books-refund-edges");
  const { redis, prefix } = r;
  const ledger = createRedisLedger({ redis, prefix });
  const store = createRedisOrderStore({ redis, prefix });
  const books = createBooks(
    {
      ledger,
      orders: store,
      walletBalance: async () => ({ creditAvailablePaisa: 1_000_000 }),
      crossings: createRedisCrossings(redis, prefix),
      now: Date.now,
    },
    { tolerancePaisa: 100 },
  );
  const complaints = createComplaints({
    store: createRedisComplaintStore({ redis, prefix }),
    orders: store,
    logger: createLogger({ level: "silent" }),
  });
  return { ledger, store, books, complaints };
}

/** An order paid Rs 105 (amount 100, fee 5), the aggregator debiting `debit`. */
async function success(s: ReturnType<typeof system>, ref: string, debit: number) {
  await succeededOrder(
    s.store,
    ref,
    { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 0, totalPaisa: 10_500 },
    walletEffects(10_000, debit),
  );
}

async function refund(s: ReturnType<typeof system>, ref: string, paisa: number) {
  const { done } = await refundedComplaint(s.complaints, 11, ref, paisa);
  expect(done).toMatchObject({ ok: true });
}

/** Customer 11 credited Rs 1,000 (the credit must be accepted). */
const funded = (s: ReturnType<typeof system>) => creditCustomer(s.ledger, 11, 100_000, "c1");

describe("/books with refunds it cannot take whole", () => {
  it("flags a refund whose order cannot be read: its fee share stays in fee income", async () => {
    const s = system();
    await funded(s);
    await success(s, "1700000000201", 9_800);
    await refund(s, "1700000000201", 10_500);
    // The order is gone (trimmed, lost): its fee share cannot be computed.
    await r.redis.del(keyspace(r.prefix).order("1700000000201"));
    const after = await s.books.report();
    expect(after.complaintRefunds).toMatchObject({
      refunds: 1,
      paisa: 10_500,
      feePaisa: 0,
      orderUnread: { refunds: 1, paisa: 10_500 },
      outOfMargin: { refunds: 0, paisa: 0 },
    });
    expect(after.feeIncomePaisa).toBe(500);
    expect(booksText(t, after)).toMatch(
      /1 refund \(Rs\.? ?105\) whose order could not be read: their fee share is unknown and still in the fee income above \(at most Rs\.? ?105\)/,
    );
  });

  it("leaves a zero-debit success's refund out of the margin, as the order is", async () => {
    const s = system();
    await funded(s);
    await success(s, "1700000000202", 9_800);
    await success(s, "1700000000203", 0);
    const before = await s.books.report();
    // Only the order with a float debit is in the margin: 105 − 98 = 7.
    expect(before.margin).toMatchObject({ orders: 1, marginPaisa: 700 });
    await refund(s, "1700000000203", 10_500);
    const after = await s.books.report();
    expect(after.margin).toMatchObject({ orders: 1, marginPaisa: 700 });
    expect(after.complaintRefunds).toMatchObject({
      refunds: 1,
      paisa: 10_500,
      feePaisa: 500,
      orderUnread: { refunds: 0, paisa: 0 },
      outOfMargin: { refunds: 1, paisa: 10_500 },
    });
    // Its fee was booked, and returned.
    expect(after.feeIncomePaisa).toBe(500);
    expect(booksText(t, after)).toMatch(
      /1 refund \(Rs\.? ?105\) of orders booked with no aggregator debit: left out of the margin/,
    );
    expect(booksText(t, before)).not.toMatch(/left out of the margin|could not be read/);
  });
});
