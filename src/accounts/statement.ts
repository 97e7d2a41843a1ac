import {
  type AccountId,
  type AccountLine,
  changeOf,
  csvText,
  entryCells,
  JOURNAL_PAGE_MAX,
  type JournalEntry,
  type LedgerStore,
} from "../ledger/index.ts";
import { toDecimalString } from "../money.ts";

export { changeOf };

/**
 * One account's statement for a time range [from, to): its journal entries, each with what it
 * changed on the account's posted balance and on what is held, and the running balances from the
 * opening one.
 *
 * The ledger's read index (ledger/account-index.ts) gives an account's entries with its balances
 * right after each, written in the same atomic step as the entry; so a page of a statement, and
 * its opening balance, cost one range read, however long the journal or busy the account
 * (bench/dashboard-search.ts measures it over 1,000,000 transfers). The whole statement is read
 * page by page and bounded (`maxEntries` lines); past it it says it is incomplete and shows
 * nothing as the whole. `statementPage` gives one page, for a page that shows one at a time.
 */

export interface StatementLine {
  entry: JournalEntry;
  /** Change of the posted balance (credits − debits): + money towards the account's owner. */
  postedChangePaisa: number;
  /** Change of what is held on the account (its pending debits): + a hold taken. */
  heldChangePaisa: number;
  /** Posted balance and held amount after this entry. */
  postedPaisa: number;
  heldPaisa: number;
}

export type Statement =
  | {
      complete: true;
      account: AccountId;
      from: number;
      to: number;
      openingPostedPaisa: number;
      openingHeldPaisa: number;
      closingPostedPaisa: number;
      closingHeldPaisa: number;
      lines: StatementLine[];
    }
  /** The range holds more lines than the bound: narrow it. */
  | { complete: false; account: AccountId; from: number; to: number; readEntries: number };

/** The default bound: 200 pages of lines. */
export const STATEMENT_MAX_ENTRIES = 200 * JOURNAL_PAGE_MAX;

const lineOf = (l: AccountLine, acc: AccountId): StatementLine => {
  const c = changeOf(l.entry, acc);
  return {
    entry: l.entry,
    postedChangePaisa: c.posted,
    heldChangePaisa: c.held,
    postedPaisa: l.postedPaisa,
    heldPaisa: l.heldPaisa,
  };
};

/** One page of a statement: the balances before it, its lines, and `next` when more follow. */
export interface StatementPage {
  account: AccountId;
  from: number;
  to: number;
  openingPostedPaisa: number;
  openingHeldPaisa: number;
  lines: StatementLine[];
  next?: string;
}

/** One page (oldest first) of `acc`'s statement for [from, to), after a previous page's `next`. */
export async function statementPage(
  ledger: LedgerStore,
  acc: AccountId,
  range: { from: number; to: number },
  page: { after?: string | undefined; limit?: number } = {},
): Promise<StatementPage> {
  const p = await ledger.accountEntries(acc, {
    ...range,
    limit: page.limit ?? 50,
    ...(page.after ? { after: page.after } : {}),
  });
  return {
    account: acc,
    ...range,
    openingPostedPaisa: p.opening.postedPaisa,
    openingHeldPaisa: p.opening.heldPaisa,
    lines: p.lines.map((l) => lineOf(l, acc)),
    ...(p.next ? { next: p.next } : {}),
  };
}

export async function statementOf(
  ledger: LedgerStore,
  acc: AccountId,
  range: { from: number; to: number },
  maxEntries = STATEMENT_MAX_ENTRIES,
): Promise<Statement> {
  const lines: StatementLine[] = [];
  let opening: { postedPaisa: number; heldPaisa: number } | undefined;
  let after: string | undefined;
  for (;;) {
    const page = await ledger.accountEntries(acc, {
      ...range,
      limit: JOURNAL_PAGE_MAX,
      ...(after ? { after } : {}),
    });
    opening ??= page.opening;
    for (const l of page.lines) lines.push(lineOf(l, acc));
    if (!page.next) break;
    if (lines.length >= maxEntries) {
      return { complete: false, account: acc, ...range, readEntries: lines.length };
    }
    after = page.next;
  }
  const last = lines.at(-1);
  return {
    complete: true,
    account: acc,
    ...range,
    openingPostedPaisa: opening.postedPaisa,
    openingHeldPaisa: opening.heldPaisa,
    closingPostedPaisa: last?.postedPaisa ?? opening.postedPaisa,
    closingHeldPaisa: last?.heldPaisa ?? opening.heldPaisa,
    lines,
  };
}

export const STATEMENT_CSV_HEADER = [
  "seq",
  "time_utc",
  "id",
  "kind",
  "debit",
  "credit",
  "amount_rs",
  "change_rs",
  "balance_rs",
  "held_change_rs",
  "held_rs",
  "reference",
  "reason",
  "available_rs",
] as const;

const signed = (paisa: number) =>
  paisa < 0 ? `-${toDecimalString(-paisa)}` : toDecimalString(paisa);

/**
 * The statement as CSV (the journal CSV's quoting and formula defusing), one line per entry, and
 * an "opening" line first and a "closing" one last carrying the balances: the opening balance
 * plus the change column sums to the closing balance. `balance_rs` is the posted balance, which
 * still counts what is held for orders in flight (`held_rs`); `available_rs` (last, so older
 * readers of the columns before it are unchanged) is what was available to spend: posted − held.
 */
export function statementToCsv(s: Extract<Statement, { complete: true }>): string {
  const edge = (label: string, at: number, posted: number, held: number) =>
    [
      "",
      new Date(at).toISOString(),
      label,
      label,
      "",
      "",
      "",
      "",
      signed(posted),
      "",
      signed(held),
      "",
      "",
      signed(posted - held),
    ].join(",");
  const lines = [STATEMENT_CSV_HEADER.join(",")];
  lines.push(edge("opening", s.from, s.openingPostedPaisa, s.openingHeldPaisa));
  for (const l of s.lines) {
    const e = l.entry;
    lines.push(
      [
        ...entryCells(e),
        signed(l.postedChangePaisa),
        signed(l.postedPaisa),
        signed(l.heldChangePaisa),
        signed(l.heldPaisa),
        csvText(e.reference),
        csvText(e.reason),
        signed(l.postedPaisa - l.heldPaisa),
      ].join(","),
    );
  }
  lines.push(edge("closing", s.to, s.closingPostedPaisa, s.closingHeldPaisa));
  return `${lines.join("\r\n")}\r\n`;
}
