import type { Context, MiddlewareFn } from "grammy";
import type { Redis } from "ioredis";

/**
 * Ignores an update whose update_id is being handled or was handled (a redelivery after a timeout,
 * a webhook retry), so a slow execute can never be started twice by the same update. A claim that
 * was never completed (the process died) lapses after `claimSeconds`, so the redelivery after a
 * crash is handled; the conversation's idempotency key keeps that replay from paying twice.
 */
export interface UpdateClaims {
  claim(updateId: number): Promise<boolean>;
  complete(updateId: number): Promise<void>;
}

export interface ClaimSettings {
  claimSeconds?: number;
  doneSeconds?: number;
  now?: () => number;
}

export function memoryUpdateClaims(s: ClaimSettings = {}, max = 100_000): UpdateClaims {
  const now = s.now ?? Date.now;
  const until = new Map<number, number>();
  return {
    async claim(id) {
      const t = now();
      const held = until.get(id);
      if (held !== undefined && held > t) return false;
      until.delete(id);
      until.set(id, t + (s.claimSeconds ?? 120) * 1000);
      if (until.size > max) {
        const oldest = until.keys().next().value;
        if (oldest !== undefined) until.delete(oldest);
      }
      return true;
    },
    async complete(id) {
      until.set(id, now() + (s.doneSeconds ?? 86_400) * 1000);
    },
  };
}

export function redisUpdateClaims(
  redis: Redis,
  prefix: string,
  s: ClaimSettings = {},
): UpdateClaims {
  const key = (id: number) => `${prefix}update:${id}`;
  return {
    async claim(id) {
      return (await redis.set(key(id), "1", "EX", s.claimSeconds ?? 120, "NX")) === "OK";
    },
    async complete(id) {
      await redis.set(key(id), "2", "EX", s.doneSeconds ?? 86_400);
    },
  };
}

export function dropRedelivered<C extends Context>(claims: UpdateClaims): MiddlewareFn<C> {
  return async (ctx, next) => {
    const id = ctx.update.update_id;
    if (!(await claims.claim(id))) return;
    await next();
    await claims.complete(id);
  };
}
