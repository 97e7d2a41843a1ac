import type { AccountId } from "./chart.ts";
import type { JournalEntry, JournalQuery } from "./model.ts";

/**
 * The books' read index (issue 29, the back office): one Redis sorted set per deployment
 * (keyspace `ledgerIndex`, in the {money} slot), every member with score 0 so Redis orders them by
 * bytes, written by LEDGER_LUA's `ledger_index` in the same script that books the entry:
 *   a:<account>|<seq, padded>|<posted after>|<held after>   per side (debit and credit)
 *   r:<byte length of reference>:<reference>|<seq, padded> when the entry has a reference
 * The padded seq ("<ms, 15 digits>-<n, 8 digits>") makes byte order journal order, and each
 * account member carries the account's posted balance (credits − debits posted) and held amount
 * (debits pending) right after the entry, read from the balances the same script just wrote. So
 * a statement's page is one range read, and its opening balance the member just before it:
 * O(log N + page), however long the journal or busy the account.
 */

/** A statement line's raw parts: the entry and the account's balances right after it. */
export interface AccountLine {
  entry: JournalEntry;
  postedPaisa: number;
  heldPaisa: number;
}

/** A page of one account's entries, oldest first. */
export interface AccountPage {
  /** The account's balances before the page's first entry (or before `from` when none). */
  opening: { postedPaisa: number; heldPaisa: number };
  lines: AccountLine[];
  /** Pass as `after` for the next page; absent when this page was the last. */
  next?: string;
}

/** What an entry changes on `acc`: posted (credits − debits) and held (pending debits). */
export function changeOf(e: JournalEntry, acc: AccountId): { posted: number; held: number } {
  const sign = (e.credit === acc ? 1 : 0) - (e.debit === acc ? 1 : 0);
  const onDebit = e.debit === acc ? e.amountPaisa : 0;
  if (e.kind === "hold") return { posted: 0, held: onDebit };
  if (e.kind === "void") return { posted: 0, held: -onDebit };
  if (e.kind === "post") return { posted: sign * e.amountPaisa, held: -onDebit };
  return { posted: sign * e.amountPaisa, held: 0 };
}

/** A seq as the index writes it ("<ms15>-<n8>"), so byte order is journal order. */
export function padSeq(seq: string): string {
  const dash = seq.indexOf("-");
  return `${seq.slice(0, dash).padStart(15, "0")}-${seq.slice(dash + 1).padStart(8, "0")}`;
}

/** A padded seq back to the journal's. */
export const unpadSeq = (padded: string): string => {
  const dash = padded.indexOf("-");
  return `${Number(padded.slice(0, dash))}-${Number(padded.slice(dash + 1))}`;
};

export const accountPrefix = (acc: AccountId): string => `a:${acc}|`;
/** The byte length first: no reference can end in another's prefix, whatever it holds. */
export const referencePrefix = (reference: string): string =>
  `r:${Buffer.byteLength(reference)}:${reference}|`;

/** An account member as the script writes it. */
export function accountMember(acc: AccountId, seq: string, posted: number, held: number): string {
  return `${accountPrefix(acc)}${padSeq(seq)}|${posted}|${held}`;
}

/** The seq and balances of an account member (after its prefix). */
export function parseAccountMember(member: string): {
  seq: string;
  postedPaisa: number;
  heldPaisa: number;
} {
  const parts = member.split("|");
  const n = parts.length;
  return {
    seq: unpadSeq(parts[n - 3]!),
    postedPaisa: Number(parts[n - 2]),
    heldPaisa: Number(parts[n - 1]),
  };
}

/**
 * The lexicographic bounds of a page of `acc` (ZRANGEBYLEX syntax): from `after` (exclusive) or
 * `from`, to `to` (exclusive); and the bound just below the page, for its opening member.
 */
export function accountRange(
  acc: AccountId,
  q: JournalQuery,
): { min: string; max: string; below: string } {
  const p = accountPrefix(acc);
  const fromKey = q.from === undefined ? p : `${p}${padSeq(`${q.from}-0`)}`;
  // "|~" sorts above every member of that seq ('~' is above the digits and '-').
  const afterKey = q.after === undefined ? undefined : `${p}${padSeq(q.after)}|~`;
  const low = afterKey !== undefined && afterKey > fromKey ? afterKey : fromKey;
  const max = q.to === undefined ? `[${p}~` : `(${p}${padSeq(`${q.to}-0`)}`;
  return { min: `[${low}`, max, below: `(${low}` };
}

/** Page size bound, as the journal's. */
export const ACCOUNT_PAGE_MAX = 1_000;

/** An account's page computed from a whole journal (the memory store's way; same answers). */
export function accountPageOf(
  journal: readonly JournalEntry[],
  acc: AccountId,
  q: JournalQuery,
): AccountPage {
  const limit = Math.max(1, Math.min(q.limit ?? ACCOUNT_PAGE_MAX, ACCOUNT_PAGE_MAX));
  const after = q.after === undefined ? undefined : padSeq(q.after);
  let posted = 0;
  let held = 0;
  let opening = { postedPaisa: 0, heldPaisa: 0 };
  const lines: AccountLine[] = [];
  for (const e of journal) {
    if (e.debit !== acc && e.credit !== acc) continue;
    const before = (q.from !== undefined && e.at < q.from) || (after && padSeq(e.seq) <= after);
    if (!before && q.to !== undefined && e.at >= q.to) break;
    if (!before && lines.length === limit) return { opening, lines, next: lines.at(-1)!.entry.seq };
    const c = changeOf(e, acc);
    posted += c.posted;
    held += c.held;
    if (before) opening = { postedPaisa: posted, heldPaisa: held };
    else lines.push({ entry: e, postedPaisa: posted, heldPaisa: held });
  }
  return { opening, lines };
}
