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
  | { ok: false; reason: "ledger"; refusal: Refusal };

export interface TopUpStore {
  /** A new top-up (version 0), due for its first look at `dueAt`. */
  create(t: TopUp, dueAt: number): Promise<void>;
  get(gateway: string, paymentId: string): Promise<TopUp | null>;
  /** A user's top-ups created at or after `since`, newest first. */
  listByUser(userId: number, since: number): Promise<TopUp[]>;
  /**
   * Writes `next` (version + 1) if the stored version is `expectedVersion`, with `transfer` in the
   * books in the same step; `dueAt` null takes it off the schedule.
   */
  update(
    expectedVersion: number,
    next: TopUp,
    transfer: TransferInput | undefined,
    dueAt: number | null,
  ): Promise<UpdateOutcome>;
  /** Top-ups due by `now`, as [gateway, paymentId], oldest due first. */
  due(now: number, limit: number): Promise<Array<[string, string]>>;
  /** Held top-ups (waiting for an admin's decision), oldest first. */
  held(limit: number): Promise<TopUp[]>;
  /** Top-ups in partial_refund (waiting for an admin's figure), oldest first. */
  partialRefunds(limit: number): Promise<TopUp[]>;
}
