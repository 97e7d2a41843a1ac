import type { MemoryOutbox, MemoryOwed } from "../orders/memory-store.ts";
import { type Notification, notificationSchema } from "../orders/model.ts";
import { holdWritesForTurn } from "../orders/redis-batch.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import {
  type CountIn,
  countedIn,
  EARLY_MS,
  type WindowCount,
  windowJson,
} from "./hourly-window.ts";
import { createMemoryOwedMarks, createRedisOwedMarks, type OwedMarks } from "./owed-marks.ts";

/**
 * One alert per crossing: a named state, "below" or "above" a line, and the alerts written in the
 * same atomic step as the step down (one script with the outbox on Redis; one synchronous step
 * with the memory outbox). Going below again alerts only after a reading above re-armed it; a
 * crash cannot lose an alert that flipped the state, nor flip without queueing it.
 *
 * A re-arm may carry its reading's time: a reading below taken before it is then stale (the
 * low-float alert: an answer from before a refill whose alert waits for the order's write, while
 * the re-arm from after the refill does not) and changes nothing, instead of a false alarm.
 */
export interface Crossings extends OwedMarks {
  /**
   * Records a reading. `below`: queue `alerts` when the state was not already below (true when
   * it did), unless the re-arm stored was taken after `at`. Not below: re-arms, remembering
   * `at`, unless a re-arm taken after `at` is stored (kept). Without `at`: no reading is stale,
   * and the re-arm is stored whatever it replaces.
   */
  record(
    name: string,
    below: boolean,
    alerts: readonly Notification[],
    at?: number,
  ): Promise<boolean>;
  /** Sets a named mark once: true for the caller that set it, false when it was set already. */
  markOnce(name: string): Promise<boolean>;
  isMarked(name: string): Promise<boolean>;
  /** Whether the named alert stands now: crossed ("below") and not re-armed since (/books lists it). */
  raised(name: string): Promise<boolean>;
  /** Keeps a small named record (the books check's last outcome), readable by every process. */
  remember(name: string, json: string): Promise<void>;
  recall(name: string): Promise<string | null>;
  /**
   * The hourly alerts' count (hourly-alert.ts), one atomic step: an order within the hour of the
   * window kept in the note is counted there; else the note is returned as read, untouched. With
   * `c.owed`, only an order still in the note's owed set is counted (its mark taken with the
   * count); one no longer there is `already` counted.
   */
  countNote(name: string, c: CountIn): Promise<WindowCount>;
  /**
   * Compare and set, with the alerts: when the note still reads `expected` (null: no note), and
   * `owed` (a reference) is still in the note's owed set, it becomes `json`, the mark is taken and
   * `alerts` are queued, in one atomic step (true); else nothing (false).
   */
  replaceNote(
    name: string,
    expected: string | null,
    json: string,
    alerts: readonly Notification[],
    owed?: string,
  ): Promise<boolean>;
}

/**
 * `owed`: the orders owed a count, shared with the memory order store that marks them. None
 * given: a count asked to take a mark counts as if none was asked (review s30 F6: a map of its own
 * would answer "already" to every count whose mark the order store keeps elsewhere, and lose the
 * alert; counting it cannot lose one, and with no marks the repair has none to count again).
 */
export function createMemoryCrossings(outbox: MemoryOutbox, owed?: MemoryOwed): Crossings {
  /** `armedAt`: the re-arm's reading time, when it had one. */
  const state = new Map<string, { below: true } | { below: false; armedAt?: number }>();
  const marks = new Set<string>();
  const notes = new Map<string, string>();
  const owedMarks = createMemoryOwedMarks(owed);
  const takeMark = owedMarks.take;
  return {
    owedBefore: owedMarks.owedBefore,
    owedRetry: owedMarks.owedRetry,
    async remember(name, json) {
      notes.set(name, json);
    },
    async recall(name) {
      return notes.get(name) ?? null;
    },
    // Synchronous from the read to the write: no other call runs in between.
    async countNote(name, c) {
      const marks = owed?.get(name);
      if (c.owed && owed && !marks?.has(c.reference)) return { counted: true, already: true };
      const raw = notes.get(name) ?? null;
      const w = countedIn(raw, c);
      if (!w) return { counted: false, raw };
      notes.set(name, windowJson(w));
      if (c.owed) takeMark(name, c.reference);
      return { counted: true };
    },
    async replaceNote(name, expected, json, alerts, owedRef) {
      if ((notes.get(name) ?? null) !== expected) return false;
      const marks = owed?.get(name);
      if (owedRef !== undefined && owed && !marks?.has(owedRef)) return false;
      const parsed = alerts.map((n) => notificationSchema.parse(n));
      notes.set(name, json);
      if (owedRef !== undefined) takeMark(name, owedRef);
      outbox.append(parsed);
      return true;
    },
    async markOnce(name) {
      if (marks.has(name)) return false;
      marks.add(name);
      return true;
    },
    async isMarked(name) {
      return marks.has(name);
    },
    async raised(name) {
      return state.get(name)?.below === true;
    },
    async record(name, below, alerts, at) {
      const readAt = readingTime(at);
      if (!below) {
        // A re-arm from a later reading stays (as the Redis script keeps it).
        const was = state.get(name);
        const newer = was?.below === false && was.armedAt !== undefined ? was.armedAt : undefined;
        if (readAt !== undefined && newer !== undefined && readAt < newer) return false;
        state.set(
          name,
          readAt === undefined ? { below: false } : { below: false, armedAt: readAt },
        );
        return false;
      }
      const was = state.get(name);
      if (was?.below) return false;
      if (was?.armedAt !== undefined && readAt !== undefined && readAt < was.armedAt) return false;
      state.set(name, { below: true });
      outbox.append(alerts.map((n) => notificationSchema.parse(n)));
      return true;
    },
  };
}

/**
 * A reading's time as stored with a re-arm: whole milliseconds, or none (then never stale, as
 * before times were stored).
 */
function readingTime(at: number | undefined): number | undefined {
  return at !== undefined && Number.isFinite(at) && at >= 0 ? Math.floor(at) : undefined;
}

/**
 * The state's values: "below"; "above:<ms>" (the re-arm's reading time) or "above" (a re-arm
 * without a time, or written before times were: those stay valid). "below" carries no time: the
 * previous version's script reads anything but "below" as above and would alert again.
 */
const ABOVE = "above";

// A reading below. KEYS: the crossing's state, the outbox stream. ARGV: the reading's time in ms
// ('' for none), alerts (JSON)... A re-arm taken after the reading makes it stale: no change.
const RECORD_BELOW = `
local state = redis.call('GET', KEYS[1])
if state == 'below' then return 0 end
if state and ARGV[1] ~= '' then
  local armedAt = string.match(state, '^above:(%d+)$')
  if armedAt and tonumber(ARGV[1]) < tonumber(armedAt) then return 0 end
end
redis.call('SET', KEYS[1], 'below')
for i = 2, #ARGV do redis.call('XADD', KEYS[2], '*', 'n', ARGV[i]) end
return 1
`;
const recordBelowScript = luaScript<"state" | "outbox", number>(
  "raBooksCrossing",
  ["state", "outbox"],
  RECORD_BELOW,
);

// A re-arm with its reading's time. KEYS: the crossing's state. ARGV: the reading's time in ms.
// A re-arm stored with a later time is kept (review s32-books, nit): re-arms landing out of their
// readings' order would else keep the older time, and a reading below taken between the two
// would alert though the wallet was refilled after it.
const RECORD_ABOVE = `
local state = redis.call('GET', KEYS[1])
if state then
  local armedAt = string.match(state, '^above:(%d+)$')
  if armedAt and tonumber(ARGV[1]) < tonumber(armedAt) then return 0 end
end
redis.call('SET', KEYS[1], 'above:' .. ARGV[1])
return 1
`;
const recordAboveScript = luaScript<"state", number>("raBooksRearm", ["state"], RECORD_ABOVE);

// The hourly count (hourly-window.ts countedIn, the same rules). KEYS: the note, its owed set.
// ARGV: the order's time, the window's length, the references kept, the order's reference, how
// long before the window's start an order still counts (EARLY_MS), owed? ('1': counted only while
// the reference is in the owed set, and taken from it with the count). {1}: counted; {2}: not
// owed any more (counted or told already); {0, note} or {0} (no note): not in the window's hour.
// The window is written in the shape every version reads: {"since":…,"more":…,"refs":[…]} (cjson
// would write an empty list as {}).
const COUNT_NOTE = `
if ARGV[6] == '1' and not redis.call('ZSCORE', KEYS[2], ARGV[4]) then return {2} end
local raw = redis.call('GET', KEYS[1])
if not raw then return {0} end
local ok, w = pcall(cjson.decode, raw)
if not ok or type(w) ~= 'table' or type(w.since) ~= 'number' or type(w.more) ~= 'number'
  or type(w.refs) ~= 'table' then return {0, raw} end
local at = tonumber(ARGV[1])
if at < w.since - tonumber(ARGV[5]) or at - w.since >= tonumber(ARGV[2]) then return {0, raw} end
local refs = {}
for _, r in ipairs(w.refs) do
  if type(r) == 'string' then refs[#refs + 1] = cjson.encode(r) end
end
if #refs < tonumber(ARGV[3]) then refs[#refs + 1] = cjson.encode(ARGV[4]) end
redis.call('SET', KEYS[1], '{"since":' .. string.format('%.17g', w.since) .. ',"more":' ..
  string.format('%.17g', w.more + 1) .. ',"refs":[' .. table.concat(refs, ',') .. ']}')
if ARGV[6] == '1' then redis.call('ZREM', KEYS[2], ARGV[4]) end
return {1}
`;
const countNoteScript = luaScript<"note" | "owed", [number, string?]>(
  "raHourlyCount",
  ["note", "owed"],
  COUNT_NOTE,
);

// Compare and set with the alerts. KEYS: the note, the outbox stream, the note's owed set. ARGV:
// '1' and the note expected ('0' and '': no note expected), the new note, the reference whose
// owed mark the step takes ('' none: then nothing is required of the set), alerts (JSON)...
// 1: replaced and queued; 0: the note changed, or the reference is not owed any more.
const REPLACE_NOTE = `
local cur = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if cur ~= ARGV[2] then return 0 end
elseif cur then return 0 end
if ARGV[4] ~= '' and redis.call('ZREM', KEYS[3], ARGV[4]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[3])
for i = 5, #ARGV do redis.call('XADD', KEYS[2], '*', 'n', ARGV[i]) end
return 1
`;
const replaceNoteScript = luaScript<"note" | "outbox" | "owed", number>(
  "raHourlyReplace",
  ["note", "outbox", "owed"],
  REPLACE_NOTE,
);

export function createRedisCrossings(redis: RedisClient, prefix: string): Crossings {
  const k = keyspace(prefix);
  const hold = holdWritesForTurn(redis);
  const owedMarks = createRedisOwedMarks(redis, k);
  return {
    owedBefore: owedMarks.owedBefore,
    owedRetry: owedMarks.owedRetry,
    async remember(name, json) {
      await redis.set(k.crossing(`note:${name}`), json);
    },
    async recall(name) {
      return redis.get(k.crossing(`note:${name}`));
    },
    async countNote(name, c) {
      const [counted, raw] = await countNoteScript.run(
        redis,
        { note: k.crossing(`note:${name}`), owed: k.crossing(`owed:${name}`) },
        c.at,
        c.windowMs,
        c.samples,
        c.reference,
        EARLY_MS,
        c.owed ? "1" : "",
      );
      if (counted === 2) return { counted: true, already: true };
      return counted === 1 ? { counted: true } : { counted: false, raw: raw ?? null };
    },
    async replaceNote(name, expected, json, alerts, owed) {
      const r = await replaceNoteScript.run(
        redis,
        {
          note: k.crossing(`note:${name}`),
          outbox: k.outbox,
          owed: k.crossing(`owed:${name}`),
        },
        expected === null ? "0" : "1",
        expected ?? "",
        json,
        owed ?? "",
        ...alerts.map((n) => JSON.stringify(notificationSchema.parse(n))),
      );
      return r === 1;
    },
    async markOnce(name) {
      return (await redis.set(k.crossing(`mark:${name}`), "1", "NX")) === "OK";
    },
    async isMarked(name) {
      return (await redis.exists(k.crossing(`mark:${name}`))) === 1;
    },
    async raised(name) {
      return (await redis.get(k.crossing(name))) === "below";
    },
    async record(name, below, alerts, at) {
      const readAt = readingTime(at);
      // Re-arming is one command: it leaves with the turn's other writes, the execute's answer
      // written in the same turn (orders/submit.ts). Without a time, nothing to decide: a SET.
      if (!below) {
        hold();
        if (readAt === undefined) await redis.set(k.crossing(name), ABOVE);
        else await recordAboveScript.run(redis, { state: k.crossing(name) }, String(readAt));
        return false;
      }
      const r = await recordBelowScript.run(
        redis,
        { state: k.crossing(name), outbox: k.outbox },
        readAt === undefined ? "" : String(readAt),
        ...alerts.map((n) => JSON.stringify(notificationSchema.parse(n))),
      );
      return r === 1;
    },
  };
}
