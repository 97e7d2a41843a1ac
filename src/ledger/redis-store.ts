import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import {
  ACCOUNT_PAGE_MAX,
  type AccountPage,
  accountRange,
  parseAccountMember,
  referencePrefix,
  seqOfReferenceMember,
} from "./account-index.ts";
import { type AccountId, accountIdSchema } from "./chart.ts";
import { audit, toBalance } from "./core.ts";
import { journalRead, unpackEntries } from "./journal-read.ts";
import {
  holdArgv,
  LEDGER_KEYS,
  LEDGER_LUA,
  type LedgerKey,
  ledgerKeys,
  ledgerKeysLua,
  parseLedgerReply,
  parseStreamEntry,
  transferArgv,
} from "./lua.ts";
import {
  type Balances,
  holdInputSchema,
  type JournalEntry,
  type PendingState,
  pendingStateSchema,
  transferIdSchema,
  transferInputSchema,
} from "./model.ts";
import { JOURNAL_PAGE_MAX, type LedgerStore } from "./store.ts";

/**
 * The ledger in Redis: every mutation is one Lua script over the four ledger keys, built from the
 * same library (LEDGER_LUA) the order scripts will include. Reads are plain commands; `check`
 * reads balances, pending states and the journal in one MULTI, a consistent snapshot.
 */

const L = ledgerKeysLua(1);
const transferScript = luaScript<LedgerKey, unknown>(
  "raLedgerTransfer",
  LEDGER_KEYS,
  `${LEDGER_LUA}\n${L}\nreturn ledger_transfer(L, ARGV, 1)`,
);
const holdScript = luaScript<LedgerKey, unknown>(
  "raLedgerHold",
  LEDGER_KEYS,
  `${LEDGER_LUA}\n${L}\nreturn ledger_hold(L, ARGV, 1)`,
);
const postScript = luaScript<LedgerKey, unknown>(
  "raLedgerPost",
  LEDGER_KEYS,
  `${LEDGER_LUA}\n${L}\nreturn ledger_post(L, ARGV[1], ARGV[2])`,
);
const voidScript = luaScript<LedgerKey, unknown>(
  "raLedgerVoid",
  LEDGER_KEYS,
  `${LEDGER_LUA}\n${L}\nreturn ledger_void(L, ARGV[1], ARGV[2])`,
);

const COUNTERS = {
  dp: "debitsPosted",
  cp: "creditsPosted",
  dq: "debitsPending",
  cq: "creditsPending",
} as const;

function parseBalances(flat: Record<string, string>): Map<AccountId, Balances> {
  const out = new Map<AccountId, Balances>();
  for (const [field, value] of Object.entries(flat)) {
    const bar = field.lastIndexOf("|");
    const account = accountIdSchema.parse(field.slice(0, bar));
    const counter = COUNTERS[field.slice(bar + 1) as keyof typeof COUNTERS];
    if (!counter) throw new Error(`unexpected ledger balance field ${field}`);
    const b = out.get(account) ?? {
      debitsPosted: 0,
      creditsPosted: 0,
      debitsPending: 0,
      creditsPending: 0,
    };
    b[counter] = Number(value);
    out.set(account, b);
  }
  return out;
}

export function createRedisLedger(opts: {
  redis: RedisClient;
  prefix: string;
  now?: () => number;
}): LedgerStore {
  const { redis } = opts;
  const now = opts.now ?? Date.now;
  const k = keyspace(opts.prefix);
  const keys = ledgerKeys(k);

  const entryAt = async (seq: string): Promise<JournalEntry> => {
    const [raw] = (await redis.xrange(k.ledgerJournal, seq, seq)) as Array<[string, string[]]>;
    if (!raw) throw new Error(`ledger journal entry ${seq} is missing`);
    return parseStreamEntry(raw);
  };
  /** The entries at these seqs, in one round trip (the index names them; the journal holds them). */
  const journal = { journal: k.ledgerJournal };
  const entriesAt = async (seqs: string[]): Promise<JournalEntry[]> => {
    if (seqs.length === 0) return [];
    const entries = unpackEntries(await journalRead.run(redis, journal, "ids", ...seqs));
    if (entries.length !== seqs.length) throw new Error("a ledger journal entry is missing");
    return entries;
  };

  return {
    async transfer(t) {
      const v = transferInputSchema.parse(t);
      return parseLedgerReply(await transferScript.run(redis, keys, ...transferArgv(v, now())));
    },
    async hold(t) {
      const v = holdInputSchema.parse(t);
      return parseLedgerReply(await holdScript.run(redis, keys, ...holdArgv(v, now())));
    },
    async post(id) {
      const pid = transferIdSchema.parse(id);
      return parseLedgerReply(await postScript.run(redis, keys, pid, String(now())));
    },
    async void(id) {
      const pid = transferIdSchema.parse(id);
      return parseLedgerReply(await voidScript.run(redis, keys, pid, String(now())));
    },

    async balance(account) {
      const a = accountIdSchema.parse(account);
      const [dp, cp, dq, cq] = await redis.hmget(
        k.ledgerBalances,
        `${a}|dp`,
        `${a}|cp`,
        `${a}|dq`,
        `${a}|cq`,
      );
      return toBalance(a, {
        debitsPosted: Number(dp ?? 0),
        creditsPosted: Number(cp ?? 0),
        debitsPending: Number(dq ?? 0),
        creditsPending: Number(cq ?? 0),
      });
    },

    async journal(q = {}) {
      const limit = Math.min(q.limit ?? JOURNAL_PAGE_MAX, JOURNAL_PAGE_MAX);
      // Stream ids are booking times, so a time range is an id range; `to` is exclusive.
      let start = q.from === undefined ? "-" : `${q.from}-0`;
      if (q.after !== undefined) {
        const after = `(${q.after}`;
        start = q.from === undefined || compare(q.after, `${q.from}-0`) >= 0 ? after : start;
      }
      const end = q.to === undefined ? "+" : `(${q.to}-0`;
      if (q.to !== undefined && q.to <= 0) return { entries: [] };
      const raw = unpackEntries(
        await journalRead.run(redis, journal, "range", start, end, limit + 1),
      );
      const entries = raw.slice(0, limit);
      return raw.length > limit ? { entries, next: entries.at(-1)!.seq } : { entries };
    },

    async pendingOf(id) {
      const [state, transfer] = await redis
        .multi()
        .hget(k.ledgerPending, id)
        .hget(k.ledgerTransfers, id)
        .exec()
        .then((r) =>
          (r ?? []).map(([err, v]) => {
            if (err) throw err;
            return v as string | null;
          }),
        );
      if (!state || !transfer) return null;
      const hold = await entryAt(transfer.slice(0, transfer.indexOf(" ")));
      if (state === "pending") return { state: "pending", hold };
      const sp = state.indexOf(" ");
      return {
        state: pendingStateSchema.parse(state.slice(0, sp)),
        hold,
        resolution: await entryAt(state.slice(sp + 1)),
      };
    },

    async accountEntries(account, q): Promise<AccountPage> {
      const acc = accountIdSchema.parse(account);
      const limit = Math.max(1, Math.min(q.limit ?? ACCOUNT_PAGE_MAX, ACCOUNT_PAGE_MAX));
      const { min, max, below } = accountRange(acc, q);
      // One snapshot: the page and the member just before it (entries only ever come after).
      const [page, prev] = (await redis
        .multi()
        .zrangebylex(k.ledgerIndex, min, max, "LIMIT", 0, limit + 1)
        .zrevrangebylex(k.ledgerIndex, below, `[a:${acc}|`, "LIMIT", 0, 1)
        .exec()
        .then((r) =>
          (r ?? []).map(([err, v]) => {
            if (err) throw err;
            return v as string[];
          }),
        )) as [string[], string[]];
      const members = page.slice(0, limit).map(parseAccountMember);
      const entries = await entriesAt(members.map((m) => m.seq));
      const lines = members.map((m, i) => ({
        entry: entries[i]!,
        postedPaisa: m.postedPaisa,
        heldPaisa: m.heldPaisa,
      }));
      const before = prev[0] === undefined ? undefined : parseAccountMember(prev[0]);
      const opening = { postedPaisa: before?.postedPaisa ?? 0, heldPaisa: before?.heldPaisa ?? 0 };
      return page.length > limit
        ? { opening, lines, next: lines.at(-1)!.entry.seq }
        : { opening, lines };
    },

    async entriesOf(reference) {
      const p = referencePrefix(reference);
      const members = await redis.zrangebylex(
        k.ledgerIndex,
        `[${p}`,
        `[${p}~`,
        "LIMIT",
        0,
        JOURNAL_PAGE_MAX,
      );
      return entriesAt(members.map(seqOfReferenceMember));
    },

    async accounts() {
      const fields = await redis.hkeys(k.ledgerBalances);
      const set = new Set(fields.map((f) => accountIdSchema.parse(f.slice(0, f.lastIndexOf("|")))));
      return [...set].sort();
    },

    async check() {
      // One MULTI: balances, pending states and journal from the same moment.
      const replies =
        (await redis
          .multi()
          .hgetall(k.ledgerBalances)
          .hgetall(k.ledgerPending)
          .xrange(k.ledgerJournal, "-", "+")
          .exec()) ?? [];
      const [bal, pend, journal] = replies.map(([err, v]) => {
        if (err) throw err;
        return v;
      }) as [Record<string, string>, Record<string, string>, Array<[string, string[]]>];
      const pending = new Map<string, PendingState>();
      for (const [id, v] of Object.entries(pend)) {
        pending.set(id, pendingStateSchema.parse(v.split(" ")[0]));
      }
      return audit(parseBalances(bal), journal.map(parseStreamEntry), pending);
    },
  };
}

/** Orders two stream ids. */
function compare(a: string, b: string): number {
  const [am, an] = a.split("-").map(Number) as [number, number];
  const [bm, bn] = b.split("-").map(Number) as [number, number];
  return am - bm || an - bn;
}
