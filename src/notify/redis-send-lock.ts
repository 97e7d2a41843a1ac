import { randomUUID } from "node:crypto";
import type { RedisClient } from "../redis/connection.ts";
import type { keyspace } from "../redis/keyspace.ts";
import { ensureReplicated } from "../redis/replication.ts";
import { deleteIfHeld, luaScript } from "../redis/scripts.ts";
import { type NotificationQueue, SENT_MARKER_TTL_MS, type SendLock } from "./queue.ts";

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
 * "abandoned" (its consumer died mid-send). A lock without a time (older version) is held until
 * its own expiry. ARGV: our lock value, now (ms), the record's TTL (ms).
 */
const lockSendingScript = luaScript<"key", SendLock>(
  "raNotifyLockSending",
  ["key"],
  `
local v = redis.call('GET', KEYS[1])
if v == '1' then return 'sent' end
local untilMs
if v then
  untilMs = tonumber(string.match(v, '^L:[^:]+:(%d+)$'))
  if untilMs == nil or untilMs > tonumber(ARGV[2]) then return 'held' end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
if not v then return 'locked' end
if untilMs == 0 then return 'unanswered' end
return 'abandoned'
`,
);

/** Replaces our lock by a lock that has run out (the record stays). ARGV: our value, the new one. */
const expireLockScript = luaScript<"key", number>(
  "raNotifyExpireLock",
  ["key"],
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
  return 1
end
return 0
`,
);

export type SendLocks = Pick<
  NotificationQueue,
  "isSent" | "markSent" | "lockSending" | "unlockSending" | "markUncertain"
>;

export function createRedisSendLocks(
  redis: RedisClient,
  k: ReturnType<typeof keyspace>,
): SendLocks {
  const token = `${LOCK_MARK}${randomUUID()}`;
  /** The lock value this process holds per key (its time makes it unique). */
  const held = new Map<string, string>();
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
      const value = `${token}:${t + Math.max(1, ttlMs)}`;
      const marker = k.sent(key);
      // Remembered before the call: a call that fails may still have taken the lock, and
      // unlockSending must be able to release it.
      held.set(key, value);
      // The usual case, a key nobody sent nor tried: one SET NX GET takes the lock (Redis 7)
      // instead of the script's three commands. A key found there (sent, held, or a lock past its
      // time) is decided by the script, atomically, as before.
      const prior = await redis.set(marker, value, "PX", SENT_MARKER_TTL_MS, "NX", "GET");
      const found: SendLock =
        prior === null
          ? "locked"
          : prior === "1"
            ? "sent"
            : await lockSendingScript.run(redis, { key: marker }, value, t, SENT_MARKER_TTL_MS);
      if (found === "sent" || found === "held") {
        held.delete(key);
        return found;
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
      return found;
    },
    async unlockSending(key) {
      const value = held.get(key);
      if (value === undefined) return;
      await deleteIfHeld.run(redis, { key: k.sent(key) }, value);
      held.delete(key);
    },
    async markUncertain(key) {
      const value = held.get(key);
      if (value === undefined) return;
      await expireLockScript.run(redis, { key: k.sent(key) }, value, `${token}:0`);
      held.delete(key);
    },
  };
}
