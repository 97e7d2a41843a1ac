import { z } from "zod";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { waResendKeys } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { storedJson } from "../stored-json.ts";

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
  /** When it is due (ms): the retry bound counts from here, unless `first` says otherwise. */
  at: z.number(),
  /**
   * A resend Meta failed late too: when the first entry of its chain was first due, the bound's
   * start (its counts are carried over as well), so a chain of late failures ends.
   */
  first: z.number().optional(),
  /** Sends tried that failed. */
  tries: z.number().int().default(0),
  /** Of those, the ones that may have arrived (a lost answer). */
  uncertain: z.number().int().default(0),
});
export type OwedResend = z.infer<typeof entrySchema>;

/** What a resend's new wamids carry into their entries if Meta fails them late as well. */
export interface Carried {
  wamids: string[];
  first: number;
  tries: number;
  uncertain: number;
}

export interface LateResendStore {
  /**
   * Owes the entry from `entry.at` unless it is owed or done already; true when newly owed. A
   * wamid that is itself a resend takes its chain's start and counts (`done`'s `carry`).
   */
  owe(entry: OwedResend): Promise<boolean>;
  /** Entries due by `now`, at most `max`, each leased to the caller until `leaseUntil`. */
  claim(now: number, leaseUntil: number, max: number): Promise<OwedResend[]>;
  /**
   * Only while the caller's lease (`lease`, the score it holds) is still its own: the entry
   * written as given and due at `until` (a lease renewed, or given back). False: lost.
   */
  take(entry: OwedResend, lease: number, until: number): Promise<boolean>;
  /** Sent, or given up: never owed again for this wamid; `carry`: a resend's new wamids. */
  done(wamid: string, carry?: Carried): Promise<void>;
  /** Tried again at `dueAt` with the entry as given (its counts). */
  later(entry: OwedResend, dueAt: number): Promise<void>;
}

/** The done mark's life: longer than Meta's redeliveries of a status (7 days). */
const DONE_SECONDS = 8 * 86_400;

const parse = (raw: string): OwedResend | null => storedJson(entrySchema, raw);

const carriedSchema = z.object({ first: z.number(), tries: z.number(), uncertain: z.number() });
/** An entry owed as a resend's new wamid: its chain's start and counts. */
const carriedInto = (entry: OwedResend, raw: string | null): OwedResend => {
  if (raw === null) return entry;
  try {
    const c = carriedSchema.parse(JSON.parse(raw));
    return { ...entry, first: c.first, tries: c.tries, uncertain: c.uncertain };
  } catch {
    return entry;
  }
};

export function createMemoryLateResendStore(): LateResendStore {
  const due = new Map<string, number>();
  const entries = new Map<string, OwedResend>();
  const doneSet = new Set<string>();
  const carried = new Map<string, string>();
  return {
    async owe(given) {
      if (doneSet.has(given.wamid) || entries.has(given.wamid)) return false;
      const entry = carriedInto(given, carried.get(given.wamid) ?? null);
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
    async take(entry, lease, until) {
      if (due.get(entry.wamid) !== lease || !entries.has(entry.wamid)) return false;
      entries.set(entry.wamid, entry);
      due.set(entry.wamid, until);
      return true;
    },
    async done(wamid, carry) {
      due.delete(wamid);
      entries.delete(wamid);
      doneSet.add(wamid);
      const { wamids = [], ...counts } = carry ?? {};
      for (const w of wamids) carried.set(w, JSON.stringify(counts));
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
    out[#out + 1] = id
    out[#out + 1] = e
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`,
);

/**
 * KEYS: due, entries, done mark, then a carry mark per new wamid. ARGV: wamid, the marks' TTL (s),
 * the carried counts (JSON).
 */
const doneScript = luaScript<"due" | "entries" | "done", number>(
  "waResendDone",
  ["due", "entries", "done"],
  `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], '1', 'EX', ARGV[2])
for i = 4, #KEYS do redis.call('SET', KEYS[i], ARGV[3], 'EX', ARGV[2]) end
return 1
`,
);

/**
 * KEYS: due, entries. ARGV: wamid, entry JSON, the caller's lease (its score), the new score.
 * Only while the score is still the caller's: another instance's claim after the lease ran out
 * moved it.
 */
const takeScript = luaScript<"due" | "entries", number>(
  "waResendTake",
  ["due", "entries"],
  `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[3]) then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
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

/** `logger`: an entry that cannot be read (a schema change) is logged once and removed. */
export function createRedisLateResendStore(
  redis: RedisClient,
  prefix: string,
  logger?: Logger,
): LateResendStore {
  const k = waResendKeys(prefix);
  const both = { due: k.due, entries: k.entries };
  const done = async (wamid: string, carry?: Carried) => {
    const { wamids = [], ...counts } = carry ?? {};
    const keys = { ...both, done: k.done(wamid) };
    const more = wamids.map((w) => k.carry(w));
    await doneScript.runWithKeys(redis, keys, more, wamid, DONE_SECONDS, JSON.stringify(counts));
  };
  return {
    async owe(given) {
      // Read first: a resend's new wamid fails late only after its carry mark was written.
      const entry = carriedInto(given, await redis.get(k.carry(given.wamid)));
      const keys = { ...both, done: k.done(entry.wamid) };
      const added = await oweScript.run(redis, keys, entry.wamid, JSON.stringify(entry), entry.at);
      return Number(added) === 1;
    },
    async claim(now, leaseUntil, max) {
      const raw = await claimScript.run(redis, both, now, leaseUntil, max);
      const out: OwedResend[] = [];
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const [id, text] = [raw[i] as string, raw[i + 1] as string];
        const entry = parse(text);
        if (entry) out.push(entry);
        else {
          // Else it would be leased again every lease, for ever.
          logger?.error(
            { wamid: id, entry: text.slice(0, 200) },
            "whatsapp late resend unreadable; removed",
          );
          await done(id);
        }
      }
      return out;
    },
    async take(entry, lease, until) {
      const json = JSON.stringify(entry);
      return Number(await takeScript.run(redis, both, entry.wamid, json, lease, until)) === 1;
    },
    done,
    async later(entry, dueAt) {
      await laterScript.run(redis, both, entry.wamid, JSON.stringify(entry), dueAt);
    },
  };
}

/** The late resends' entries: Redis's, else this process's. */
export const lateResendStore = (redis: RedisClient | undefined, prefix: string, logger: Logger) =>
  redis ? createRedisLateResendStore(redis, prefix, logger) : createMemoryLateResendStore();
