import type { LedgerResult, Refusal, TransferInput } from "../ledger/model.ts";
import type { TopUp } from "./model.ts";

/**
 * The top-up store (memory, Redis). `update` is a compare-and-set on the version that writes the
 * top-up, its ledger transfer (if any) and its place in the reconciler's schedule in ONE atomic
 * step: a process killed anywhere leaves either all of them or none.
 */

export type UpdateOutcome =
  | { ok: true; ledger?: LedgerResult }
  /** Someone else wrote first: read again and re-decide. */
  | { ok: false; reason: "version" }
  /** The ledger refused the transfer: nothing was written. */
  | { ok: false; reason: "ledger"; refusal: Refusal }
  /**
   * The credit is above what the caps leave as the store sees them in this step (`limitPaisa`):
   * another credit of the user's came first. Nothing was written: re-decide within that limit.
   */
  | { ok: false; reason: "cap"; limitPaisa: number };

/**
 * The caps a credit must stay within (caps.ts `creditCap`), checked by the store in the same
 * atomic step as it books the credit: what the caller read of the user's other top-ups may be
 * out of date by then (two credits of one user at the same moment, on two instances or one).
 */
export interface CreditCap {
  /** What this update credits. */
  creditPaisa: number;
  /** The most one top-up may credit (TOPUP_MAX_AMOUNT). */
  maxPaisa: number;
  /** The most the user's top-ups created in [from, until) may credit together (TOPUP_DAILY_CAP). */
  dailyCapPaisa: number;
  from: number;
  until: number;
}

/** A user's top-ups that parse, and the members ("<gateway>:<paymentId>") of those that do not. */
export interface UserTopUps {
  topUps: TopUp[];
  unreadable: string[];
}

/**
 * A stored top-up record that does not parse (schema drift, a damaged write): thrown by `get`
 * instead of a bare parse error, so the reconciler can set that one aside and go on.
 */
export class UnreadableTopUpError extends Error {
  override name = "UnreadableTopUpError";
  constructor(
    readonly member: string,
    readonly issues: string[],
  ) {
    super(`top-up record ${member} does not parse`);
  }
}

/**
 * The admins' alert of an unreadable record, owed and leased: the chats that have it, failures in
 * a row, and the lease's token (the record step checks it is still this one).
 */
export interface OwedUnreadableAlert {
  member: string;
  token: string;
  sentTo: number[];
  failures: number;
}

export interface TopUpStore {
  /** A new top-up (version 0), due for its first look at `dueAt`. */
  create(t: TopUp, dueAt: number): Promise<void>;
  get(gateway: string, paymentId: string): Promise<TopUp | null>;
  /**
   * A user's top-ups created in [since, until) (until: none by default), newest first. A record
   * that does not parse is not thrown (it made the caps' reading throw, so a paid top-up beside it
   * was set aside as the unreadable one: review s31-pay, 1) but named in `unreadable`, its alert
   * owed (`oweUnreadable`) as the admins' lists do.
   */
  listByUser(userId: number, since: number, until?: number): Promise<UserTopUps>;
  /**
   * Writes `next` (version + 1) if the stored version is `expectedVersion`, with `transfer` in the
   * books in the same step; `dueAt` null takes it off the schedule. With `cap` (a credit), only
   * if the credit is within it beside what the user's other top-ups credited, in the same step.
   */
  update(
    expectedVersion: number,
    next: TopUp,
    transfer: TransferInput | undefined,
    dueAt: number | null,
    cap?: CreditCap,
  ): Promise<UpdateOutcome>;
  /** Top-ups due by `now`, as [gateway, paymentId], oldest due first. */
  due(now: number, limit: number): Promise<Array<[string, string]>>;
  /**
   * Held top-ups (waiting for an admin's decision), oldest first. A record that does not parse
   * is skipped (`unreadable` names it), not thrown: it must not hide the others.
   */
  held(limit: number): Promise<TopUp[]>;
  /** Top-ups in partial_refund (waiting for an admin's figure), oldest first; as `held`. */
  partialRefunds(limit: number): Promise<TopUp[]>;
  /**
   * Open top-ups (initiated, pending) created before `createdBefore`, oldest first: those past
   * the refund watch, still looked up daily (context.ts), listed for the admins.
   */
  openSince(
    createdBefore: number,
    limit: number,
  ): Promise<{ topUps: TopUp[]; unreadable: string[] }>;
  /**
   * Takes an unreadable record off the schedule and records it as unreadable, in one step; the
   * first time (true), the admins' alert of it is owed in that step too (`unreadableAlertsDue`).
   */
  setAside(gateway: string, paymentId: string): Promise<boolean>;
  /**
   * Records `member` (met in the held or partial-refund list) as unreadable and, the first time
   * (true), owes the admins' alert of it, in one step; its place in the schedule is left alone.
   */
  oweUnreadable(member: string): Promise<boolean>;
  /**
   * Reads the whole held and partial-refund lists, owing the alert of each record there that does
   * not parse (`oweUnreadable`): the reconciler's pass, as those are off its schedule.
   */
  checkListed(): Promise<void>;
  /** Unreadable records whose admins' alert is owed and due by `now`, oldest due first. */
  unreadableAlertsDue(now: number, limit: number): Promise<string[]>;
  /**
   * The owed alert of `member` to the one caller that finds it due by `now` and takes its lease
   * for `leaseMs` (ended by the store's clock, not the callers'); null when it is not due or
   * another caller holds the lease.
   */
  leaseUnreadableAlert(
    member: string,
    now: number,
    leaseMs: number,
  ): Promise<OwedUnreadableAlert | null>;
  /**
   * Records the chats that have the alert and the failures in a row, if `lease` is still the
   * caller's (false: it ran out, and whoever holds it now owns the send); `retryAt` null: every
   * admin has it, no longer owed; "progress": keep the lease and the due time; else due then.
   */
  recordUnreadableAlert(
    lease: Pick<OwedUnreadableAlert, "member" | "token">,
    sentTo: readonly number[],
    failures: number,
    retryAt: number | null | "progress",
  ): Promise<boolean>;
  /**
   * Records that do not parse ("<gateway>:<paymentId>"), at most `limit`: those set aside, and
   * those in the held and partial-refund lists (skipped there).
   */
  unreadable(limit: number): Promise<string[]>;
}
