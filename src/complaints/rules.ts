import { account } from "../ledger/chart.ts";
import { type TransferInput, transferInputSchema } from "../ledger/model.ts";
import { NEPAL_UTC_OFFSET_MINUTES } from "../nepal-time.ts";
import { chargedPaisa, type Order } from "../orders/model.ts";
import {
  type Complaint,
  type ComplaintReason,
  type ComplaintStatus,
  isClosed,
  refundIdOf,
} from "./model.ts";

/**
 * The complaints' rules, pure: the turnaround each reason is promised, the clock an admin reads
 * (age, due, overdue), which change may follow which, and what a refund may be and books.
 */

/**
 * Working days promised per reason: money taken for nothing (not received, charged twice) is
 * answered within two, as RBI's failed-transaction TAT asks of a refund (T+2 at most for most
 * channels); a wrong amount needs the aggregator's figures (three); a recharge sent to a wrong
 * number needs the operator (five).
 */
export const TURNAROUND_WORKING_DAYS: Readonly<Record<ComplaintReason, number>> = {
  not_received: 2,
  duplicate: 2,
  wrong_amount: 3,
  wrong_number: 5,
};

const OFFSET_MS = NEPAL_UTC_OFFSET_MINUTES * 60_000;
const DAY_MS = 86_400_000;
/** Nepal's weekly holiday: Saturday (getUTCDay of the Nepal wall clock). */
const WEEKLY_HOLIDAY = 6;

/**
 * `days` working days after `from`, at the same time of day, in Nepal: Saturdays are skipped (a
 * complaint raised on a Saturday counts from Sunday). Public holidays are not known here.
 */
export function addWorkingDays(from: number, days: number): number {
  let at = from;
  let left = days;
  const weekday = (ms: number) => new Date(ms + OFFSET_MS).getUTCDay();
  while (weekday(at) === WEEKLY_HOLIDAY) at += DAY_MS;
  while (left > 0) {
    at += DAY_MS;
    if (weekday(at) !== WEEKLY_HOLIDAY) left--;
  }
  return at;
}

export const dueAtOf = (reason: ComplaintReason, createdAt: number): number =>
  addWorkingDays(createdAt, TURNAROUND_WORKING_DAYS[reason]);

/** What an admin reads of a complaint's time: how old, when due, whether past it. */
export interface ComplaintClock {
  ageMs: number;
  dueAt: number;
  /** Past due and still open. */
  overdue: boolean;
  /** Until due (negative when overdue). */
  leftMs: number;
}

export function clockOf(c: Complaint, now: number): ComplaintClock {
  const end = c.closing?.at ?? now;
  return {
    ageMs: Math.max(0, end - c.createdAt),
    dueAt: c.dueAt,
    overdue: !isClosed(c.status) && now > c.dueAt,
    leftMs: c.dueAt - now,
  };
}

/** "3d 4h", "2h 5m", "4m": an age or a time left, for admins (English, as their other lists). */
export function spanText(ms: number): string {
  const m = Math.floor(Math.abs(ms) / 60_000);
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  if (d > 0) return `${d}d ${h}h`;
  return h > 0 ? `${h}h ${m % 60}m` : `${m % 60}m`;
}

export type ComplaintAction = "take" | "resolve" | "reject";

/** Why a change is refused: the complaint is already closed, or already taken (take only). */
export type ChangeRefusal = "closed" | "already_taken";

const TO: Record<ComplaintAction, ComplaintStatus> = {
  take: "taken",
  resolve: "resolved",
  reject: "rejected",
};

/** Whether `action` may follow the complaint's status: take from logged; resolve or reject while open. */
export function canChange(status: ComplaintStatus, action: ComplaintAction): ChangeRefusal | null {
  if (isClosed(status)) return "closed";
  if (action === "take" && status === "taken") return "already_taken";
  return null;
}

export const statusAfter = (action: ComplaintAction): ComplaintStatus => TO[action];

/** Why an order cannot be refunded on a complaint. */
export type RefundRefusal =
  /** Paid from the merchant's wallet (staff mode) or nothing to pay: no customer balance to refund. */
  | "not_paid_by_customer"
  /** Failed: the hold was voided, the customer already has the money back. */
  | "failed_returned"
  /** Not final yet: the hold is still held and may yet be voided. */
  | "not_final";

/**
 * At most what the customer paid (their balance's figure: the converted total of an India order),
 * and only for a successful order they paid through the books: a failed order's money already
 * went back, an open one may still be voided.
 */
export function refundableOf(
  order: Order,
): { ok: true; paisa: number; reversed?: Reversed } | { ok: false; code: RefundRefusal } {
  const paid = order.holdId === undefined ? 0 : chargedPaisa(order);
  if (paid <= 0) return { ok: false, code: "not_paid_by_customer" };
  if (order.status === "failed") return { ok: false, code: "failed_returned" };
  if (order.status !== "success") return { ok: false, code: "not_final" };
  const reversed = reversedOf(order);
  return reversed ? { ok: true, paisa: paid, reversed } : { ok: true, paisa: paid };
}

/** The aggregator's word that undid a success (its own, e.g. "refunded"), and when it said it. */
export interface Reversed {
  word: string;
  at: number;
}

/**
 * What the aggregator said against the order's success after it (orders/final-order.ts): a
 * refund screen shows it beside the amount (review s33-rvcomp 5), since the admins' alert of it
 * said the customer may be owed a refund and another admin may already have returned the money
 * another way (a /credit); the refund stays the admin's to decide.
 */
function reversedOf(order: Order): Reversed | null {
  const c = order.contradicted;
  if (c?.said === "failed") return { word: c.word ?? "failed", at: c.at };
  const s = order.settled;
  if (s?.contradictedAt !== undefined)
    return { word: s.contradictedWord ?? "failed", at: s.contradictedAt };
  return null;
}

/**
 * The refund's transfer: from sales back to the customer's balance, its id and reference the
 * complaint's (so it is booked once), a reversal with its reason as every correction is.
 */
export function refundTransfer(c: Complaint, amountPaisa: number, what: string): TransferInput {
  return transferInputSchema.parse({
    id: refundIdOf(c.reference),
    debit: account.merchant.sales,
    credit: account.customer(c.userId),
    amountPaisa,
    kind: "reversal",
    reference: c.reference,
    reason: `complaint ${c.reference} on order ${c.orderReference}: ${what}`.slice(0, 500),
  });
}

/** The start of every refund's reason (refundTransfer): which complaint, on which order. */
const REFUND_REASON = /^complaint (C\d+) on order (\S+): /;

/**
 * The order a complaint refund's transfer returned money for, read from its reason as
 * `refundTransfer` writes it (the transfer's reference is the complaint's); null for any other.
 * The books (src/books/scan.ts) take the refund out of that order's margin and fee income.
 */
export function refundedOrderOf(reason: string | undefined): string | null {
  return reason === undefined ? null : (REFUND_REASON.exec(reason)?.[2] ?? null);
}
