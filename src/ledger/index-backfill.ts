import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { accountMember, changeOf, padSeq, referencePrefix } from "./account-index.ts";
import type { AccountId } from "./chart.ts";
import { redisLedgerReads } from "./redis-reads.ts";
import { JOURNAL_PAGE_MAX } from "./store.ts";

/**
 * The read index (account-index.ts) for a journal booked before the scripts wrote it: the journal
 * read from its first entry, each account's balances worked forward from zero (every change is in
 * the journal), the members ZADDed page by page. Members the scripts wrote meanwhile are the same
 * strings (ZADD leaves them), and entries booked while it runs are indexed by their own script, so
 * it is safe to run while the product runs and to run again. Run once after upgrading, before the
 * back office's statements are trusted for older ranges. Returns how many members it added.
 */
export async function backfillLedgerIndex(redis: RedisClient, prefix: string): Promise<number> {
  const k = keyspace(prefix);
  const reads = redisLedgerReads(redis, k);
  const running = new Map<AccountId, { posted: number; held: number }>();
  let after: string | undefined;
  let added = 0;
  for (;;) {
    const page = await reads.journal({ limit: JOURNAL_PAGE_MAX, ...(after ? { after } : {}) });
    const members: Array<string | number> = [];
    for (const e of page.entries) {
      for (const acc of [e.debit, e.credit]) {
        const c = changeOf(e, acc);
        const r = running.get(acc) ?? { posted: 0, held: 0 };
        r.posted += c.posted;
        r.held += c.held;
        running.set(acc, r);
        members.push(0, accountMember(acc, e.seq, r.posted, r.held));
      }
      if (e.reference) members.push(0, `${referencePrefix(e.reference)}${padSeq(e.seq)}`);
    }
    if (members.length > 0) added += await redis.zadd(k.ledgerIndex, ...members);
    if (!page.next) return added;
    after = page.next;
  }
}

/**
 * Once per journal: the backfill, unless a previous start finished it (`ledgerIndexComplete`).
 * Called before the process reports ready, so no statement is read from a half-built index; a
 * journal that began with this version backfills nothing and only writes the mark.
 */
export async function ensureLedgerIndex(
  redis: RedisClient,
  prefix: string,
  log: (added: number, ms: number) => void,
): Promise<void> {
  const k = keyspace(prefix);
  if ((await redis.get(k.ledgerIndexComplete)) !== null) return;
  const started = Date.now();
  const added = await backfillLedgerIndex(redis, prefix);
  await redis.set(k.ledgerIndexComplete, String(Date.now()));
  log(added, Date.now() - started);
}
