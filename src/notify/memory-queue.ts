import type { MemoryOutbox } from "../orders/memory-store.ts";
import type { Notification } from "../orders/model.ts";
import {
  DEAD_CAP,
  type Delivery,
  type NotificationQueue,
  type QueueConsumer,
  SENT_MARKER_TTL_MS,
} from "./queue.ts";

/**
 * Memory adapter of the notification queue, with the same semantics as the Redis Streams one:
 * entries stay until acknowledged, an entry delivered to a consumer that never acknowledges it can
 * be claimed by another after an idle time. Also the memory order store's outbox.
 */

interface Entry {
  id: string;
  notification: Notification;
  owner: string | null;
  deliveredAt: number;
  attempts: number;
}

/**
 * One consumer of the memory queue: takes unowned entries, waits for new ones up to blockMs, and
 * claims entries another consumer left unacknowledged for minIdleMs.
 */
function memoryConsumer(
  name: string,
  entries: Map<string, Entry>,
  waiters: Set<() => void>,
  now: () => number,
): QueueConsumer {
  let closed = false;
  let wakeOnClose: (() => void) | undefined;
  const take = (count: number): Delivery[] => {
    const out: Delivery[] = [];
    for (const e of entries.values()) {
      if (out.length >= count) break;
      if (e.owner !== null) continue;
      e.owner = name;
      e.deliveredAt = now();
      out.push({ id: e.id, notification: structuredClone(e.notification) });
    }
    return out;
  };
  return {
    name,
    async read(count, blockMs) {
      if (closed) return [];
      const ready = take(count);
      if (ready.length || blockMs <= 0) return ready;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          wakeOnClose = undefined;
          resolve();
        };
        const timer = setTimeout(done, blockMs);
        waiters.add(done);
        wakeOnClose = done;
      });
      return closed ? [] : take(count);
    },
    async claimStale(minIdleMs, count) {
      if (closed) return [];
      const out: Delivery[] = [];
      const t = now();
      for (const e of entries.values()) {
        if (out.length >= count) break;
        if (e.owner === null || t - e.deliveredAt < minIdleMs) continue;
        e.owner = name;
        e.deliveredAt = t;
        out.push({ id: e.id, notification: structuredClone(e.notification), reclaimed: true });
      }
      return out;
    },
    async ack(id) {
      entries.delete(id);
    },
    async keep(ids) {
      for (const id of ids) {
        const e = entries.get(id);
        if (!e) continue;
        e.owner = name;
        e.deliveredAt = now();
      }
    },
    async noteAttempt(id) {
      const e = entries.get(id);
      if (!e) return 0;
      e.attempts += 1;
      return e.attempts;
    },
    async close() {
      closed = true;
      wakeOnClose?.();
    },
  };
}

export type MemoryNotificationQueue = NotificationQueue & MemoryOutbox;

/**
 * When each send key's marker or record is forgotten (Redis: one key per send key, PX
 * SENT_MARKER_TTL_MS from the lock or the marker that wrote it). Kept in that order, so the
 * expired ones are at the front: `expire` deletes them from `stores`, `touch` starts a key's time.
 */
function sendKeyExpiry(now: () => number, stores: ReadonlyArray<{ delete(key: string): unknown }>) {
  const expiries = new Map<string, number>();
  return {
    touch(key: string) {
      expiries.delete(key);
      expiries.set(key, now() + SENT_MARKER_TTL_MS);
    },
    expire() {
      const t = now();
      for (const [key, until] of expiries) {
        if (until > t) break;
        expiries.delete(key);
        for (const store of stores) store.delete(key);
      }
    },
  };
}

export function createMemoryNotificationQueue(
  opts: { now?: () => number } = {},
): MemoryNotificationQueue {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const sent = new Set<string>();
  /**
   * Sending locks and their records (redis-send-lock.ts has the rules): `until` 0 once its answer
   * was lost, `count` the earlier sends that may have arrived, `prior` the record it replaced.
   */
  interface Lock {
    until: number;
    count: number;
    prior?: Lock;
    /** A lost answer's record only (until 0): see SendClaim. */
    retryAt?: number;
    receiptGone?: true;
  }
  const locks = new Map<string, Lock>();
  const { touch, expire } = sendKeyExpiry(now, [sent, locks]);
  const inactive = new Set<number>();
  const dead: Array<{ notification: Notification; reason: string; at: number }> = [];
  const waiters = new Set<() => void>();
  let seq = 0;

  const append = (notifications: readonly Notification[]) => {
    for (const n of notifications) {
      const id = `${now()}-${seq++}`;
      entries.set(id, {
        id,
        notification: structuredClone(n),
        owner: null,
        deliveredAt: 0,
        attempts: 0,
      });
    }
    if (notifications.length) for (const wake of [...waiters]) wake();
  };

  const consumer = (name: string) => memoryConsumer(name, entries, waiters, now);

  return {
    append,
    async enqueue(notifications) {
      append(notifications);
    },
    consumer,
    async isSent(key) {
      expire();
      return sent.has(key);
    },
    async markSent(key) {
      expire();
      sent.add(key);
      locks.delete(key);
      touch(key);
    },
    async lockSending(key, ttlMs) {
      expire();
      if (sent.has(key)) return { lock: "sent", uncertain: 0 };
      const found = locks.get(key);
      if (found !== undefined && found.until > now()) return { lock: "held", uncertain: 0 };
      touch(key);
      if (found === undefined) {
        locks.set(key, { until: now() + ttlMs, count: 0 });
        return { lock: "locked", uncertain: 0 };
      }
      const count = found.count + 1;
      const { prior: _, ...record } = found;
      locks.set(key, { until: now() + ttlMs, count, prior: record });
      if (found.until !== 0) return { lock: "abandoned", uncertain: count };
      return {
        lock: "unanswered",
        uncertain: count,
        ...(found.retryAt === undefined ? {} : { retryAt: found.retryAt }),
        ...(found.receiptGone ? { receiptGone: true as const } : {}),
      };
    },
    async unansweredRecord(key) {
      expire();
      const found = sent.has(key) ? undefined : locks.get(key);
      if (found?.until !== 0) return undefined;
      return {
        uncertain: found.count + 1,
        ...(found.retryAt === undefined ? {} : { retryAt: found.retryAt }),
        ...(found.receiptGone ? { receiptGone: true as const } : {}),
      };
    },
    async unlockSending(key, opts) {
      const prior = locks.get(key)?.prior;
      if (prior) {
        // The resend its retry time asked for was made: no longer owed.
        const { retryAt: _, ...rest } = prior;
        locks.set(key, opts?.resent ? rest : prior);
      } else locks.delete(key);
    },
    async markUncertain(key, next = {}) {
      const lock = locks.get(key);
      if (!lock) return;
      locks.set(key, {
        until: 0,
        count: lock.count,
        ...(next.retryAt === undefined ? {} : { retryAt: next.retryAt }),
        ...(next.receiptGone ? { receiptGone: true as const } : {}),
      });
    },
    async markReceiptGone(key) {
      const lock = locks.get(key);
      if (lock?.until === 0) lock.receiptGone = true;
      return lock === undefined || lock.until <= now();
    },
    async giveUpSending(key) {
      if (locks.has(key)) locks.set(key, { until: 0, count: 0 });
    },
    async markChatInactive(chatId) {
      inactive.add(chatId);
    },
    async isChatInactive(chatId) {
      return inactive.has(chatId);
    },
    async reactivateChat(chatId) {
      inactive.delete(chatId);
    },
    async chatReached(chatId) {
      inactive.delete(chatId);
    },
    async deadLetter(delivery, reason) {
      dead.unshift({ notification: structuredClone(delivery.notification), reason, at: now() });
      if (dead.length > DEAD_CAP) dead.length = DEAD_CAP;
    },
    async listDead(limit) {
      return dead.slice(0, limit).map((d) => structuredClone(d));
    },
    // The process's memory is the store: nothing read from it can be lost while the process runs.
    unbroken: () => true,
    async backlog() {
      return entries.size;
    },
  };
}
