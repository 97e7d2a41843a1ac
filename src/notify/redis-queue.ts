import type { Logger } from "../logger.ts";
import { type Notification, notificationSchema } from "../orders/model.ts";
import { connectCount, type RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { DEAD_CAP, type NotificationQueue } from "./queue.ts";
import { createRedisSendLocks } from "./redis-send-lock.ts";
import { createStreamGroup, redisConsumer } from "./redis-stream.ts";

/**
 * Redis Streams adapter of the notification queue. The stream is the order store's outbox; the
 * notifier reads it through one consumer group (redis-stream.ts). An entry stays in the group's
 * pending list until acknowledged, so a consumer that dies mid-send leaves it for another to
 * XAUTOCLAIM. Acknowledged entries are deleted (XDEL; the pending entry goes at the next
 * XAUTOCLAIM) so the stream holds only work still to do. The sending locks and sent markers are in
 * redis-send-lock.ts.
 */

export interface RedisNotificationQueueOptions {
  redis: RedisClient;
  prefix: string;
  logger?: Logger;
}

const ACTIVE_CACHE_MS = 60_000;
const ACTIVE_CACHE_SIZE = 10_000;

const first = <T>(c: { keys(): IterableIterator<T> }): T => c.keys().next().value as T;

export function createRedisNotificationQueue(
  opts: RedisNotificationQueueOptions,
): NotificationQueue {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  const stream = { redis, k, log: opts.logger };
  const group = createStreamGroup(stream);
  // Chats found active, for a minute: an order's receipt edits and push ask once. Only "active" is
  // remembered: a chat marked inactive elsewhere meanwhile answers the next send with 403 and is
  // marked again, while a reactivated one (it wrote again) is never held back by this process's memory.
  const active = new Map<number, number>();
  // Chats this process marked inactive: a push to one accepted later clears the mark (chatReached).
  const markedHere = new Set<number>();

  return {
    async enqueue(notifications) {
      if (notifications.length === 0) return;
      const m = redis.multi();
      for (const n of notifications)
        m.xadd(k.outbox, "*", "n", JSON.stringify(notificationSchema.parse(n)));
      await m.exec();
    },
    consumer: (name) => redisConsumer(name, group, stream),
    ...createRedisSendLocks(redis, k),
    async markChatInactive(chatId) {
      active.delete(chatId);
      markedHere.add(chatId);
      if (markedHere.size > ACTIVE_CACHE_SIZE) markedHere.delete(first(markedHere));
      await redis.set(k.inactiveChat(chatId), "1");
    },
    async isChatInactive(chatId) {
      const until = active.get(chatId);
      if (until !== undefined && until > Date.now()) return false;
      const inactive = (await redis.exists(k.inactiveChat(chatId))) === 1;
      active.delete(chatId);
      if (!inactive) {
        active.set(chatId, Date.now() + ACTIVE_CACHE_MS);
        if (active.size > ACTIVE_CACHE_SIZE) active.delete(first(active));
      }
      return inactive;
    },
    async reactivateChat(chatId) {
      markedHere.delete(chatId);
      await redis.del(k.inactiveChat(chatId));
    },
    async chatReached(chatId) {
      // Only a mark this process wrote is known without a read: the push accepted proves it
      // wrong (a push sent past the check, the chat having just ordered: deliver.ts).
      if (markedHere.delete(chatId)) await redis.del(k.inactiveChat(chatId));
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
    unbroken: (d) => d.connects !== undefined && connectCount(redis) === d.connects,
    async backlog() {
      return redis.xlen(k.outbox);
    },
  };
}
