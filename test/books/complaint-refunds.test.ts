import { describe, expect, it } from "vitest";
import { booksText } from "../../conversations/books/command.ts";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { createComplaints, createMemoryComplaintStore } from "../../src/complaints/index.ts";
import { createLogger } from "../../src/logger.ts";
import { booksInMemory, succeededOrder, walletEffects } from "../support/books.ts";
import { refundedComplaint } from "../support/complaints.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { creditCustomer } from "../support/order-rig.ts";

/**
 * Review s24-b, 1: a complaint refund returns money from `merchant:sales` to the customer, so the
 * order's margin and fee income in /books (chat and GET /books) are after it. Before, /books kept
 * the refunded order's whole margin and its fee in fee income: a profit the merchant did not make.
 */

const t = translator(
  createI18n(() => "en"),
  "en",
);

function system() {
  const { queue, ledger, store, books } = booksInMemory(() => 1_000_000);
  const complaints = createComplaints({
    store: createMemoryComplaintStore({ ledger, outbox: queue }),
    orders: store,
    logger: createLogger({ level: "silent" }),
  });
  return { ledger, store, books, complaints };
}

/** An order paid Rs 105 (amount 100, fee 5), the aggregator debited Rs 98: margin Rs 7. */
async function success(s: ReturnType<typeof system>, ref: string) {
  await succeededOrder(
    s.store,
    ref,
    { amountPaisa: 10_000, feePaisa: 500, discountPaisa: 0, totalPaisa: 10_500 },
    walletEffects(9_800, 9_800),
  );
}

async function refund(s: ReturnType<typeof system>, ref: string, paisa: number) {
  const { done } = await refundedComplaint(s.complaints, 11, ref, paisa);
  expect(done.ok).toBe(true);
}

describe("/books after complaint refunds", () => {
  it("takes a refund out of the order's margin and its fee's share out of fee income", async () => {
    const s = system();
    await creditCustomer(s.ledger, 11, 100_000, "c1");
    await success(s, "1700000000101");
    await success(s, "1700000000102");
    const before = await s.books.report();
    expect(before.margin).toMatchObject({ orders: 2, marginPaisa: 1_400 });
    expect(before.feeIncomePaisa).toBe(1_000);

    // The whole Rs 105 of the first order; half (Rs 52.50) of the second.
    await refund(s, "1700000000101", 10_500);
    await refund(s, "1700000000102", 5_250);
    const after = await s.books.report();
    // 7 − 105 = −98 and 7 − 52.50 = −45.50: the merchant lost the aggregator's debit.
    expect(after.margin).toMatchObject({ orders: 2, marginPaisa: 1_400 - 15_750 });
    // The first order's whole fee (5), half of the second's (2.50).
    expect(after.feeIncomePaisa).toBe(250);
    expect(after.complaintRefunds).toMatchObject({ refunds: 2, paisa: 15_750, feePaisa: 750 });
    expect(before.complaintRefunds).toMatchObject({ refunds: 0, paisa: 0, feePaisa: 0 });
    expect(booksText(t, before)).not.toMatch(/Refunded on complaints/);
    expect(booksText(t, after)).toMatch(
      /Margin: -?.*on 2 orders[\s\S]*Refunded on complaints: 2 refunds, Rs\.? ?157\.50 \(fees in it: Rs\.? ?7\.50\)/,
    );
    expect(after.balanced).toBe(true);
    await expectBooksBalanced(s.ledger);
  });
});
