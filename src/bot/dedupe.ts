import { randomUUID } from "node:crypto";
import type { Context, MiddlewareFn } from "grammy";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { extendIfHeld } from "../redis/scripts.ts";

/**
 * Handles each update_id once across processes and restarts. The handler holds a short lease on
 * the update id and renews it while it works; when done, the id is marked done for a day. An update
 * that arrives again (a webhook retry, or the unconfirmed update a restarted process fetches):
 *  - done: ignored;
 *  - leased: either someone alive is on it (and keeps renewing) or a process died with it (the
 *    lease runs out within `leaseMs`). We wait: done means ignore; a lapsed lease is taken over and
 *    the update handled.
 * So a slow execute is never started twice by the same update, and the update a crashed process
 * was handling is handled by the next one instead of being dropped (which left the conversation
 * one answer behind what the chat shows, waiting for an answer the user had already given). Money
 * never depends on this: the conversation's idempotency key does.
 *
 * With Redis, an update with a chat is kept once in its chat's turn instead (chat-order.ts): the
 * turn already excludes a second handler, so only the done mark below is written (and read with
 * the update's early read); the lease is for updates without a chat and for the in-memory bot.
 *
 * Why two commands (lease, then done mark) and not one claim that stays: a claim left by a process
 * that died must be told "done" (drop the redelivery) from "died half-way" (run it), and only a
 * write after the update says which. A liveness heartbeat per process cannot: an update finished
 * just before its process died (its webhook 200 lost with it) would run again (README,
 * Performance, "Redis commands").
 */
export interface UpdateClaims {
  /** Takes the lease unless someone holds it or the update is done. */
  claim(updateId: number, leaseMs: number): Promise<boolean>;
  /** Extends our own lease (nobody else's). */
  renew(updateId: number, leaseMs: number): Promise<void>;
  state(updateId: number): Promise<"done" | "leased" | "free">;
  complete(updateId: number): Promise<void>;
}

export interface ClaimSettings {
  /** How long a done mark is kept. Default one day. */
  doneSeconds?: number;
  now?: () => number;
}

export interface LeaseSettings {
  /** Lease on an update being handled; renewed every third of it. Default 5 s. */
  leaseMs?: number;
  /** How long a redelivery waits for a lease held by someone else before it is ignored. Default 12 s. */
  maxWaitMs?: number;
  pollMs?: number;
  /**
   * A failure that a redelivery cannot fix (e.g. Telegram refused a request with a 4xx): the update
   * is marked done anyway, so a redelivery does not run the failing handler again.
   */
  settles?: (err: unknown) => boolean;
}

export function memoryUpdateClaims(s: ClaimSettings = {}, max = 100_000): UpdateClaims {
  const now = s.now ?? Date.now;
  const owner = randomUUID();
  const entries = new Map<number, { done: boolean; owner: string; until: number }>();
  const live = (id: number) => {
    const e = entries.get(id);
    if (e && e.until <= now()) entries.delete(id);
    return entries.get(id);
  };
  return {
    async claim(id, leaseMs) {
      if (live(id)) return false;
      entries.set(id, { done: false, owner, until: now() + leaseMs });
      if (entries.size > max) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return true;
    },
    async renew(id, leaseMs) {
      const e = live(id);
      if (e && !e.done && e.owner === owner) e.until = now() + leaseMs;
    },
    async state(id) {
      const e = live(id);
      return e ? (e.done ? "done" : "leased") : "free";
    },
    async complete(id) {
      entries.set(id, { done: true, owner, until: now() + (s.doneSeconds ?? DONE_SECONDS) * 1000 });
    },
  };
}

/** The value of a done update's key (a lease's is "1:<owner>"). */
export const DONE = "2";

/** How long a done mark is kept (a redelivery comes within minutes; a day is the margin). */
export const DONE_SECONDS = 86_400;

export function redisUpdateClaims(
  redis: RedisClient,
  prefix: string,
  s: ClaimSettings = {},
): UpdateClaims {
  const key = keyspace(prefix).update;
  // "1:<owner>" while leased, "2" when done.
  const lease = `1:${randomUUID()}`;
  return {
    async claim(id, leaseMs) {
      return (await redis.set(key(id), lease, "PX", Math.max(1, leaseMs), "NX")) === "OK";
    },
    async renew(id, leaseMs) {
      await extendIfHeld.run(redis, { key: key(id) }, lease, String(Math.max(1, leaseMs)));
    },
    async state(id) {
      const v = await redis.get(key(id));
      return v === null ? "free" : v === DONE ? "done" : "leased";
    },
    async complete(id) {
      await redis.set(key(id), DONE, "EX", s.doneSeconds ?? DONE_SECONDS);
    },
  };
}

export function dropRedelivered<C extends Context>(
  claims: UpdateClaims,
  s: LeaseSettings = {},
): MiddlewareFn<C> {
  const leaseMs = s.leaseMs ?? 5_000;
  const maxWaitMs = s.maxWaitMs ?? 12_000;
  const pollMs = s.pollMs ?? 250;
  return async (ctx, next) => {
    const id = ctx.update.update_id;
    const giveUpAt = Date.now() + maxWaitMs;
    while (!(await claims.claim(id, leaseMs))) {
      if ((await claims.state(id)) === "done" || Date.now() > giveUpAt) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    const renewal = setInterval(
      () => void claims.renew(id, leaseMs).catch(() => undefined),
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    try {
      await next();
    } catch (err) {
      if (s.settles?.(err)) await claims.complete(id).catch(() => undefined);
      throw err;
    } finally {
      clearInterval(renewal);
    }
    await claims.complete(id);
  };
}
