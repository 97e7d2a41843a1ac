import { z } from "zod";
import { account } from "../ledger/index.ts";
import type { Notification } from "../orders/model.ts";
import { type BooksDeps, FLOAT_OPENING_ID } from "./deps.ts";
import { floatView, inFlight, scan } from "./scan.ts";

export { type BooksDeps, FLOAT_OPENING_ID };

/**
 * The admin's books (issue 15): what the merchant owes (customers, agents), what it has earned
 * (fees, margin), and the merchant's wallet at the aggregator as the books expect it against what
 * the aggregator reports. Read by /books, the metrics listener's GET /books and the daily check.
 *
 * The books only know the float's movements; its opening balance comes from the aggregator: the
 * first report with the books' figure known is booked once as an adjustment with a reason
 * ("float-opening", merchant:float against merchant:adjustments), so every later difference is a
 * real one. Expected = the books' float − the debits of orders the aggregator has already taken
 * but our books book only at success (open orders whose execute answer said so). The books' float
 * and the open orders are read before and after the aggregator's answer: only when the two views
 * agree and no debit is unknown is the figure a verdict (and the opening booked).
 */

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
  /** The scheduled check's last run (any process's); null before the first. */
  lastCheck: LastCheck | null;
  float: {
    booksPaisa: number;
    inFlightPaisa: number;
    /**
     * Debits the aggregator's figure may or may not include (the check waits): orders placed or
     * sent without an answer yet, and orders that moved while the aggregator was asked
     * (scan.ts `inFlight`).
     */
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

/**
 * What the scheduled check last did (issue 25, "true words"): when it ran, its verdict and whether
 * admins were alerted, so /books says what was done rather than what should have been.
 *  - `within` / `beyond`: the float against the tolerance (`beyond` also when the books did not
 *    balance); `alertedAt`: when the alert covering this drift was queued for `alertedAdmins`
 *    admins (absent: no alert was sent, e.g. no admin configured);
 *  - `deferred`: no verdict, `unknownDebits` orders' debits were not known yet;
 *  - `no_report`: no verdict, the aggregator's wallet did not answer.
 */
const lastCheckSchema = z.object({
  at: z.number().int(),
  verdict: z.enum(["within", "beyond", "deferred", "no_report"]),
  driftPaisa: z.number().int().nullable(),
  balanced: z.boolean(),
  unknownDebits: z.number().int().nonnegative(),
  alertedAt: z.number().int().optional(),
  alertedAdmins: z.number().int().nonnegative().optional(),
});
export type LastCheck = z.infer<typeof lastCheckSchema>;
const LAST_CHECK = "books-check";

const FLOAT_ANCHORED = "float-anchored";
const BOOKS_DRIFT = "books-drift";

/** The alert an earlier check sent for a drift still open, if any. */
function alertOf(last: LastCheck | null): Pick<LastCheck, "alertedAt" | "alertedAdmins"> {
  if (last?.alertedAt === undefined) return {};
  return {
    alertedAt: last.alertedAt,
    ...(last.alertedAdmins === undefined ? {} : { alertedAdmins: last.alertedAdmins }),
  };
}

/** The last check's record; an unreadable one (never written by us) counts as none. */
async function lastCheck(deps: Pick<BooksDeps, "crossings" | "logger">): Promise<LastCheck | null> {
  const raw = await deps.crossings.recall(LAST_CHECK);
  if (raw === null) return null;
  try {
    return lastCheckSchema.parse(JSON.parse(raw));
  } catch {
    deps.logger?.warn("books: the last check's record is unreadable");
    return null;
  }
}

/**
 * The admins' alert of a float drift (or books that do not balance), one per admin. Without the
 * float's verdict (books that do not balance while a debit is unknown or the aggregator is silent)
 * it carries no float figures: the alert then names only the imbalance.
 */
function driftAlerts(
  r: BooksReport,
  adminChatIds: readonly number[],
  floatKnown: boolean,
): Notification[] {
  const float: Record<string, number> = floatKnown
    ? {
        expectedPaisa: r.float.expectedPaisa,
        reportedPaisa: r.float.reportedPaisa ?? 0,
        driftPaisa: r.float.driftPaisa ?? 0,
      }
    : {};
  return adminChatIds.map((chatId) => ({
    kind: "admin_alert",
    topic: "books_drift",
    status: "success",
    chatId,
    at: r.at,
    figures: { ...float, tolerancePaisa: r.float.tolerancePaisa, balanced: r.balanced ? 1 : 0 },
  }));
}

export function createBooks(deps: BooksDeps, settings: { tolerancePaisa: number }) {
  /** The float as the books see it (debit-normal: debits − credits). */
  const booksFloat = async () => -(await deps.ledger.balance(account.merchant.float)).postedPaisa;

  /**
   * Books the opening float once (see above) and answers by how much the books' float moved. Two
   * reports at once (the check at start and an admin's /books, or two processes) may both get
   * here: the transfer's id makes it one booking, and the one that finds it booked already reads
   * the float again, so neither reports the opening as a drift.
   */
  async function anchor(books: number, expected: number, reported: number): Promise<number> {
    const diff = reported - expected;
    if (diff === 0) {
      await deps.crossings.markOnce(FLOAT_ANCHORED);
      return 0;
    }
    const r = await deps.ledger.transfer({
      id: FLOAT_OPENING_ID,
      debit: diff > 0 ? account.merchant.float : account.merchant.adjustments,
      credit: diff > 0 ? account.merchant.adjustments : account.merchant.float,
      amountPaisa: Math.abs(diff),
      kind: "adjustment",
      reason: "opening float as the aggregator reported it",
    });
    await deps.crossings.markOnce(FLOAT_ANCHORED);
    if (r.ok && !r.duplicate) {
      deps.logger?.info({ paisa: diff }, "opening float booked");
      return diff;
    }
    return (await booksFloat()) - books;
  }

  async function report(): Promise<BooksReport> {
    const at = deps.now();
    const [s, check, last, marked] = await Promise.all([
      scan(deps),
      deps.ledger.check(),
      lastCheck(deps),
      deps.crossings.isMarked(FLOAT_ANCHORED),
    ]);
    const anchored = s.anchored || marked;
    // The float's side is read before and after the aggregator's answer (an HTTP call: orders
    // move meanwhile), and the views read after the mark: whoever set it booked the opening
    // first, so neither view can miss an opening booked before the mark was read.
    const before = await floatView(deps, booksFloat);
    let reported: number | null = null;
    try {
      reported = (await deps.walletBalance()).creditAvailablePaisa;
    } catch (err) {
      deps.logger?.warn({ err: String(err) }, "books: the aggregator's wallet did not answer");
    }
    const after = await floatView(deps, booksFloat);
    // An order unknown, or anything that moved during the call, is counted as unknown: the
    // reading may or may not include it, so it gives no verdict and books no opening.
    const flying = inFlight(before, after);
    let books = after.booksPaisa;
    if (reported !== null && flying.unknown === 0 && !anchored) {
      books += await anchor(books, books - flying.paisa, reported);
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
      lastCheck: last,
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
   * tolerance or the books do not balance (re-armed once it is back within it). Books that do not
   * balance are alerted whatever the float's state: only the float's half of the verdict waits for
   * unknown debits or the aggregator's answer. What it did is recorded (LastCheck) for /books.
   */
  async function check(adminChatIds: readonly number[]): Promise<BooksReport> {
    const r = await report();
    const floatKnown = r.float.withinTolerance !== null && r.float.unknownDebits === 0;
    const base = {
      at: r.at,
      // A difference read while a debit was unknown is no figure to record.
      driftPaisa: floatKnown ? r.float.driftPaisa : null,
      balanced: r.balanced,
      unknownDebits: r.float.unknownDebits,
    };
    // Balanced, but no figure or a debit we cannot know yet: no verdict this time (neither alert
    // nor re-arm).
    if (r.balanced && !floatKnown) {
      deps.logger?.info({ unknownDebits: r.float.unknownDebits }, "books check deferred");
      const verdict = r.float.unknownDebits > 0 ? "deferred" : "no_report";
      // A drift alerted earlier stays alerted (its crossing is still open): carried on.
      return record(r, { ...base, verdict, ...alertOf(r.lastCheck) });
    }
    const drifting = !r.balanced || r.float.withinTolerance === false;
    const alerts = drifting ? driftAlerts(r, adminChatIds, floatKnown) : [];
    const crossed = await deps.crossings.record(BOOKS_DRIFT, drifting, alerts);
    if (crossed) deps.logger?.warn({ float: r.float, balanced: r.balanced }, "books drift alert");
    if (!drifting) return record(r, { ...base, verdict: "within" });
    // Still beyond since an earlier check: the alert of that crossing is the one admins have.
    // Crossed with nobody to tell (no admin configured): recorded as alerting none.
    const alert = crossed
      ? alerts.length > 0
        ? { alertedAt: r.at, alertedAdmins: alerts.length }
        : { alertedAdmins: 0 }
      : alertOf(r.lastCheck);
    return record(r, { ...base, verdict: "beyond", ...alert });
  }

  async function record(r: BooksReport, last: LastCheck): Promise<BooksReport> {
    await deps.crossings.remember(LAST_CHECK, JSON.stringify(lastCheckSchema.parse(last)));
    return { ...r, lastCheck: last };
  }

  return { report, check };
}

export type Books = ReturnType<typeof createBooks>;
