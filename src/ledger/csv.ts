import { toDecimalString } from "../money.ts";
import type { JournalEntry } from "./model.ts";
import { JOURNAL_PAGE_MAX, type LedgerStore } from "./store.ts";

/**
 * The journal as CSV for the merchant's accountant (RFC 4180: CRLF line ends, a field quoted when
 * it holds a comma, a quote or a line break, quotes doubled). Amounts in rupees with two decimals;
 * times in UTC (ISO 8601). Free text (reference, reason) that a spreadsheet would run as a formula
 * (starting with = + - @, tab or CR) gets a leading apostrophe, OWASP's advice for CSV injection.
 */

export const JOURNAL_CSV_HEADER = [
  "seq",
  "time_utc",
  "id",
  "kind",
  "debit",
  "credit",
  "amount_rs",
  "reference",
  "pending_id",
  "reason",
] as const;

/** One CSV field, quoted when it must be. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Free text as a CSV field, defused against formula injection. */
export function csvText(value: string | undefined): string {
  if (value === undefined) return "";
  return csvCell(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/** An entry's own cells, as every CSV of the books writes them: seq, time, id, kind, sides, amount. */
export function entryCells(e: JournalEntry): Array<string | number> {
  return [
    e.seq,
    new Date(e.at).toISOString(),
    csvCell(e.id),
    e.kind,
    e.debit,
    e.credit,
    toDecimalString(e.amountPaisa),
  ];
}

/** ISO 8601 UTC of a time, the date-and-minute part reused while the minute lasts (an export). */
export function isoTimes(): (ms: number) => string {
  let minute = -1;
  let head = "";
  return (ms) => {
    const m = Math.floor(ms / 60_000);
    if (m !== minute) {
      minute = m;
      head = new Date(m * 60_000).toISOString().slice(0, 17);
    }
    const inMinute = ms - m * 60_000;
    const sec = Math.floor(inMinute / 1000);
    const milli = inMinute - sec * 1000;
    return `${head}${sec < 10 ? "0" : ""}${sec}.${String(milli).padStart(3, "0")}Z`;
  };
}

/** One entry's CSV line (no line end): entryCells' cells, then reference, pending id, reason. */
function journalLine(e: JournalEntry, iso: (ms: number) => string): string {
  const id = csvCell(e.id);
  const ref = csvText(e.reference);
  const why = csvText(e.reason);
  const amount = toDecimalString(e.amountPaisa);
  return `${e.seq},${iso(e.at)},${id},${e.kind},${e.debit},${e.credit},${amount},${ref},${csvCell(e.pendingId ?? "")},${why}`;
}

/** A journal page's lines within [from, to), each with its line end. */
export function pageCsv(
  entries: readonly JournalEntry[],
  range: { from: number; to: number },
  iso: (ms: number) => string,
): string {
  let chunk = "";
  for (const e of entries) {
    if (e.at < range.from || e.at >= range.to) continue;
    chunk += `${journalLine(e, iso)}\r\n`;
  }
  return chunk;
}

/**
 * The journal for [from, to) as CSV, one chunk per journal page (the header first), read page by
 * page with the next page asked for while this one is written: a route streams it, so a year's
 * journal never sits in memory whole (bench/dashboard-search.ts measures lines a second and RSS).
 */
export async function* journalCsvChunks(
  store: LedgerStore,
  range: { from: number; to: number },
): AsyncGenerator<string> {
  yield `${JOURNAL_CSV_HEADER.join(",")}\r\n`;
  const read = (after?: string) =>
    store.journal({ ...range, limit: JOURNAL_PAGE_MAX, ...(after ? { after } : {}) });
  const iso = isoTimes();
  let pending = read();
  for (;;) {
    const page = await pending;
    if (page.next) {
      pending = read(page.next);
      // A reader that stops early (a closed download) leaves it unawaited: not an unhandled error.
      pending.catch(() => undefined);
    }
    const chunk = pageCsv(page.entries, range, iso);
    if (chunk) yield chunk;
    if (!page.next) return;
  }
}

/** The whole CSV of [from, to) as one string (small ranges, tests; a route streams the chunks). */
export async function exportJournalCsv(
  store: LedgerStore,
  range: { from: number; to: number },
): Promise<string> {
  let csv = "";
  for await (const chunk of journalCsvChunks(store, range)) csv += chunk;
  return csv;
}
