/**
 * The merchant's books: the chart of accounts (chart.ts), transfers, holds (see the README's "The
 * merchant's books").
 */
export {
  type AccountId,
  account,
  accountIdSchema,
  debitsMustNotExceedCredits,
} from "./chart.ts";
export {
  csvCell,
  csvText,
  exportJournalCsv,
  JOURNAL_CSV_HEADER,
  journalToCsv,
} from "./csv.ts";
export {
  holdArgv,
  LEDGER_KEYS,
  LEDGER_LUA,
  type LedgerKey,
  ledgerKeys,
  ledgerKeysLua,
  parseLedgerReply,
  TRANSFER_ARGC,
  transferArgv,
} from "./lua.ts";
export { createMemoryLedger, type MemoryLedger } from "./memory-store.ts";
export * from "./model.ts";
export { createRedisLedger } from "./redis-store.ts";
export { JOURNAL_PAGE_MAX, type LedgerStore } from "./store.ts";
