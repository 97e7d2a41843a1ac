import type { JournalRange } from "../http/journal-range.ts";
import { journalCsvOffThread } from "../ledger/csv-off-thread.ts";
import { journalCsvChunks, type LedgerStore } from "../ledger/index.ts";
import type { Base } from "./base.ts";

/**
 * The journal as CSV chunks, for both downloads (the metrics listener's /books/journal.csv and the
 * back office's): on a thread of its own when this process made its own Redis connection (its heap
 * stays small: issue 31 target 5); with a connection handed in (tests) or no Redis, here.
 */
export function journalExport(
  base: Base,
  ledger: LedgerStore,
  offThread: boolean,
): (range: JournalRange) => AsyncIterable<string | Uint8Array> {
  const { redis } = base.config;
  return (range) =>
    offThread
      ? journalCsvOffThread({ redis, prefix: redis.prefix }, range)
      : journalCsvChunks(ledger, range);
}
