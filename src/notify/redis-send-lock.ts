import { randomUUID } from "node:crypto";
import type { RedisClient } from "../redis/connection.ts";
import type { keyspace } from "../redis/keyspace.ts";
import { ensureReplicated } from "../redis/replication.ts";
import { luaScript } from "../redis/scripts.ts";
import {
  type NotificationQueue,
  SENT_MARKER_TTL_MS,
  type SendClaim,
  type SendLock,
  type UnansweredRecord,
  type UncertainNext,
} from "./queue.ts";

/**
 * The Redis queue's sending locks and sent markers (NotificationQueue's lockSending and friends).
 * The sending lock and the sent marker are one key: "L:<consumer token>:<until ms>" while a
 * consumer sends, "1" once sent. Taking the lock answers in the same command whether the key was
 * sent already (SET NX GET), so a push costs the lock and the marker: two commands.
 */

/** The sent marker's key holds this prefix while a consumer holds the sending lock. */
const LOCK_MARK = "L:";
const isSentValue = (v: string | null) => v !== null && !v.startsWith(LOCK_MARK);

/**
 * Takes the sending lock of a notification key. The lock is "L:<token>:<until ms>" and lives as
 * long as a sent marker: past its time it no longer excludes anyone, but it still says that a
 * send was tried and never confirmed: "unanswered" (time 0: markUncertain, the answer was lost) or
 * "abandoned" (its consumer died mid-send). A lock taken over such a record carries the count of
 * those sends in its token ("L:<token>/<n>:<until ms>"), so the count survives claims, instances
 * and restarts; an older version reads the token as a whole and sees the same states. A lock
 * without a time (older version) is held until its own expiry. A lost answer's record may carry
 * marks after its token's id, before the count ("L:<id>@<retry at>~/<n>:0": when the push may
 * be sent again, and that its receipt cannot carry it); an older version reads them as part of
 * the token, its count unchanged. The lock taken over it has no marks: the caller reads them in
 * the record found, and gives them to markUncertain or unlockSending. ARGV: our token, our time,
 * now (ms), the record's TTL (ms). Answers the state, our lock value, the record found, the count.
 */
const lockSendingScript = luaScript<"key", [SendLock, string?, string?, string?]>(
  "raNotifyLockSending",
  ["key"],
  `
local v = redis.call('GET', KEYS[1])
if v == '1' then return {'sent'} end
local count = 0
local untilMs
if v then
  local tok, t = string.match(v, '^L:([^:]+):(%d+)$')
  untilMs = tonumber(t)
  if untilMs == nil or untilMs > tonumber(ARGV[3]) then return {'held'} end
  count = (tonumber(string.match(tok, '/(%d+)$')) or 0) + 1
end
local mine = ARGV[1]
if count > 0 then mine = mine .. '/' .. count end
mine = mine .. ':' .. ARGV[2]
redis.call('SET', KEYS[1], mine, 'PX', ARGV[4])
if not v then return {'locked', mine, '', '0'} end
local state = 'abandoned'
if untilMs == 0 then state = 'unanswered' end
return {state, mine, v, tostring(count)}
`,
);

/**
 * Ends our lock, if it is still ours: known by our token and time, its count aside (the script
 * that took it may have added one, and a lost reply would have kept it from us). ARGV: our lock
 * without a count ("L:<token>:<until>"), how it ends, and for "back" the record it replaced ('':
 * none, or not known). "back": nothing was sent under it, the record goes back to what it was
 * (deleted, or the earlier uncertain sends with their count); "uncertain": time 0, the count
 * kept, and ARGV[4]'s marks (retry at, receipt gone) after the token; "restart": time 0, the count
 * gone.
 */
const endLockScript = luaScript<"key", number>(
  "raNotifyEndLock",
  ["key"],
  `
local v = redis.call('GET', KEYS[1])
if not v or string.gsub(v, '/%d+:', ':', 1) ~= ARGV[1] then return 0 end
local base = string.gsub(ARGV[1], ':%d+$', '')
if ARGV[2] == 'uncertain' then
  local head, rest = string.match(v, '^(L:[^/:]*)(.*)$')
  redis.call('SET', KEYS[1], head .. ARGV[4] .. (string.gsub(rest, ':%d+$', ':0')), 'KEEPTTL')
elseif ARGV[2] == 'restart' then
  redis.call('SET', KEYS[1], base .. ':0', 'KEEPTTL')
elseif ARGV[3] ~= '' then
  redis.call('SET', KEYS[1], ARGV[3], 'KEEPTTL')
else
  local n = tonumber(string.match(v, '/(%d+):'))
  if n == nil or n == 0 then
    redis.call('DEL', KEYS[1])
  elseif n == 1 then
    redis.call('SET', KEYS[1], base .. ':0', 'KEEPTTL')
  else
    redis.call('SET', KEYS[1], base .. '/' .. (n - 1) .. ':0', 'KEEPTTL')
  end
end
return 1
`,
);

/**
 * Marks a lost answer's record (time 0) "receipt gone" ("~" after its token), unless it is
 * marked already; a sent marker or a lock is left alone. Answers 0 only for a lock held now
 * (its time after ARGV[1], now in ms, or a lock without a time: an older version's, held until
 * it expires), which could not be marked; 1 otherwise.
 */
const receiptGoneScript = luaScript<"key", number>(
  "raNotifyReceiptGone",
  ["key"],
  `
local v = redis.call('GET', KEYS[1])
if not v or string.sub(v, 1, 2) ~= 'L:' then return 1 end
local head, rest = string.match(v, '^(L:[^/:]*)(.*:0)$')
if not head then
  local t = tonumber(string.match(v, '^L:[^:]+:(%d+)$'))
  if t == nil or t > tonumber(ARGV[1]) then return 0 end
  return 1
end
if string.find(head, '~', 1, true) then return 1 end
redis.call('SET', KEYS[1], head .. '~' .. rest, 'KEEPTTL')
return 1
`,
);

/** The marks of a lost answer's record (see lockSendingScript), from the record found. */
export function recordMarks(found: string): Pick<SendClaim, "retryAt" | "receiptGone"> {
  const head = /^L:[^/:]*/.exec(found)?.[0] ?? "";
  const retryAt = /@(\d+)/.exec(head)?.[1];
  return {
    ...(retryAt === undefined ? {} : { retryAt: Number(retryAt) }),
    ...(head.includes("~") ? { receiptGone: true as const } : {}),
  };
}

/**
 * A record read as is (GET): a lost answer's record (time 0) with its count and marks, as the
 * lock script would count it; anything else (none, sent, a lock in time or past it) undefined.
 */
export function unansweredOf(v: string | null): UnansweredRecord | undefined {
  const tok = v === null ? undefined : /^L:([^:]+):0$/.exec(v)?.[1];
  if (tok === undefined || v === null) return undefined;
  const n = /\/(\d+)$/.exec(tok)?.[1];
  return { uncertain: (n === undefined ? 0 : Number(n)) + 1, ...recordMarks(v) };
}

/** A record without its retry time (the resend it asked for was made). */
const withoutRetry = (record: string) => record.replace(/^(L:[^/:@]*)@\d+/, "$1");

/** The marks markUncertain writes after the token. */
const marksOf = (next: UncertainNext) =>
  `${next.retryAt === undefined ? "" : `@${Math.round(next.retryAt)}`}${next.receiptGone ? "~" : ""}`;

export type SendLocks = Pick<
  NotificationQueue,
  | "isSent"
  | "markSent"
  | "lockSending"
  | "unansweredRecord"
  | "unlockSending"
  | "markUncertain"
  | "markReceiptGone"
  | "giveUpSending"
>;

export function createRedisSendLocks(
  redis: RedisClient,
  k: ReturnType<typeof keyspace>,
): SendLocks {
  const token = `${LOCK_MARK}${randomUUID()}`;
  /**
   * The lock this process holds per key, without its count (its time makes it unique), and the
   * record it replaced, if known: what a definite failure puts back.
   */
  const held = new Map<string, { id: string; prior?: string }>();
  const end = async (
    key: string,
    how: "back" | "uncertain" | "restart",
    marks = "",
    resent = false,
  ) => {
    const mine = held.get(key);
    if (mine === undefined) return;
    const prior = mine.prior === undefined ? "" : resent ? withoutRetry(mine.prior) : mine.prior;
    await endLockScript.run(redis, { key: k.sent(key) }, mine.id, how, prior, marks);
    held.delete(key);
  };
  return {
    async isSent(key) {
      return isSentValue(await redis.get(k.sent(key)));
    },
    async markSent(key) {
      held.delete(key);
      const marker = k.sent(key);
      await redis.set(marker, "1", "PX", SENT_MARKER_TTL_MS);
      // Under Sentinel (REDIS_WAIT_REPLICAS) the marker must survive a failover: a marker lost
      // with the old primary, together with the entry's acknowledgement, sends the push again.
      // Refused (too few replicas in time): the caller writes it again.
      await ensureReplicated(redis, "sent marker", async () => (await redis.get(marker)) === "1");
    },
    async lockSending(key, ttlMs) {
      const t = Date.now();
      const id = `${token}:${t + Math.max(1, ttlMs)}`;
      const marker = k.sent(key);
      // Remembered before the call: a call that fails may still have taken the lock, and
      // unlockSending must be able to release it.
      held.set(key, { id });
      // The usual case, a key nobody sent nor tried: one SET NX GET takes the lock (Redis 7)
      // instead of the script's three commands. A key found there (sent, held, or a lock past its
      // time) is decided by the script, atomically, as before.
      const prior = await redis.set(marker, id, "PX", SENT_MARKER_TTL_MS, "NX", "GET");
      let claim: SendClaim = { lock: prior === null ? "locked" : "sent", uncertain: 0 };
      let value = id;
      if (prior !== null && prior !== "1") {
        const [lock, mine, found, count] = await lockSendingScript.run(
          redis,
          { key: marker },
          token,
          t + Math.max(1, ttlMs),
          t,
          SENT_MARKER_TTL_MS,
        );
        claim = { lock, uncertain: Number(count ?? 0) };
        if (lock === "unanswered" && found) Object.assign(claim, recordMarks(found));
        if (mine) value = mine;
        if (found) held.set(key, { id, prior: found });
      }
      if (claim.lock === "sent" || claim.lock === "held") {
        held.delete(key);
        return claim;
      }
      // Under Sentinel the send waits until the lock (the record that a send was tried) is on a
      // replica, and with it every earlier write in the replication stream: the order's final
      // status that this push announces. Otherwise a failover right after the push could roll the
      // order back, and the customer be told one outcome and then another (seen in the chaos test).
      await ensureReplicated(
        redis,
        "sending lock",
        async () => (await redis.get(marker)) === value,
      );
      return claim;
    },
    async unansweredRecord(key) {
      return unansweredOf(await redis.get(k.sent(key)));
    },
    async unlockSending(key, opts) {
      // Earlier sends that may have arrived stay on record: what this lock replaced goes back.
      await end(key, "back", "", opts?.resent === true);
    },
    async markUncertain(key, next = {}) {
      await end(key, "uncertain", marksOf(next));
    },
    async markReceiptGone(key) {
      // The locks' times are on this clock (lockSending), not the notifier's.
      return (await receiptGoneScript.run(redis, { key: k.sent(key) }, Date.now())) === 1;
    },
    async giveUpSending(key) {
      await end(key, "restart");
    },
  };
}
