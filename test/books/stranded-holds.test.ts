import { describe, expect, it } from "vitest";
import { createBooks, createMemoryCrossings } from "../../src/books/index.ts";
import { account, createMemoryLedger } from "../../src/ledger/index.ts";
import { createMemoryNotificationQueue } from "../../src/notify/index.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import { holdIdOf, type Order } from "../../src/orders/model.ts";
import { transition } from "../../src/orders/state.ts";
import { heldOrder } from "../support/books.ts";

/**
 * LEDGER.md's check "every final order has exactly one post or one void", run by /books and the
 * books check (review s24-b, 3): a hold still pending whose order is final (a refused post, a
 * restore from a backup taken between keys, a hand edit) or missing is a hold problem, so the
 * books do not balance and the admins are alerted. Before, /books said "balanced".
 */

/** A placed order of Rs 10 (no fee), holding it on customer 11's balance. */
const prepaid = (ref: string) =>
  heldOrder(ref, { amountPaisa: 1_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 1_000 });

describe("holds of final orders in /books", () => {
  it("a final order's hold never posted or voided, and a hold without its order, are problems", async () => {
    const queue = createMemoryNotificationQueue();
    const ledger = createMemoryLedger();
    const store = createMemoryOrderStore({ ledger, outbox: queue });
    /** What a restore or a hand edit leaves: the order says final, its hold is still pending. */
    const edited = new Map<string, Order>();
    const books = createBooks(
      {
        ledger,
        orders: {
          get: async (ref) => edited.get(ref) ?? store.get(ref),
          listOpen: (q) => store.listOpen(q),
        },
        walletBalance: async () => ({ creditAvailablePaisa: 0 }),
        crossings: createMemoryCrossings(queue),
        now: Date.now,
      },
      { tolerancePaisa: 100 },
    );
    await ledger.transfer({
      id: "c1",
      debit: account.merchant.funding,
      credit: account.customer(11),
      amountPaisa: 10_000,
      kind: "credit",
    });
    // An open order (held, fine) and a failed one (voided, fine).
    await store.create(prepaid("1700000000201"));
    await store.create(prepaid("1700000000202"));
    await store.update("1700000000202", (cur) => {
      const t = transition(cur, { source: "webhook", status: "failed", at: Date.now() });
      return t.changed ? { order: t.order, notifications: t.notifications } : null;
    });
    const fine = await books.report();
    expect(fine).toMatchObject({ balanced: true, problems: 0 });
    expect(fine.ledgerProblems.pendingProblems).toBe(0);

    // The open order now reads success without its post; a hold whose order is gone.
    const open = await store.get("1700000000201");
    edited.set("1700000000201", { ...open!, status: "success" });
    await ledger.hold({
      id: holdIdOf("1700000000299"),
      debit: account.customer(11),
      credit: account.merchant.sales,
      amountPaisa: 500,
      reference: "1700000000299",
    });
    const r = await books.check([900]);
    expect(r).toMatchObject({ balanced: false, problems: 2 });
    expect(r.ledgerProblems).toEqual({ differences: 0, belowZero: 0, pendingProblems: 2 });
    expect(r.lastCheck).toMatchObject({ balanced: false });
    expect(r.raised.unbalanced).toBe(true);
  });
});
