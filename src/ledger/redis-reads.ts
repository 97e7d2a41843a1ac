import type { RedisClient } from "../redis/connection.ts";
import type { Keyspace } from "../redis/keyspace.ts";
import {
  ACCOUNT_PAGE_MAX,
  type AccountPage,
  accountRange,
  parseAccountMember,
  referencePrefix,
} from "./account-index.ts";
import { accountIdSchema } from "./chart.ts";
import { journalRead, unpackEntries } from "./journal-read.ts";
import type { JournalQuery } from "./model.ts";
import { JOURNAL_PAGE_MAX, type LedgerStore } from "./store.ts";

/**
 * The Redis ledger's bulk reads: the journal by time, an account's entries by the read index
 * (account-index.ts) and an order's by reference. Entries come packed (journal-read.ts).
 */
export function redisLedgerReads(
  redis: RedisClient,
  k: Keyspace,
): Pick<LedgerStore, "journal" | "accountEntries" | "entriesOf"> {
  const keys = { journal: k.ledgerJournal, index: k.ledgerIndex };
  const packed = async (...argv: Array<string | number>) =>
    unpackEntries((await journalRead.run(redis, keys, ...argv)) as string);
  return {
    async journal(q = {}) {
      const { limit, argv } = journalArgs(q);
      if (!argv) return { entries: [] };
      const raw = await packed(...argv);
      const entries = raw.slice(0, limit);
      return raw.length > limit ? { entries, next: entries.at(-1)!.seq } : { entries };
    },

    async accountEntries(account, q): Promise<AccountPage> {
      const acc = accountIdSchema.parse(account);
      const limit = Math.max(1, Math.min(q.limit ?? ACCOUNT_PAGE_MAX, ACCOUNT_PAGE_MAX));
      const { min, max, below } = accountRange(acc, q);
      // One script: the page, the member just before it and the page's entries, one snapshot.
      const [joined, prev, raw] = (await journalRead.run(
        redis,
        keys,
        "account",
        min,
        max,
        limit + 1,
        below,
        `[a:${acc}|`,
      )) as [string, string, string];
      const page = joined === "" ? [] : joined.split("\x1e");
      const members = page.slice(0, limit).map(parseAccountMember);
      const entries = unpackEntries(raw);
      if (entries.length !== page.length) throw new Error("a ledger journal entry is missing");
      const lines = members.map((m, i) => ({
        entry: entries[i]!,
        postedPaisa: m.postedPaisa,
        heldPaisa: m.heldPaisa,
      }));
      const before = prev === "" ? undefined : parseAccountMember(prev);
      const opening = { postedPaisa: before?.postedPaisa ?? 0, heldPaisa: before?.heldPaisa ?? 0 };
      return page.length > limit
        ? { opening, lines, next: lines.at(-1)!.entry.seq }
        : { opening, lines };
    },

    async entriesOf(reference) {
      const p = referencePrefix(reference);
      return packed("ref", `[${p}`, `[${p}~`, JOURNAL_PAGE_MAX);
    },
  };
}

/**
 * The journal's page as the script packs it, undecoded (limit + 1 entries: the extra one says a
 * next page exists): the export's worker writes its CSV bytes from it (csv-packed.ts).
 */
export function journalPackedReader(redis: RedisClient, k: Keyspace) {
  const keys = { journal: k.ledgerJournal, index: k.ledgerIndex };
  return async (q: JournalQuery): Promise<Buffer> => {
    const { argv } = journalArgs(q);
    return argv ? journalRead.runBuffer<Buffer>(redis, keys, ...argv) : Buffer.alloc(0);
  };
}

/** journal()'s script arguments for a query; none when the range is empty. */
function journalArgs(q: JournalQuery) {
  const limit = Math.min(q.limit ?? JOURNAL_PAGE_MAX, JOURNAL_PAGE_MAX);
  // Stream ids are booking times, so a time range is an id range; `to` is exclusive.
  let start = q.from === undefined ? "-" : `${q.from}-0`;
  if (q.after !== undefined) {
    const after = `(${q.after}`;
    start = q.from === undefined || compare(q.after, `${q.from}-0`) >= 0 ? after : start;
  }
  const end = q.to === undefined ? "+" : `(${q.to}-0`;
  if (q.to !== undefined && q.to <= 0) return { limit };
  return { limit, argv: ["range", start, end, limit + 1] as const };
}

/** Orders two stream ids. */
function compare(a: string, b: string): number {
  const [am, an] = a.split("-").map(Number) as [number, number];
  const [bm, bn] = b.split("-").map(Number) as [number, number];
  return am - bm || an - bn;
}
