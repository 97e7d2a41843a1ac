import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { waResendKeys } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * Messages owed again after a late `failed` status (late-resend.ts): one entry per failed wamid,
 * durable before the status is recorded, taken by one instance at a time under a lease, done once
 * (a done mark outlives Meta's redeliveries, so a redelivered status owes nothing again).
 */

const entrySchema = z.object({
  wamid: z.string(),
  chatId: z.number().int(),
  /** Meta's code on the `failed` status. */
  code: z.number().int(),
  /** When it was first due (ms): the retry bound counts from here. */
  at: z.number(),
  /** Sends tried that failed. */
  tries: z.number().int().default(0),
  /** Of those, the ones that may have arrived (a lost answer). */
  uncertain: z.number().int().default(0),
});
export type OwedResend = z.infer<typeof entrySchema>;

export interface LateResendStore {
  /** Owes the entry from `entry.at` unless it is owed or done already; true when newly owed. */
  owe(entry: OwedResend): Promise<boolean>;
  /** Entries due by `now`, at most `max`, each leased to the caller until `leaseUntil`. */
  claim(now: number, leaseUntil: number, max: number): Promise<OwedResend[]>;
  /** Sent, or given up: never owed again for this wamid. */
  done(wamid: string): Promise<void>;
  /** Tried again at `dueAt` with the entry as given (its counts). */
  later(entry: OwedResend, dueAt: number): Promise<void>;
}

/** The done mark's life: longer than Meta's redeliveries of a status (7 days). */
const DONE_SECONDS = 8 * 86_400;

const parse = (raw: string): OwedResend | null => {
  try {
    const r = entrySchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
};

export function createMemoryLateResendStore(): LateResendStore {
  const due = new Map<string, number>();
  const entries = new Map<string, OwedResend>();
  const doneSet = new Set<string>();
  return {
    async owe(entry) {
      if (doneSet.has(entry.wamid) || entries.has(entry.wamid)) return false;
      entries.set(entry.wamid, entry);
      due.set(entry.wamid, entry.at);
      return true;
    },
    async claim(now, leaseUntil, max) {
      const ready = [...due].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]);
      return ready.slice(0, max).flatMap(([wamid]) => {
        due.set(wamid, leaseUntil);
        const e = entries.get(wamid);
        return e ? [e] : [];
      });
    },
    async done(wamid) {
      due.delete(wamid);
      entries.delete(wamid);
      doneSet.add(wamid);
    },
    async later(entry, dueAt) {
      if (!entries.has(entry.wamid)) return;
      entries.set(entry.wamid, entry);
      due.set(entry.wamid, dueAt);
    },
  };
}

/** KEYS: due, entries, done mark. ARGV: wamid, entry JSON, due. 1 when newly owed. */
const oweScript = luaScript<"due" | "entries" | "done", number>(
  "waResendOwe",
  ["due", "entries", "done"],
  `
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`,
);

/**
 * KEYS: due, entries. ARGV: now, lease end, max. The due entries, each moved to the lease's end
 * in the same step: another instance's claim meanwhile does not see them.
 */
const claimScript = luaScript<"due" | "entries", string[]>(
  "waResendClaim",
  ["due", "entries"],
  `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
  local e = redis.call('HGET', KEYS[2], id)
  if e then
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    out[#out + 1] = e
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`,
);

/** KEYS: due, entries, done mark. ARGV: wamid, the mark's TTL (s). */
const doneScript = luaScript<"due" | "entries" | "done", number>(
  "waResendDone",
  ["due", "entries", "done"],
  `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], '1', 'EX', ARGV[2])
return 1
`,
);

/** KEYS: due, entries. ARGV: wamid, entry JSON, due. Only while still owed. */
const laterScript = luaScript<"due" | "entries", number>(
  "waResendLater",
  ["due", "entries"],
  `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`,
);

export function createRedisLateResendStore(redis: RedisClient, prefix: string): LateResendStore {
  const k = waResendKeys(prefix);
  const both = { due: k.due, entries: k.entries };
  return {
    async owe(entry) {
      const keys = { ...both, done: k.done(entry.wamid) };
      const added = await oweScript.run(redis, keys, entry.wamid, JSON.stringify(entry), entry.at);
      return Number(added) === 1;
    },
    async claim(now, leaseUntil, max) {
      const raw = await claimScript.run(redis, both, now, leaseUntil, max);
      return raw.flatMap((r) => parse(r) ?? []);
    },
    async done(wamid) {
      await doneScript.run(redis, { ...both, done: k.done(wamid) }, wamid, DONE_SECONDS);
    },
    async later(entry, dueAt) {
      await laterScript.run(redis, both, entry.wamid, JSON.stringify(entry), dueAt);
    },
  };
}
