import type { AccountId } from "./chart.ts";
import type {
  Balance,
  CheckReport,
  HoldInput,
  JournalPage,
  JournalQuery,
  LedgerResult,
  PendingTransfer,
  TransferInput,
} from "./model.ts";

/**
 * ONE contract for the merchant's books, kept by the memory store (local mode, and the rules'
 * reference) and the Redis store (production). Every mutation is atomic and idempotent by id;
 * a refusal writes nothing. Inputs are validated with zod (a malformed one throws, it is a bug).
 */
export interface LedgerStore {
  /** A posted (single-phase) transfer. */
  transfer(t: TransferInput): Promise<LedgerResult>;
  /** A pending transfer: reserves the amount on both accounts (debitsPending/creditsPending). */
  hold(t: HoldInput): Promise<LedgerResult>;
  /** Captures a hold in full, once. Posting it again answers the first post as a duplicate. */
  post(pendingId: string): Promise<LedgerResult>;
  /** Releases a hold, once. Voiding it again answers the first void as a duplicate. */
  void(pendingId: string): Promise<LedgerResult>;
  balance(account: AccountId): Promise<Balance>;
  /** The append-only journal, oldest first. */
  journal(q?: JournalQuery): Promise<JournalPage>;
  pendingOf(id: string): Promise<PendingTransfer | null>;
  /** Every account a transfer has touched, sorted. */
  accounts(): Promise<AccountId[]>;
  /** Recomputes every balance from the journal and compares (see core.ts `audit`). */
  check(): Promise<CheckReport>;
}

/** Journal pages are at most this long. */
export const JOURNAL_PAGE_MAX = 1_000;
