import { account, type LedgerStore } from "../ledger/index.ts";
import type { Logger } from "../logger.ts";
import { isInferred } from "../orders/inferred-debit.ts";
import { chargedPaisa, type Notification, type Order } from "../orders/model.ts";
import { INFERRED_REASON } from "../orders/store.ts";
import { margin } from "../pricing/index.ts";
import type { Crossings } from "./crossing.ts";

/**
 * The admin's books (issue 15): what the merchant owes (customers, agents), what it has earned
 * (fees, margin), and the merchant's wallet at the aggregator as the books expect it against what
 * the aggregator reports. Read by /books, the metrics listener's GET /books and the daily check.
 *
 * The books only know the float's movements; its opening balance comes from the aggregator: the
 * first report with the books' figure known is booked once as an adjustment with a reason
 * ("float-opening", merchant:float against merchant:adjustments), so every later difference is a
 * real one. Expected = the books' float − the debits of orders the aggregator has already taken
 * but our books book only at success (open orders whose execute answer said so).
 */

export interface BooksDeps {
  ledger: LedgerStore;
  orders: {
    get(reference: string): Promise<Order | null>;
    listOpen(opts: { createdBefore: number; limit: number; offset?: number }): Promise<Order[]>;
  };
  /** The aggregator's wallet now; throws when it cannot say. */
  walletBalance(): Promise<{ creditAvailablePaisa: number }>;
  crossings: Crossings;
  now: () => number;
  logger?: Logger;
}

export interface BooksReport {
  at: number;
  /** The ledger's own check: recomputed = stored, sums zero, nobody below zero. */
  balanced: boolean;
  postedSumPaisa: number;
  pendingSumPaisa: number;
  problems: number;
  customers: { accounts: number; balancePaisa: number; heldPaisa: number };
  agents: { accounts: number; balancePaisa: number; heldPaisa: number };
  feeIncomePaisa: number;
  /** Σ over successful orders booked: price paid − aggregator debit + commission reported. */
  margin: { orders: number; marginPaisa: number; commissionReportedPaisa: number };
  /**
   * Successful orders whose aggregator debit is inferred from the order (no answer carried it:
   * src/orders/inferred-debit.ts), and their sum: booked all the same, so the float check stays
   * whole, but a figure of ours, not the aggregator's.
   */
  inferredDebits: { orders: number; paisa: number };
  float: {
    booksPaisa: number;
    inFlightPaisa: number;
    /** Orders sent without an answer yet: their debit, if any, is unknown (the check waits). */
    unknownDebits: number;
    expectedPaisa: number;
    /** The aggregator's `credit_available` now; null when it did not answer. */
    reportedPaisa: number | null;
    /** reported − expected; null without a report. */
    driftPaisa: number | null;
    tolerancePaisa: number;
    /** null without a report. */
    withinTolerance: boolean | null;
  };
}

export const FLOAT_OPENING_ID = "float-opening";
const FLOAT_ANCHORED = "float-anchored";
export const BOOKS_DRIFT = "books-drift";

/** Open orders read per page when adding up the aggregator's debits not yet booked. */
const OPEN_PAGE = 500;

export function createBooks(deps: BooksDeps, settings: { tolerancePaisa: number }) {
  async function scan() {
    const totals = {
      customers: { accounts: 0, balancePaisa: 0, heldPaisa: 0 },
      agents: { accounts: 0, balancePaisa: 0, heldPaisa: 0 },
    };
    for (const id of await deps.ledger.accounts()) {
      const group = id.startsWith("customer:")
        ? totals.customers
        : id.startsWith("agent:")
          ? totals.agents
          : null;
      if (!group) continue;
      const b = await deps.ledger.balance(id);
      group.accounts += 1;
      group.balancePaisa += b.postedPaisa;
      group.heldPaisa += b.heldPaisa;
    }
    // Margin: every float debit is one successful order booked (orders/store.ts bookingsOf).
    const m = { orders: 0, marginPaisa: 0, commissionReportedPaisa: 0 };
    const inferred = { orders: 0, paisa: 0 };
    let anchored = false;
    let after: string | undefined;
    for (;;) {
      const page = await deps.ledger.journal(after === undefined ? {} : { after });
      for (const e of page.entries) {
        if (e.id === FLOAT_OPENING_ID) anchored = true;
        if (e.kind !== "float_debit" || !e.reference) continue;
        const order = await deps.orders.get(e.reference);
        // In Nepal rupees, as the debit is: an India order's converted total.
        const paid = order?.holdId !== undefined ? chargedPaisa(order) : 0;
        const commission = order?.wallet?.commissionPaisa ?? 0;
        // The order's figure is the latest: an inferred debit corrected later (float-fix).
        const debit = order?.wallet?.debitAmountPaisa ?? e.amountPaisa;
        m.orders += 1;
        m.commissionReportedPaisa += commission;
        m.marginPaisa += margin({
          pricePaidPaisa: paid,
          providerDebitPaisa: debit,
          commissionPaisa: commission,
        });
        if (order ? isInferred(order.wallet) : e.reason === INFERRED_REASON) {
          inferred.orders += 1;
          inferred.paisa += debit;
        }
      }
      if (!page.next) break;
      after = page.next;
    }
    return { ...totals, margin: m, inferred, anchored };
  }

  /**
   * The aggregator's debits our books do not have yet: open orders whose execute answer gave the
   * figure; and how many were sent without an answer yet (their debit is unknown, if any).
   */
  async function inFlight(): Promise<{ paisa: number; unknown: number }> {
    let paisa = 0;
    let unknown = 0;
    for (let offset = 0; ; offset += OPEN_PAGE) {
      const open = await deps.orders.listOpen({
        createdBefore: deps.now(),
        limit: OPEN_PAGE,
        offset,
      });
      for (const o of open) {
        if (o.wallet) paisa += o.wallet.debitAmountPaisa;
        else if (o.status !== "placed") unknown += 1;
      }
      if (open.length < OPEN_PAGE) return { paisa, unknown };
    }
  }

  /** The float as the books see it (debit-normal: debits − credits). */
  const booksFloat = async () => -(await deps.ledger.balance(account.merchant.float)).postedPaisa;

  /** Books the opening float once (see above). */
  async function anchor(expected: number, reported: number): Promise<number> {
    const diff = reported - expected;
    if (!(await deps.crossings.markOnce(FLOAT_ANCHORED))) return 0;
    if (diff === 0) return 0;
    const r = await deps.ledger.transfer({
      id: FLOAT_OPENING_ID,
      debit: diff > 0 ? account.merchant.float : account.merchant.adjustments,
      credit: diff > 0 ? account.merchant.adjustments : account.merchant.float,
      amountPaisa: Math.abs(diff),
      kind: "adjustment",
      reason: "opening float as the aggregator reported it",
    });
    if (!r.ok || r.duplicate) return 0;
    deps.logger?.info({ paisa: diff }, "opening float booked");
    return diff;
  }

  async function report(): Promise<BooksReport> {
    const at = deps.now();
    const [s, check, flying] = await Promise.all([scan(), deps.ledger.check(), inFlight()]);
    let reported: number | null = null;
    try {
      reported = (await deps.walletBalance()).creditAvailablePaisa;
    } catch (err) {
      deps.logger?.warn({ err: String(err) }, "books: the aggregator's wallet did not answer");
    }
    let books = await booksFloat();
    // The opening is booked only when no debit is unknown: it must not absorb one.
    const settled = flying.unknown === 0;
    if (
      reported !== null &&
      settled &&
      !s.anchored &&
      !(await deps.crossings.isMarked(FLOAT_ANCHORED))
    ) {
      books += await anchor(books - flying.paisa, reported);
    }
    const expected = books - flying.paisa;
    const drift = reported === null ? null : reported - expected;
    return {
      at,
      balanced: check.ok,
      postedSumPaisa: check.postedSum,
      pendingSumPaisa: check.pendingSum,
      problems: check.differences.length + check.belowZero.length + check.pendingProblems.length,
      customers: s.customers,
      agents: s.agents,
      feeIncomePaisa: (await deps.ledger.balance(account.merchant.fees)).postedPaisa,
      margin: s.margin,
      inferredDebits: s.inferred,
      float: {
        booksPaisa: books,
        inFlightPaisa: flying.paisa,
        unknownDebits: flying.unknown,
        expectedPaisa: expected,
        reportedPaisa: reported,
        driftPaisa: drift,
        tolerancePaisa: settings.tolerancePaisa,
        withinTolerance: drift === null ? null : Math.abs(drift) <= settings.tolerancePaisa,
      },
    };
  }

  /**
   * The scheduled check: the report, and one alert to the admins when the float drifts beyond the
   * tolerance (re-armed once it is back within it).
   */
  async function check(adminChatIds: readonly number[]): Promise<BooksReport> {
    const r = await report();
    // No figure, or a debit we cannot know yet: no verdict this time (neither alert nor re-arm).
    if (r.float.withinTolerance === null || r.float.unknownDebits > 0) {
      deps.logger?.info({ unknownDebits: r.float.unknownDebits }, "books check deferred");
      return r;
    }
    const drifting = !r.float.withinTolerance || !r.balanced;
    const alerts: Notification[] = drifting
      ? adminChatIds.map((chatId) => ({
          kind: "admin_alert",
          topic: "books_drift",
          status: "success",
          chatId,
          at: r.at,
          figures: {
            expectedPaisa: r.float.expectedPaisa,
            reportedPaisa: r.float.reportedPaisa ?? 0,
            driftPaisa: r.float.driftPaisa ?? 0,
            tolerancePaisa: r.float.tolerancePaisa,
            balanced: r.balanced ? 1 : 0,
          },
        }))
      : [];
    if (await deps.crossings.record(BOOKS_DRIFT, drifting, alerts)) {
      deps.logger?.warn({ float: r.float, balanced: r.balanced }, "books drift alert");
    }
    return r;
  }

  return { report, check };
}

export type Books = ReturnType<typeof createBooks>;
