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

/** CSV of the entries whose booking time is in [from, to) (all when no range is given). */
function journalToCsv(
  entries: readonly JournalEntry[],
  range: { from?: number; to?: number } = {},
): string {
  const lines = [JOURNAL_CSV_HEADER.join(",")];
  for (const e of entries) {
    if (range.from !== undefined && e.at < range.from) continue;
    if (range.to !== undefined && e.at >= range.to) continue;
    lines.push(
      [...entryCells(e), csvText(e.reference), csvCell(e.pendingId ?? ""), csvText(e.reason)].join(
        ",",
      ),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** Reads the store's journal for [from, to) page by page and writes it as CSV. */
export async function exportJournalCsv(
  store: LedgerStore,
  range: { from: number; to: number },
): Promise<string> {
  const all: JournalEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await store.journal({
      ...range,
      limit: JOURNAL_PAGE_MAX,
      ...(after ? { after } : {}),
    });
    all.push(...page.entries);
    if (!page.next) break;
    after = page.next;
  }
  return journalToCsv(all, range);
}
