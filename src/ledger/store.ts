import type { AccountPage } from "./account-index.ts";
import type { AccountId } from "./chart.ts";
import type {
  Balance,
  CheckReport,
  HoldInput,
  JournalEntry,
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
  /**
   * The journal entry a transfer or a hold was booked as, by its id; null when nothing was booked
   * under it. The books' own record of a transfer: what a receipt kept beside them (accounts/) is
   * rebuilt from when its write was lost after the booking.
   */
  entryOf(id: string): Promise<JournalEntry | null>;
  /**
   * One account's entries in [from, to) (or after `after`), oldest first, each with the account's
   * posted and held balances right after it, and the balances before the page: a statement's page
   * (account-index.ts). The Redis store reads its index, O(log N + page).
   */
  accountEntries(account: AccountId, q: JournalQuery): Promise<AccountPage>;
  /** The entries that carry this reference (an order's hold, post or void, float debit, fee), oldest first, at most JOURNAL_PAGE_MAX. */
  entriesOf(reference: string): Promise<JournalEntry[]>;
  /** Every account a transfer has touched, sorted. */
  accounts(): Promise<AccountId[]>;
  /** Recomputes every balance from the journal and compares (see core.ts `audit`). */
  check(): Promise<CheckReport>;
}

/** Journal pages are at most this long. */
export const JOURNAL_PAGE_MAX = 1_000;
