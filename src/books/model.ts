import { z } from "zod";

/** The books' report and the scheduled check's record (report.ts, alerts.ts). */

export interface BooksReport {
  at: number;
  /**
   * The ledger's own check (recomputed = stored, sums zero, nobody below zero, holds resolved at
   * most once) and no final or missing order's hold still pending (scan.ts `strandedHolds`).
   */
  balanced: boolean;
  postedSumPaisa: number;
  pendingSumPaisa: number;
  problems: number;
  /** Which of the ledger's checks failed, counted (`problems` is their sum). */
  ledgerProblems: { differences: number; belowZero: number; pendingProblems: number };
  customers: { accounts: number; balancePaisa: number; heldPaisa: number };
  agents: { accounts: number; balancePaisa: number; heldPaisa: number };
  /** `merchant:fees` posted, less the fee part of complaint refunds (`complaintRefunds.feePaisa`). */
  feeIncomePaisa: number;
  /**
   * Σ over successful orders booked (each float debit): price paid − aggregator debit + commission
   * reported, less their complaint refunds (money returned from sales to the customer; a refund
   * of an order not in it is left out too: `complaintRefunds.outOfMargin`).
   */
  margin: { orders: number; marginPaisa: number; commissionReportedPaisa: number };
  /**
   * Complaint refunds booked (`merchant:sales` → customer, kind reversal): how many, their sum,
   * and the fee part of it taken out of fee income (the fee's share of the order's total).
   */
  complaintRefunds: {
    refunds: number;
    paisa: number;
    feePaisa: number;
    /**
     * Of these, refunds whose order could not be read (missing, trimmed): their fee share cannot
     * be computed, so it stays in fee income (at most their `paisa`); their whole amount is still
     * taken out of the margin. Shown as a warning while any.
     */
    orderUnread: { refunds: number; paisa: number };
    /**
     * Of these, refunds of orders booked with no aggregator debit (a success whose debit was
     * zero): those orders are not in the margin (counted by their float debit), so neither are
     * their refunds. Shown while any.
     */
    outOfMargin: { refunds: number; paisa: number };
  };
  /**
   * Successful orders whose aggregator debit is inferred from the order (no answer carried it:
   * src/orders/inferred-debit.ts), and their sum: booked all the same, so the float check stays
   * whole, but a figure of ours, not the aggregator's.
   */
  inferredDebits: { orders: number; paisa: number };
  /** The scheduled check's last run (any process's); null before the first. */
  lastCheck: LastCheck | null;
  /**
   * Which of the admins' alerts stand now (crossed and not re-armed since), each its own: the
   * float's drift, the books not balancing, no verdict for hours (alerts.ts), the low float
   * (float-watch.ts). Several may stand at once; /books and the back office list each (raised.ts).
   */
  raised: Raised;
  /** LOW_FLOAT_ALERT: the low-float alert's threshold (0: off). */
  lowFloatPaisa: number;
  float: {
    booksPaisa: number;
    inFlightPaisa: number;
    /**
     * Debits the aggregator's figure may or may not include (the check waits): orders placed or
     * sent without an answer yet, and orders that moved while the aggregator was asked
     * (scan.ts `inFlight`).
     */
    unknownDebits: number;
    /**
     * The most the unknown debits can move the difference, either way (scan.ts `inFlight`): the
     * true difference is within driftPaisa ± this. 0 with no unknown debit.
     */
    unknownBoundPaisa: number;
    /** The opening float is booked: without it the difference is the whole wallet, no drift. */
    openingBooked: boolean;
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

export interface Raised {
  drift: boolean;
  unbalanced: boolean;
  noVerdict: boolean;
  lowFloat: boolean;
}

/**
 * An alert a check queued and that still stands (its crossing not re-armed): when, and to how
 * many admins (`at` absent: crossed with nobody to tell).
 */
export const sentSchema = z.object({
  at: z.number().int().optional(),
  admins: z.number().int().nonnegative(),
  /**
   * The float's drift the alert told (the drift's alert only): a drift that moves beyond the
   * tolerance from it is alerted again (alerts.ts). Absent in earlier records.
   */
  driftPaisa: z.number().int().optional(),
});
export type Sent = z.infer<typeof sentSchema>;

/**
 * What the scheduled check last did (issue 25, "true words"): when it ran, its verdict and whether
 * admins were alerted, so /books says what was done rather than what should have been.
 *  - `within` / `beyond`: the float against the tolerance (`beyond` also when the books did not
 *    balance); `alertedAt`: when the latest alert standing for this verdict was queued for
 *    `alertedAdmins` admins (absent: no alert was sent, e.g. no admin configured);
 *  - `deferred`: no verdict, `unknownDebits` orders' debits were not known yet;
 *  - `no_report`: no verdict, the aggregator's wallet did not answer.
 * `alerts` (each problem's alert standing) and `floatVerdictAt` (the float's last verdict) are
 * written by this version only: a record without `alerts` was written by the previous one, whose
 * one shared alert is read by `toldByPrevious`. Both versions read each other's records (unknown
 * keys are dropped), as a rolling deploy runs both.
 */
export const lastCheckSchema = z.object({
  at: z.number().int(),
  verdict: z.enum(["within", "beyond", "deferred", "no_report"]),
  driftPaisa: z.number().int().nullable(),
  balanced: z.boolean(),
  unknownDebits: z.number().int().nonnegative(),
  alertedAt: z.number().int().optional(),
  alertedAdmins: z.number().int().nonnegative().optional(),
  alerts: z
    .object({
      drift: sentSchema.optional(),
      unbalanced: sentSchema.optional(),
      noVerdict: sentSchema.optional(),
    })
    .optional(),
  floatVerdictAt: z.number().int().optional(),
  /**
   * The float's own verdict at this check (`verdict` is "beyond" also for books that do not
   * balance, whatever the wallet said): so /books tells why there was none. Absent in the
   * records of earlier versions (raised.ts `floatVerdictOf` infers it).
   */
  floatVerdict: z.enum(["within", "beyond", "deferred", "no_report"]).optional(),
});
export type LastCheck = z.infer<typeof lastCheckSchema>;
