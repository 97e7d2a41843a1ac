import type { Context, MiddlewareFn, StorageAdapter } from "grammy";
import { Cluster } from "ioredis";
import type { RedisClient } from "../redis/connection.ts";

/**
 * Every update reads the chat's session and its conversation state, each plugin with its own GET.
 * This middleware reads both with one MGET as the update starts, and the two storage adapters
 * take their value from it instead of asking Redis again: one command per update less.
 *
 * A value read here is only handed to a read of the same key by the same update: the entries
 * are dropped when the update is done (whether or not a plugin asked for them), and updates of
 * one chat run one after another (sequentialize, before this). An adapter read that finds no
 * entry (a key not prefetched, a second read) goes to Redis as before.
 */
export interface Prefetch {
  /** The value read for `key` by the running update (null: no such key), once; else undefined. */
  take(key: string): Buffer | null | undefined;
  middleware<C extends Context>(keysOf: (ctx: C) => string[]): MiddlewareFn<C>;
}

export function redisPrefetch(redis: RedisClient): Prefetch {
  // On a Cluster the keys are in different slots (no MGET across slots): one GET each, sent
  // together.
  const readAll = (keys: string[]) =>
    redis instanceof Cluster
      ? Promise.all(keys.map((key) => redis.getBuffer(key)))
      : redis.mgetBuffer(...keys);
  const ready = new Map<string, Buffer | null>();
  return {
    take(key) {
      const value = ready.get(key);
      if (value !== undefined) ready.delete(key);
      return value;
    },
    middleware(keysOf) {
      return async (ctx, next) => {
        const keys = keysOf(ctx);
        if (keys.length === 0) return next();
        const values = await readAll(keys);
        keys.forEach((key, i) => {
          ready.set(key, values[i] ?? null);
        });
        try {
          await next();
        } finally {
          for (const key of keys) ready.delete(key);
        }
      };
    },
  };
}

/** `inner`, reading a prefetched value when there is one (decoded as `inner` would have). */
export function readingPrefetched<T>(
  inner: StorageAdapter<T>,
  prefetch: Prefetch,
  decode: (raw: Buffer) => T | undefined,
): StorageAdapter<T> {
  return {
    async read(key) {
      const raw = prefetch.take(key);
      if (raw === undefined) return inner.read(key);
      return raw === null ? undefined : decode(raw);
    },
    write: (key, value) => inner.write(key, value),
    delete: (key) => inner.delete(key),
  };
}
