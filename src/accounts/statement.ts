import {
  type AccountId,
  csvText,
  entryCells,
  JOURNAL_PAGE_MAX,
  type JournalEntry,
  type LedgerStore,
} from "../ledger/index.ts";
import { toDecimalString } from "../money.ts";

/**
 * One account's statement for a time range [from, to): its journal entries (as /balance reads
 * them: the journal filtered by the account), each with what it changed on the account's posted
 * balance and on what is held, and the running balances from the opening one.
 *
 * The ledger keeps balances and one journal, no index by account, so the statement reads the
 * journal from `from` up to now: the range for its lines, what came after to work the opening
 * balance back from today's (opening = now − every change since `from`). Reading is bounded
 * (`maxEntries`); past it the statement says it is incomplete and shows nothing as the whole.
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
  /** The journal since `from` is longer than the bound: narrow the range or pick a later one. */
  | { complete: false; account: AccountId; from: number; to: number; readEntries: number };

/** The default bound: 200 journal pages. */
export const STATEMENT_MAX_ENTRIES = 200 * JOURNAL_PAGE_MAX;

/** What an entry changes on `acc`: posted (credits − debits) and held (pending debits). */
export function changeOf(e: JournalEntry, acc: AccountId): { posted: number; held: number } {
  const sign = (e.credit === acc ? 1 : 0) - (e.debit === acc ? 1 : 0);
  const onDebit = e.debit === acc ? e.amountPaisa : 0;
  if (e.kind === "hold") return { posted: 0, held: onDebit };
  if (e.kind === "void") return { posted: 0, held: -onDebit };
  if (e.kind === "post") return { posted: sign * e.amountPaisa, held: -onDebit };
  return { posted: sign * e.amountPaisa, held: 0 };
}

/** Entries touching `acc` since `from` (after `after`), the last seq read, and how many were read. */
async function readSince(
  ledger: LedgerStore,
  acc: AccountId,
  from: number,
  after: string | undefined,
  maxEntries: number,
): Promise<{ mine: JournalEntry[]; last: string | undefined; read: number; whole: boolean }> {
  const mine: JournalEntry[] = [];
  let read = 0;
  let last = after;
  for (;;) {
    const page = await ledger.journal({
      from,
      limit: JOURNAL_PAGE_MAX,
      ...(last ? { after: last } : {}),
    });
    read += page.entries.length;
    for (const e of page.entries) if (e.debit === acc || e.credit === acc) mine.push(e);
    last = page.entries.at(-1)?.seq ?? last;
    if (!page.next) return { mine, last, read, whole: true };
    if (read >= maxEntries) return { mine, last, read, whole: false };
  }
}

export async function statementOf(
  ledger: LedgerStore,
  acc: AccountId,
  range: { from: number; to: number },
  maxEntries = STATEMENT_MAX_ENTRIES,
): Promise<Statement> {
  const first = await readSince(ledger, acc, range.from, undefined, maxEntries);
  const incomplete = { complete: false as const, account: acc, ...range, readEntries: first.read };
  if (!first.whole) return incomplete;
  const mine = first.mine;
  let last = first.last;
  // The balance must be the one after exactly the entries read: read it, then look for entries
  // booked since (a balance and its journal entry are written in one atomic step, so none found
  // after the balance read means none was missed). A busy account may need a few rounds.
  let now: Awaited<ReturnType<LedgerStore["balance"]>> | undefined;
  for (let round = 0; round < 5 && !now; round++) {
    const balance = await ledger.balance(acc);
    const more = await readSince(ledger, acc, range.from, last, maxEntries);
    if (more.mine.length === 0) now = balance;
    mine.push(...more.mine);
    last = more.last;
  }
  if (!now) return incomplete;
  let posted = now.postedPaisa;
  let held = now.heldPaisa;
  for (const e of mine) {
    const c = changeOf(e, acc);
    posted -= c.posted;
    held -= c.held;
  }
  const opening = { posted, held };
  const lines: StatementLine[] = [];
  for (const e of mine) {
    if (e.at >= range.to) break;
    const c = changeOf(e, acc);
    posted += c.posted;
    held += c.held;
    lines.push({
      entry: e,
      postedChangePaisa: c.posted,
      heldChangePaisa: c.held,
      postedPaisa: posted,
      heldPaisa: held,
    });
  }
  return {
    complete: true,
    account: acc,
    ...range,
    openingPostedPaisa: opening.posted,
    openingHeldPaisa: opening.held,
    closingPostedPaisa: posted,
    closingHeldPaisa: held,
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
] as const;

const signed = (paisa: number) =>
  paisa < 0 ? `-${toDecimalString(-paisa)}` : toDecimalString(paisa);

/**
 * The statement as CSV (the journal CSV's quoting and formula defusing), one line per entry, and
 * an "opening" line first and a "closing" one last carrying the balances: the opening balance
 * plus the change column sums to the closing balance.
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
      ].join(","),
    );
  }
  lines.push(edge("closing", s.to, s.closingPostedPaisa, s.closingHeldPaisa));
  return `${lines.join("\r\n")}\r\n`;
}
