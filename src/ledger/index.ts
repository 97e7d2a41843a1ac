/**
 * The merchant's books: the chart of accounts (chart.ts), transfers, holds (see the README's "The
 * merchant's books").
 */
export {
  ACCOUNT_PAGE_MAX,
  type AccountLine,
  type AccountPage,
  changeOf,
} from "./account-index.ts";
export {
  type AccountId,
  account,
  accountIdSchema,
  debitsMustNotExceedCredits,
} from "./chart.ts";
export {
  csvCell,
  csvText,
  entryCells,
  exportJournalCsv,
  JOURNAL_CSV_HEADER,
  journalCsvChunks,
} from "./csv.ts";
export { backfillLedgerIndex } from "./index-backfill.ts";
export { createMemoryLedger } from "./memory-store.ts";
export * from "./model.ts";
export { type PostedAround, postedAround } from "./posted-at.ts";
export { createRedisLedger } from "./redis-store.ts";
export { JOURNAL_PAGE_MAX, type LedgerStore } from "./store.ts";
