import { describe, expect, it } from "vitest";
import { createBooks, createMemoryCrossings, FLOAT_OPENING_ID } from "../../src/books/index.ts";
import { account, createMemoryLedger } from "../../src/ledger/index.ts";
import { createMemoryNotificationQueue } from "../../src/notify/index.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import { holdIdOf, type Order, type WalletEffects } from "../../src/orders/model.ts";
import { booksInMemory, moveOrder } from "../support/books.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { placedOrder } from "../support/orders.ts";

/**
 * The admin's books in figures (issue 15), on the memory stores: balances and holds, fee income,
 * margin (price paid − the aggregator's debit + commission), the float the books expect against
 * the aggregator's report, the opening float booked once, and a check that waits while an order's
 * debit is unknown instead of alerting or booking a wrong opening.
 */

function system(walletPaisa: { value: number }) {
  const { queue, ledger, store, books } = booksInMemory(() => walletPaisa.value);
  const consumer = queue.consumer("t");
  const alerts = async () =>
    (await consumer.read(100, 0))
      .map((d) => d.notification)
      .filter((n) => n.kind === "admin_alert");
  return { ledger, store, books, alerts };
}

const wallet = (debit: number, commission?: number): WalletEffects => ({
  amountPaisa: debit,
  serviceChargePaisa: 0,
  instantDiscountPaisa: 0,
  debitAmountPaisa: debit,
  creditAvailablePaisa: null,
  ...(commission === undefined ? {} : { commissionPaisa: commission }),
});

function prepaid(ref: string, userId: number, amount: number, fee: number, discount: number) {
  return placedOrder({
    reference: ref,
    idempotencyKey: `k-${ref}`,
    userId,
    chatId: userId,
    amountPaisa: amount,
    price: {
      amountPaisa: amount,
      feePaisa: fee,
      discountPaisa: discount,
      totalPaisa: amount + fee - discount,
    },
    holdId: holdIdOf(ref),
  }) as Order;
}

describe("the admin's books", () => {
  it("sum to zero and show balances, holds, fee income, margin and the float", async () => {
    const aggregator = { value: 1_000_000 };
    const s = system(aggregator);
    await s.ledger.transfer({
      id: "c1",
      debit: account.merchant.funding,
      credit: account.customer(11),
      amountPaisa: 100_000,
      kind: "credit",
    });
    // A success: paid 103.00 (fee 5, discount 2); the aggregator took 98.00, commission 3.00.
    await s.store.create(prepaid("1700000000101", 11, 10_000, 500, 200));
    await moveOrder(s.store, "1700000000101", "queued", wallet(9_800, 300));
    await moveOrder(s.store, "1700000000101", "success");
    aggregator.value -= 9_800;
    // Two still open with their figures (the aggregator took them, our books not yet), held.
    // (A placed one would leave the float without a verdict: it may be executed any moment.)
    await s.store.create(prepaid("1700000000102", 11, 5_000, 0, 0));
    await moveOrder(s.store, "1700000000102", "queued", wallet(5_000));
    aggregator.value -= 5_000;
    await s.store.create(prepaid("1700000000103", 11, 2_000, 0, 0));
    await moveOrder(s.store, "1700000000103", "pending", wallet(2_000));
    aggregator.value -= 2_000;

    const r = await s.books.report();
    expect(r).toMatchObject({ balanced: true, postedSumPaisa: 0, pendingSumPaisa: 0, problems: 0 });
    expect(r.customers).toEqual({
      accounts: 1,
      balancePaisa: 100_000 - 10_300,
      heldPaisa: 5_000 + 2_000,
    });
    expect(r.feeIncomePaisa).toBe(500);
    expect(r.margin).toEqual({
      orders: 1,
      marginPaisa: 10_300 - 9_800 + 300,
      commissionReportedPaisa: 300,
    });
    // The opening float was booked from this first report, so the books now agree.
    expect(r.float).toMatchObject({
      inFlightPaisa: 7_000,
      unknownDebits: 0,
      reportedPaisa: 1_000_000 - 16_800,
      expectedPaisa: 1_000_000 - 16_800,
      driftPaisa: 0,
      withinTolerance: true,
    });
    const opening = (await s.ledger.journal()).entries.filter((e) => e.id === FLOAT_OPENING_ID);
    expect(opening).toMatchObject([
      { kind: "adjustment", debit: "merchant:float", amountPaisa: 1_000_000 },
    ]);
    // Once only: a later difference is a drift, not a new opening.
    aggregator.value -= 777;
    const later = await s.books.report();
    expect(later.float.driftPaisa).toBe(-777);
    expect(later.float.withinTolerance).toBe(false);
    expect(
      (await s.ledger.journal()).entries.filter((e) => e.id === FLOAT_OPENING_ID),
    ).toHaveLength(1);
    await expectBooksBalanced(s.ledger);
  });

  it("waits while an order's debit is unknown: no opening booked, no alert, then the verdict", async () => {
    const aggregator = { value: 500_000 };
    const s = system(aggregator);
    await s.store.create(placedOrder({ reference: "1700000000201", idempotencyKey: "k201" }));
    await moveOrder(s.store, "1700000000201", "submitting");
    // The aggregator took it, the answer is not in yet.
    aggregator.value -= 10_000;
    const waiting = await s.books.check([3001]);
    expect(waiting.float.unknownDebits).toBe(1);
    expect(await s.alerts()).toEqual([]);
    expect((await s.ledger.journal()).entries).toEqual([]);

    await moveOrder(s.store, "1700000000201", "queued", wallet(10_000));
    const known = await s.books.check([3001]);
    expect(known.float).toMatchObject({ unknownDebits: 0, inFlightPaisa: 10_000, driftPaisa: 0 });
    // Open mode: the success books the debit from the merchant's own money; still no drift.
    await moveOrder(s.store, "1700000000201", "success");
    expect((await s.books.check([3001])).float).toMatchObject({ inFlightPaisa: 0, driftPaisa: 0 });
    expect(await s.alerts()).toEqual([]);
    // A drift beyond the tolerance alerts once.
    aggregator.value += 5_000;
    await s.books.check([3001]);
    await s.books.check([3001]);
    expect(await s.alerts()).toMatchObject([
      { topic: "books_drift", chatId: 3001, figures: { driftPaisa: 5_000 } },
    ]);
    await expectBooksBalanced(s.ledger);
  });
});

describe("the float read while orders move during the aggregator's answer", () => {
  /** The books whose wallet call runs `during` (once) before it answers. */
  function moving(aggregator: { value: number }) {
    let during: (() => Promise<void>) | undefined;
    const { queue, ledger, store, books } = booksInMemory(async () => {
      const run = during;
      during = undefined;
      await run?.();
      return aggregator.value;
    });
    const consumer = queue.consumer("t");
    const alerts = async () =>
      (await consumer.read(100, 0))
        .map((d) => d.notification)
        .filter((n) => n.kind === "admin_alert");
    return {
      ledger,
      store,
      books,
      alerts,
      during: (f: () => Promise<void>) => {
        during = f;
      },
    };
  }

  // Fails on the code before: the open orders were read before the call and the books' float
  // after it, so the success was counted twice (a drift of +Rs 100 and an alert).
  it("gives no verdict when an order succeeds during the call, and no false alert", async () => {
    const aggregator = { value: 1_000_000 };
    const s = moving(aggregator);
    await s.books.check([3001]); // books the opening float
    await s.store.create(placedOrder({ reference: "1700000000501", idempotencyKey: "k501" }));
    await moveOrder(s.store, "1700000000501", "submitting");
    await moveOrder(s.store, "1700000000501", "queued", wallet(10_000));
    aggregator.value -= 10_000;
    s.during(() => moveOrder(s.store, "1700000000501", "success"));
    const racing = await s.books.check([3001]);
    expect(racing.lastCheck).toMatchObject({ verdict: "deferred", unknownDebits: 1 });
    expect(await s.alerts()).toEqual([]);
    const quiet = await s.books.check([3001]);
    expect(quiet.lastCheck).toMatchObject({ verdict: "within", driftPaisa: 0 });
    expect(await s.alerts()).toEqual([]);
  });

  // Fails on the code before: the placed order counted neither in flight nor as unknown, so its
  // debit taken during the call went into the opening float, and was booked again at success.
  it("books no opening from a reading an order was executed during; the opening comes later, right", async () => {
    const aggregator = { value: 1_000_000 };
    const s = moving(aggregator);
    await s.store.create(placedOrder({ reference: "1700000000502", idempotencyKey: "k502" }));
    s.during(async () => {
      await moveOrder(s.store, "1700000000502", "submitting");
      aggregator.value -= 10_000; // the aggregator debits at execute
      await moveOrder(s.store, "1700000000502", "queued", wallet(10_000));
    });
    const first = await s.books.check([3001]);
    expect(first.lastCheck).toMatchObject({ verdict: "deferred", unknownDebits: 1 });
    expect((await s.ledger.journal()).entries.filter((e) => e.id === FLOAT_OPENING_ID)).toEqual([]);
    await moveOrder(s.store, "1700000000502", "success");
    const settled = await s.books.check([3001]);
    expect(settled.lastCheck).toMatchObject({ verdict: "within", driftPaisa: 0 });
    expect(settled.float.booksPaisa).toBe(1_000_000 - 10_000);
    expect(await s.alerts()).toEqual([]);
  });

  it("counts a placed order's debit as unknown: it may be executed any moment", async () => {
    const s = moving({ value: 1_000_000 });
    await s.store.create(placedOrder({ reference: "1700000000503", idempotencyKey: "k503" }));
    const r = await s.books.check([3001]);
    expect(r.float.unknownDebits).toBe(1);
    expect(r.lastCheck).toMatchObject({ verdict: "deferred", unknownDebits: 1 });
    expect((await s.ledger.journal()).entries).toEqual([]);
  });

  it("gives no verdict when the float is booked during the call with no open order moving", async () => {
    const aggregator = { value: 1_000_000 };
    const s = moving(aggregator);
    await s.books.check([3001]); // books the opening float
    // A debit booked meanwhile (an order placed and settled within the call, a late fix).
    s.during(async () => {
      await s.ledger.transfer({
        id: "late-fix",
        debit: account.merchant.funding,
        credit: account.merchant.float,
        amountPaisa: 5_000,
        kind: "adjustment",
        reason: "test",
      });
    });
    expect((await s.books.check([3001])).lastCheck).toMatchObject({
      verdict: "deferred",
      unknownDebits: 1,
    });
    expect(await s.alerts()).toEqual([]);
  });
});

describe("the books read while another report books the opening float", () => {
  it("never calls the opening a drift (the float is read after the anchored mark)", async () => {
    const queue = createMemoryNotificationQueue();
    const ledger = createMemoryLedger();
    const store = createMemoryOrderStore({ ledger, outbox: queue });
    const crossings = createMemoryCrossings(queue);
    // The slow reader stops right before it asks whether the opening is booked, until the other
    // report has booked it.
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slowCrossings = {
      ...crossings,
      isMarked: async (name: string) => {
        await gate;
        return crossings.isMarked(name);
      },
    };
    const deps = {
      ledger,
      orders: store,
      walletBalance: async () => ({ creditAvailablePaisa: 5_000_000 }),
      now: Date.now,
    };
    const slow = createBooks({ ...deps, crossings: slowCrossings }, { tolerancePaisa: 100 });
    const fast = createBooks({ ...deps, crossings }, { tolerancePaisa: 100 });
    const slowReport = slow.report();
    const first = await fast.report();
    expect(first.float.driftPaisa).toBe(0);
    release();
    const late = await slowReport;
    expect(late.float.driftPaisa).toBe(0);
    expect(late.float.expectedPaisa).toBe(5_000_000);
  });
});
