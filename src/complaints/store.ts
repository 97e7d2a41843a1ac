import type { LedgerResult, Refusal, TransferInput } from "../ledger/model.ts";
import type { Notification } from "../orders/model.ts";
import type { Complaint } from "./model.ts";

/**
 * The complaint store (memory, Redis). `open` keeps the one-per-order rule atomically (across
 * instances on one Redis); `update` is a compare-and-set on the version that writes the complaint,
 * its refund transfer (if any), its place in the open list and the customer's notice (queued in
 * the notifier's outbox) in ONE step: a resolution, its refund and its notice are written together
 * or not at all.
 */

/** The customer's notice of a change, as the notifier's outbox holds it. */
export type ComplaintNotice = Extract<Notification, { kind: "complaint" }>;

export type OpenOutcome =
  | { created: true; complaint: Complaint }
  /** The order already has an open complaint: this one, nothing was written. */
  | { created: false; complaint: Complaint };

export type UpdateOutcome =
  | { ok: true; ledger?: LedgerResult }
  /** Someone else wrote first: read again and decide again. */
  | { ok: false; reason: "version" }
  /** The books refused the refund: nothing was written. */
  | { ok: false; reason: "ledger"; refusal: Refusal }
  /** The order already had a refund, on complaint `by`: nothing was written. */
  | { ok: false; reason: "refunded"; by: string };

export interface ComplaintStore {
  /** A fresh complaint number ("C…"); numbers a refused open leaves unused are skipped. */
  nextReference(): Promise<string>;
  /**
   * Writes `c` (version 0) unless its order has an open complaint, which is then returned. The
   * admins' alerts (one "raised" notice per admin) are queued in the outbox in the same step, and
   * only when `c` is written: a crash after the write cannot lose them (review s33-rvcomp 4).
   */
  open(c: Complaint, alerts?: readonly ComplaintNotice[]): Promise<OpenOutcome>;
  get(ref: string): Promise<Complaint | null>;
  /**
   * Writes `next` (version + 1) if the stored version is `expectedVersion`, with `refund` booked
   * and `notice` queued in the outbox in the same step; after a refund the notice carries the
   * customer's balance it left (`balancePaisa`). A refund only while the order has none (the
   * order's refund mark, written in that step too), so one order is refunded once, whatever its
   * complaints.
   */
  update(
    expectedVersion: number,
    next: Complaint,
    refund?: TransferInput,
    notice?: ComplaintNotice,
  ): Promise<UpdateOutcome>;
  /** Open complaints, the soonest due first. */
  listOpen(limit: number): Promise<Complaint[]>;
  /** How many complaints are open (a list cut at its limit says how many more). */
  countOpen(): Promise<number>;
  /** Every complaint of an order, newest first. */
  ofOrder(orderRef: string): Promise<Complaint[]>;
  /** A user's complaints, newest first. */
  ofUser(userId: number, limit: number): Promise<Complaint[]>;
  /** The number of the complaint whose refund was booked on this order (its refund mark), if any. */
  refundOf(orderRef: string): Promise<string | null>;
  /** `refundOf` for several orders in one read (a /history page): null where none, in order. */
  refundsOf(orderRefs: readonly string[]): Promise<Array<string | null>>;
}
