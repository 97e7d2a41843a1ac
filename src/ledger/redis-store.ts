import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { type AccountId, accountIdSchema } from "./chart.ts";
import { audit, toBalance } from "./core.ts";
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
import { redisLedgerReads } from "./redis-reads.ts";
import type { LedgerStore } from "./store.ts";

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
  return {
    ...redisLedgerReads(redis, k),
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

    async entryOf(id) {
      // An id no transfer could have (a typed receipt number) names nothing.
      if (!transferIdSchema.safeParse(id).success) return null;
      const transfer = await redis.hget(k.ledgerTransfers, id);
      // The value is "<seq> <fingerprint>" (lua.ts).
      return transfer === null ? null : entryAt(transfer.slice(0, transfer.indexOf(" ")));
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
