import { randomUUID } from "node:crypto";
import type { Logger } from "../logger.ts";
import { type Notification, notificationSchema, orderSchema } from "../orders/model.ts";
import { duplicateClient, type RedisClient } from "../redis/connection.ts";
import { keyspace, NOTIFIER_GROUP } from "../redis/keyspace.ts";
import { ensureReplicated } from "../redis/replication.ts";
import { deleteIfHeld, luaScript } from "../redis/scripts.ts";
import {
  DEAD_CAP,
  type Delivery,
  type NotificationQueue,
  type QueueConsumer,
  SENT_MARKER_TTL_MS,
  type SendLock,
} from "./queue.ts";

/**
 * Redis Streams adapter of the notification queue. The stream is the order store's outbox; the
 * notifier reads it through one consumer group. An entry stays in the group's pending list until
 * acknowledged, so a consumer that dies mid-send leaves it for another to XAUTOCLAIM. Acknowledged
 * entries are deleted (XDEL; the pending entry goes at the next XAUTOCLAIM) so the stream holds
 * only work still to do.
 */

export interface RedisNotificationQueueOptions {
  redis: RedisClient;
  prefix: string;
  logger?: Logger;
}

type StreamEntry = [id: string, fields: string[]];

const ACTIVE_CACHE_MS = 60_000;
const ACTIVE_CACHE_SIZE = 10_000;

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

/** The order an entry carries (field "o"), with the entry's time; none if absent or unreadable. */
function writtenOrder(id: string, fields: string[]): Delivery["written"] {
  const at = fields.indexOf("o");
  const raw = at >= 0 ? fields[at + 1] : undefined;
  if (raw === undefined) return undefined;
  try {
    return { order: orderSchema.parse(JSON.parse(raw)), at: Number(id.split("-")[0]) };
  } catch {
    return undefined;
  }
}

function isNoGroup(err: unknown): boolean {
  return err instanceof Error && /NOGROUP/.test(err.message);
}

export function createRedisNotificationQueue(
  opts: RedisNotificationQueueOptions,
): NotificationQueue {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  const token = `${LOCK_MARK}${randomUUID()}`;
  /** The lock value this process holds per key (its time makes it unique). */
  const held = new Map<string, string>();
  const log = opts.logger;
  // Chats found active, for a minute: an order's receipt edits and push ask once. Only "active" is
  // remembered: a chat marked inactive elsewhere meanwhile answers the next send with 403 and is
  // marked again, while a reactivated one (/start) is never held back by this process's memory.
  const active = new Map<number, number>();

  /** The group starts at "0" so entries written before the first notifier ever ran are delivered. */
  async function ensureGroup(): Promise<void> {
    try {
      await redis.xgroup("CREATE", k.outbox, NOTIFIER_GROUP, "0", "MKSTREAM");
    } catch (err) {
      if (!(err instanceof Error && /BUSYGROUP/.test(err.message))) throw err;
    }
  }
  let groupReady: Promise<void> | undefined;
  const ready = () => {
    groupReady ??= ensureGroup().catch((err) => {
      groupReady = undefined;
      throw err;
    });
    return groupReady;
  };

  /** Entries whose body cannot be read are dead-lettered raw and acknowledged, never retried. */
  async function decode(entries: StreamEntry[]): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const entry of entries) {
      if (!Array.isArray(entry)) continue;
      const [id, fields] = entry;
      const at = fields?.indexOf("n") ?? -1;
      const raw = at >= 0 ? fields[at + 1] : undefined;
      let notification: Notification | undefined;
      try {
        notification = notificationSchema.parse(JSON.parse(raw ?? ""));
      } catch {
        notification = undefined;
      }
      if (notification) {
        const written = writtenOrder(id, fields);
        out.push(written ? { id, notification, written } : { id, notification });
      } else {
        log?.error({ id }, "unreadable notification entry dead-lettered");
        await redis
          .multi()
          .lpush(
            k.dead,
            JSON.stringify({
              raw: String(raw).slice(0, 2000),
              reason: "unreadable",
              at: Date.now(),
            }),
          )
          .ltrim(k.dead, 0, DEAD_CAP - 1)
          .xack(k.outbox, NOTIFIER_GROUP, id)
          .xdel(k.outbox, id)
          .exec();
      }
    }
    return out;
  }

  const consumer = (name: string): QueueConsumer => {
    // Blocking reads get their own connection: a BLOCK on the shared one would stall every caller.
    let blocking: RedisClient | undefined;
    let closed = false;
    const conn = () => {
      if (!blocking) {
        blocking = duplicateClient(redis);
        // Without a listener an emitted 'error' (Redis restarting) would crash the process; ioredis
        // reconnects by itself and the read that failed is retried by the notifier's loop.
        blocking.on("error", (err: Error) =>
          log?.warn({ err: err.message }, "notifier's blocking Redis connection"),
        );
      }
      return blocking;
    };
    const readOnce = async (count: number, blockMs: number) => {
      const args: Array<string | number> = ["GROUP", NOTIFIER_GROUP, name, "COUNT", count];
      if (blockMs > 0) args.push("BLOCK", blockMs);
      args.push("STREAMS", k.outbox, ">");
      const c = blockMs > 0 ? conn() : redis;
      // biome-ignore lint/suspicious/noExplicitAny: ioredis types XREADGROUP's variadic form loosely
      const reply = (await (c as any).xreadgroup(...args)) as Array<[string, StreamEntry[]]> | null;
      return reply?.[0]?.[1] ?? [];
    };
    return {
      name,
      async read(count, blockMs) {
        if (closed) return [];
        await ready();
        let entries: StreamEntry[];
        try {
          entries = await readOnce(count, blockMs);
        } catch (err) {
          if (closed) return [];
          if (!isNoGroup(err)) throw err;
          // The stream or group vanished (Redis lost its data): recreate and read again.
          groupReady = undefined;
          await ready();
          entries = await readOnce(count, 0);
        }
        return closed ? [] : decode(entries);
      },
      async claimStale(minIdleMs, count) {
        if (closed) return [];
        await ready();
        let reply: unknown[];
        try {
          reply = (await redis.xautoclaim(
            k.outbox,
            NOTIFIER_GROUP,
            name,
            Math.max(0, Math.floor(minIdleMs)),
            "0-0",
            "COUNT",
            count,
          )) as unknown[];
        } catch (err) {
          if (!isNoGroup(err)) throw err;
          groupReady = undefined;
          return [];
        }
        const taken = await decode(((reply?.[1] as StreamEntry[]) ?? []).filter(Boolean));
        return taken.map((d) => ({ ...d, reclaimed: true as const }));
      },
      async ack(id, counted = true) {
        // One XDEL, no XACK: the group's pending entry left behind points at nothing, and the
        // next XAUTOCLAIM (claimStale, about once a second) drops it from the pending list
        // whatever its idle time (Redis 7 checks that an entry exists before its idle time), so
        // nothing is delivered twice or kept. One command per delivery instead of two.
        if (!counted) {
          await redis.xdel(k.outbox, id);
          return;
        }
        const replies =
          (await redis.pipeline().xdel(k.outbox, id).hdel(k.attempts, id).exec()) ?? [];
        const failed = replies.find(([err]) => err);
        if (failed?.[0]) throw failed[0];
      },
      async keep(ids) {
        if (ids.length === 0) return;
        // JUSTID: the idle time is reset without counting a delivery.
        // (`call`: the typed xclaim's overloads do not resolve on the Redis | Cluster union.)
        await redis.call("XCLAIM", k.outbox, NOTIFIER_GROUP, name, "0", ...ids, "JUSTID");
      },
      async noteAttempt(id) {
        return redis.hincrby(k.attempts, id, 1);
      },
      async close() {
        closed = true;
        blocking?.disconnect();
        blocking = undefined;
      },
    };
  };

  return {
    async enqueue(notifications) {
      if (notifications.length === 0) return;
      const m = redis.multi();
      for (const n of notifications)
        m.xadd(k.outbox, "*", "n", JSON.stringify(notificationSchema.parse(n)));
      await m.exec();
    },
    consumer,
    // The sending lock and the sent marker are one key: "L:<consumer token>" while a consumer
    // sends, "1" once sent. Taking the lock (SET NX GET, Redis 7) answers in the same command
    // whether the key was sent already, so a push costs the lock and the marker: two commands.
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
      const found = await lockSendingScript.run(
        redis,
        { key: marker },
        value,
        t,
        SENT_MARKER_TTL_MS,
      );
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
    async markChatInactive(chatId) {
      active.delete(chatId);
      await redis.sadd(k.inactiveChats, String(chatId));
    },
    async isChatInactive(chatId) {
      const until = active.get(chatId);
      if (until !== undefined && until > Date.now()) return false;
      const inactive = (await redis.sismember(k.inactiveChats, String(chatId))) === 1;
      active.delete(chatId);
      if (!inactive) {
        active.set(chatId, Date.now() + ACTIVE_CACHE_MS);
        if (active.size > ACTIVE_CACHE_SIZE) active.delete(active.keys().next().value as number);
      }
      return inactive;
    },
    async reactivateChat(chatId) {
      await redis.srem(k.inactiveChats, String(chatId));
    },
    async deadLetter(delivery, reason) {
      await redis
        .multi()
        .lpush(
          k.dead,
          JSON.stringify({ notification: delivery.notification, reason, at: Date.now() }),
        )
        .ltrim(k.dead, 0, DEAD_CAP - 1)
        .exec();
    },
    async listDead(limit) {
      const items = await redis.lrange(k.dead, 0, Math.max(0, limit - 1));
      const out: Array<{ notification: Notification; reason: string; at: number }> = [];
      for (const item of items) {
        try {
          const d = JSON.parse(item) as { notification?: unknown; reason?: unknown; at?: unknown };
          const n = notificationSchema.safeParse(d.notification);
          if (n.success)
            out.push({ notification: n.data, reason: String(d.reason), at: Number(d.at) });
        } catch {
          // unreadable entries are skipped
        }
      }
      return out;
    },
    async backlog() {
      return redis.xlen(k.outbox);
    },
  };
}
