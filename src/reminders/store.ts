import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import {
  emptyState,
  type ReminderRecord,
  type ReminderState,
  reminderRecordSchema,
} from "./model.ts";

/**
 * Where reminders live: per customer one hash (`r:<id>` the record JSON, `t:<id>:<ms>` a payment
 * time, `s:<id>` the due time last reminded, `o:<id>` off, `off` all off, `day` the last message's
 * day) and one schedule (a sorted set: customer -> when to look at them again). Recording a
 * success is two commands (HSET, ZADD LT), so the order path pays next to nothing; everything
 * else is the worker's. A worker claims a customer (their schedule time moved a lease ahead,
 * atomically, only if it was due), so one instance looks at a customer at a time; the message's
 * day is claimed with its marks in one atomic step before sending, so across instances and
 * restarts a customer gets at most one message a day and each due date is sent at most once (a
 * send that certainly sent nothing gives them back, in one step, only while still its own).
 */
export interface ReminderStore {
  /** A successful order's record and payment time; looks at the customer by `wakeAt` at the latest. */
  record(userId: number, id: string, record: ReminderRecord, wakeAt: number): Promise<void>;
  /** Customers to look at by `now`, at most `limit`. */
  due(now: number, limit: number): Promise<number[]>;
  /** Takes the customer for `leaseMs` if they are due; false when another worker has them. */
  claim(userId: number, now: number, leaseMs: number): Promise<number | null>;
  read(userId: number): Promise<ReminderState>;
  /**
   * Claims the customer's `day` and marks each reminder sent for its due time, in one step;
   * false (nothing written) when the day's message was already claimed.
   */
  markSent(
    userId: number,
    day: string,
    marks: ReadonlyArray<{ id: string; dueAt: number }>,
  ): Promise<boolean>;
  /**
   * Undoes a markSent whose message certainly did not go out, in one step: each field (the day,
   * each mark) back to what it held before (`before`; undefined: none), but only while it still
   * holds what that markSent wrote.
   */
  unmarkSent(
    userId: number,
    day: { wrote: string; before: string | undefined },
    marks: ReadonlyArray<{ id: string; dueAt: number; before: number | undefined }>,
  ): Promise<void>;
  /**
   * Drops the account whose record is the order `ref` (its record, times and mark; a stop stays):
   * a refunded order is not reminded of. False when no record is that order's.
   */
  dropOrder(userId: number, ref: string): Promise<boolean>;
  /**
   * After a claim: the next look at `at` (null: none), unless a success recorded meanwhile asked
   * for an earlier one.
   */
  release(userId: number, claimedUntil: number, at: number | null): Promise<void>;
  forget(userId: number, fields: readonly string[]): Promise<void>;
  /**
   * Turns reminders off or on: some accounts, or all ("all"); on, the customer is looked at by
   * `now`. All back on clears every account's stop too: /reminders then says what is true.
   */
  setOff(
    userId: number,
    which: readonly string[] | "all",
    off: boolean,
    now: number,
  ): Promise<void>;
}

/** A customer's hash fields as a state (unreadable records are skipped). */
export function stateOf(fields: Record<string, string>): ReminderState {
  const state = emptyState();
  for (const [field, value] of Object.entries(fields)) {
    const [kind, id, extra] = field.split(":");
    if (kind === "r" && id) {
      const parsed = reminderRecordSchema.safeParse(safeJson(value));
      if (parsed.success) state.records.set(id, parsed.data);
    } else if (kind === "t" && id && extra) {
      state.times.set(id, [...(state.times.get(id) ?? []), Number(extra)]);
    } else if (kind === "s" && id) state.sent.set(id, Number(value));
    else if (kind === "o" && id) state.off.add(id);
    else if (field === "off") state.allOff = true;
    else if (field === "day") state.day = value;
  }
  return state;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const offFields = (which: readonly string[] | "all") =>
  which === "all" ? ["off"] : which.map((id) => `o:${id}`);

/** The undo of a markSent as (field, written, before) triples; "" stands for none. */
const undoTriples = (
  day: { wrote: string; before: string | undefined },
  marks: ReadonlyArray<{ id: string; dueAt: number; before: number | undefined }>,
) => [
  ["day", day.wrote, day.before ?? ""],
  ...marks.map((m) => [
    `s:${m.id}`,
    String(m.dueAt),
    m.before === undefined ? "" : String(m.before),
  ]),
];

/** The ids whose record is the order `ref`. */
function idsOfOrder(fields: Iterable<[string, string]>, ref: string): Set<string> {
  const ids = new Set<string>();
  for (const [field, value] of fields) {
    if (!field.startsWith("r:")) continue;
    const parsed = reminderRecordSchema.safeParse(safeJson(value));
    if (parsed.success && parsed.data.ref === ref) ids.add(field.slice(2));
  }
  return ids;
}

/** A field of an account in `ids`: its record, a time, its mark (not its stop). */
const ofAccounts = (field: string, ids: Set<string>) => {
  const [kind, id] = field.split(":");
  return (kind === "r" || kind === "t" || kind === "s") && id !== undefined && ids.has(id);
};

export function memoryReminders(): ReminderStore {
  const hashes = new Map<number, Map<string, string>>();
  const schedule = new Map<number, number>();
  const hash = (userId: number) => {
    let h = hashes.get(userId);
    if (!h) {
      h = new Map();
      hashes.set(userId, h);
    }
    return h;
  };
  return {
    async record(userId, id, record, wakeAt) {
      hash(userId).set(`r:${id}`, JSON.stringify(record)).set(`t:${id}:${record.at}`, "1");
      const at = schedule.get(userId);
      if (at === undefined || wakeAt < at) schedule.set(userId, wakeAt);
    },
    async due(now, limit) {
      return [...schedule]
        .filter(([, at]) => at <= now)
        .sort((a, b) => a[1] - b[1])
        .slice(0, limit)
        .map(([u]) => u);
    },
    async claim(userId, now, leaseMs) {
      const at = schedule.get(userId);
      if (at === undefined || at > now) return null;
      schedule.set(userId, now + leaseMs);
      return now + leaseMs;
    },
    async read(userId) {
      return stateOf(Object.fromEntries(hashes.get(userId) ?? []));
    },
    async markSent(userId, day, marks) {
      const h = hash(userId);
      if (h.get("day") === day) return false;
      h.set("day", day);
      for (const m of marks) h.set(`s:${m.id}`, String(m.dueAt));
      return true;
    },
    async unmarkSent(userId, day, marks) {
      const h = hash(userId);
      for (const [field, wrote, before] of undoTriples(day, marks)) {
        if (h.get(field!) !== wrote) continue;
        if (before === "") h.delete(field!);
        else h.set(field!, before!);
      }
    },
    async dropOrder(userId, ref) {
      const h = hashes.get(userId);
      if (!h) return false;
      const ids = idsOfOrder(h, ref);
      for (const field of [...h.keys()]) if (ofAccounts(field, ids)) h.delete(field);
      return ids.size > 0;
    },
    async release(userId, claimedUntil, at) {
      const cur = schedule.get(userId);
      if (cur !== undefined && cur !== claimedUntil) {
        if (at !== null && at < cur) schedule.set(userId, at);
        return;
      }
      if (at === null) schedule.delete(userId);
      else schedule.set(userId, at);
    },
    async forget(userId, fields) {
      for (const f of fields) hashes.get(userId)?.delete(f);
    },
    async setOff(userId, which, off, now) {
      for (const f of offFields(which)) {
        if (off) hash(userId).set(f, "1");
        else hashes.get(userId)?.delete(f);
      }
      if (which === "all" && !off) {
        for (const f of [...hash(userId).keys()]) if (f.startsWith("o:")) hash(userId).delete(f);
      }
      const at = schedule.get(userId);
      if (!off && (at === undefined || now < at)) schedule.set(userId, now);
    },
  };
}

// KEYS: schedule. ARGV: user, now, until. Moves a due customer's time to `until`.
const CLAIM = `
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`;
// KEYS: hash. ARGV: day, then field, value pairs. The day and the marks, or nothing.
const MARK = `
if redis.call('HGET', KEYS[1], 'day') == ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'day', unpack(ARGV))
return 1
`;
// KEYS: hash. ARGV: (field, written, before) triples, '' = none. Each field back, if still written.
const UNMARK = `
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    if ARGV[i + 2] == '' then redis.call('HDEL', KEYS[1], ARGV[i])
    else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
  end
end
return 1
`;
// KEYS: hash. ARGV: fields to delete (the caller's pick), then at the end the record field that
// must still hold ARGV[#ARGV] for anything to go (a success meanwhile replaced it: kept).
const DROP = `
local n = #ARGV
if redis.call('HGET', KEYS[1], ARGV[n - 1]) ~= ARGV[n] then return 0 end
redis.call('HDEL', KEYS[1], unpack(ARGV, 1, n - 2))
return 1
`;
// KEYS: hash. Every stop goes: "off" and each account's "o:".
const ALL_ON = `
local gone = {'off'}
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(f, 1, 2) == 'o:' then gone[#gone + 1] = f end
end
return redis.call('HDEL', KEYS[1], unpack(gone))
`;
// KEYS: schedule. ARGV: user, claimed until, next ('' = none). A time lowered meanwhile is kept.
const RELEASE = `
local cur = redis.call('ZSCORE', KEYS[1], ARGV[1])
if cur and tonumber(cur) ~= tonumber(ARGV[2]) then
  if ARGV[3] ~= '' then redis.call('ZADD', KEYS[1], 'LT', ARGV[3], ARGV[1]) end
  return 0
end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
`;
const claimScript = luaScript<"schedule", number>("raRemindClaim", ["schedule"], CLAIM);
const markScript = luaScript<"hash", number>("raRemindMark", ["hash"], MARK);
const unmarkScript = luaScript<"hash", number>("raRemindUnmark", ["hash"], UNMARK);
const dropScript = luaScript<"hash", number>("raRemindDrop", ["hash"], DROP);
const allOnScript = luaScript<"hash", number>("raRemindAllOn", ["hash"], ALL_ON);
const releaseScript = luaScript<"schedule", number>("raRemindRelease", ["schedule"], RELEASE);

export function redisReminders(redis: RedisClient, prefix: string): ReminderStore {
  const ks = keyspace(prefix);
  const k = { schedule: ks.remindersDue, user: ks.reminders };
  return {
    async record(userId, id, record, wakeAt) {
      const replies = await redis
        .pipeline()
        .hset(k.user(userId), `r:${id}`, JSON.stringify(record), `t:${id}:${record.at}`, "1")
        .zadd(k.schedule, "LT", wakeAt, String(userId))
        .exec();
      const failed = (replies ?? []).find(([err]) => err);
      if (failed?.[0]) throw failed[0];
    },
    async due(now, limit) {
      const ids = await redis.zrangebyscore(k.schedule, "-inf", now, "LIMIT", 0, limit);
      return ids.map(Number);
    },
    async claim(userId, now, leaseMs) {
      const until = now + leaseMs;
      const won = await claimScript.run(
        redis,
        { schedule: k.schedule },
        String(userId),
        now,
        until,
      );
      return won === 1 ? until : null;
    },
    async read(userId) {
      return stateOf(await redis.hgetall(k.user(userId)));
    },
    async markSent(userId, day, marks) {
      const pairs = marks.flatMap((m) => [`s:${m.id}`, String(m.dueAt)]);
      return (await markScript.run(redis, { hash: k.user(userId) }, day, ...pairs)) === 1;
    },
    async unmarkSent(userId, day, marks) {
      await unmarkScript.run(redis, { hash: k.user(userId) }, ...undoTriples(day, marks).flat());
    },
    async dropOrder(userId, ref) {
      // Read, then dropped in one step only while each record is the one read.
      const fields = await redis.hgetall(k.user(userId));
      const ids = idsOfOrder(Object.entries(fields), ref);
      let dropped = false;
      for (const id of ids) {
        const gone = Object.keys(fields).filter((f) => ofAccounts(f, new Set([id])));
        const args = [...gone, `r:${id}`, fields[`r:${id}`]!];
        dropped = (await dropScript.run(redis, { hash: k.user(userId) }, ...args)) === 1 || dropped;
      }
      return dropped;
    },
    async release(userId, claimedUntil, at) {
      const next = at === null ? "" : String(at);
      await releaseScript.run(redis, { schedule: k.schedule }, String(userId), claimedUntil, next);
    },
    async forget(userId, fields) {
      if (fields.length > 0) await redis.hdel(k.user(userId), ...fields);
    },
    async setOff(userId, which, off, now) {
      const fields = offFields(which);
      if (off) {
        await redis.hset(k.user(userId), ...fields.flatMap((f) => [f, "1"]));
        return;
      }
      if (which === "all") await allOnScript.run(redis, { hash: k.user(userId) });
      else await redis.hdel(k.user(userId), ...fields);
      await redis.zadd(k.schedule, "LT", now, String(userId));
    },
  };
}
