import {
  type AccountId,
  account,
  JOURNAL_PAGE_MAX,
  type JournalEntry,
  type LedgerStore,
} from "../ledger/index.ts";
import { nepalDayStart } from "../nepal-time.ts";
import { statementOf } from "./statement.ts";

// What /balance shows: a customer's or an agent's recent movements, read whole or said not to be.

/** Customer's and agent's journal windows, newest last; older windows first when quiet. */
const WINDOWS_MS = [7 * 24 * 3_600_000, 24 * 3_600_000, 3_600_000];
const MAX_PAGES = 5;

/** How far back an agent's /balance statement reads. */
const AGENT_STATEMENT_MS = 30 * 24 * 3_600_000;

/**
 * Journal entries touching `acc`, oldest first, from the widest window that could be read whole
 * (at most MAX_PAGES pages); `complete` is false when even the narrowest could not, and then
 * `entries` holds only the part read, which must not be shown as the whole. Read through the
 * account's own index (ledger/account-index.ts), as the statements are: only this account's
 * entries, so the rest of the shop's business never crowds them out (review s24-b, 2: the whole
 * journal's first 5,000 entries of the day hid a busy day's latest cash-ins).
 */
export async function recentOf(
  ledger: LedgerStore,
  now: () => number,
  acc: AccountId,
  since?: number,
): Promise<{ entries: JournalEntry[]; complete: boolean }> {
  const windows = since === undefined ? WINDOWS_MS.map((w) => now() - w) : [since];
  let found: JournalEntry[] = [];
  for (const from of windows) {
    found = [];
    let after: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await ledger.accountEntries(acc, {
        from,
        limit: JOURNAL_PAGE_MAX,
        ...(after ? { after } : {}),
      });
      for (const l of page.lines) found.push(l.entry);
      if (!page.next) return { entries: found, complete: true };
      after = page.next;
    }
  }
  return { entries: found, complete: false };
}

/** What an agent's /balance reads: the day's cash-ins and the statement. */
export function agentViews(ledger: LedgerStore, now: () => number) {
  return {
    /**
     * An agent's balance and the cash-ins of the current Nepal day, newest first; a cash-in an
     * admin reversed is not one of them (the money came back).
     */
    async agentSummary(agentUserId: number) {
      const acc = account.agent(agentUserId);
      const [balance, read] = await Promise.all([
        ledger.balance(acc),
        recentOf(ledger, now, acc, nepalDayStart(now())),
      ]);
      // A reversal of a cash-in of the day is booked after it, so it is in the same read (its
      // reference is the cash-in's id): the books say it, whether or not its receipt was kept.
      const reversed = new Set(
        read.entries
          .filter((e) => e.kind === "reversal" && e.credit === acc)
          .map((e) => e.reference),
      );
      const cashIns = read.entries.filter(
        (e) => e.kind === "cash_in" && e.debit === acc && !reversed.has(e.id),
      );
      return { balance, cashIns: cashIns.reverse(), complete: read.complete };
    },

    /**
     * An agent's last `n` movements of the last 30 days (credits received, cash-ins made,
     * reversals), newest first, each with the balance right after it; null when the range is too
     * long to read whole.
     */
    async agentStatement(agentUserId: number, n = 10) {
      const s = await statementOf(ledger, account.agent(agentUserId), {
        from: now() - AGENT_STATEMENT_MS,
        to: now() + 1,
      });
      return s.complete ? s.lines.slice(-n).reverse() : null;
    },
  };
}
