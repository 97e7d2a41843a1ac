import type { Context, MiddlewareFn, StorageAdapter } from "grammy";
import type { Redis } from "ioredis";

/**
 * Sends the Redis reads every update needs in one round trip instead of one after another.
 *
 * Without it an update waited for Redis four times before any handler ran: the update claim, the
 * session, the flood counter and the conversation state (the bot-turn benchmark's profile: the
 * process idle ~40% of the time, waiting on those round trips). This middleware, placed after
 * sequentialize and before the update claim, issues in the same event-loop tick, so ioredis'
 * auto-pipelining sends them as one write:
 *  - GET of the session and of the conversation state (served later to the storage adapters);
 *  - EXPIRE of the session, so a session written only when it changed still lives for its TTL
 *    after the chat's last update;
 *  - the flood counter's increment (served later to the rate limiter);
 * and the update claim goes out in that same write, because the claim middleware runs next, in
 * the same tick.
 *
 * A prefetched value is used once, only by the update that fetched it (sequentialize keeps one
 * update per chat at a time in this process), and forgotten when the update ends or when its claim
 * has to wait for another process (what that process writes must then be read fresh).
 */

export interface PrefetchKeys<C extends Context> {
  session(ctx: C): string | undefined;
  conversation(ctx: C): string | undefined;
  flood(ctx: C): string | undefined;
}

export interface PrefetchSettings<C extends Context> {
  keys: PrefetchKeys<C>;
  sessionTtlSeconds: number;
  /** The flood counter's script and window (the counter expires one window after its first hit). */
  flood: { lua: string; windowMs: number };
}

export interface PrefetchStats {
  /** Storage reads served from the update's batch. */
  hits: number;
  /** Storage reads that went to Redis on their own (no batch for that key). */
  misses: number;
  /** Session writes left out because nothing changed (the batch's EXPIRE kept the TTL). */
  unchangedWrites: number;
}

export interface UpdatePrefetch<C extends Context> {
  middleware: MiddlewareFn<C>;
  /** Drops what this update prefetched (its claim had to wait: read again, fresh). */
  forget(ctx: C): void;
  /**
   * A JSON storage adapter over `inner` (which keeps the writes and deletes): a read of a key this
   * update prefetched is answered from the batch. With `skipUnchangedWrites`, writing back exactly
   * what was read is left out.
   */
  storage<T>(inner: StorageAdapter<T>, opts?: { skipUnchangedWrites?: boolean }): StorageAdapter<T>;
  /** The rate limiter's Redis store: one increment per update, from the batch when there is one. */
  floodCounter: { incr(key: string): Promise<number>; pexpire(): Promise<number> };
  stats: PrefetchStats;
}

type FloodIncr = (key: string, windowMs: string) => Promise<number>;

/** Keeps a promise's rejection for whoever awaits it, without an unhandled-rejection warning. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

export function redisUpdatePrefetch<C extends Context>(
  redis: Redis,
  s: PrefetchSettings<C>,
): UpdatePrefetch<C> {
  // A defined command is sent as EVALSHA: the script's text crosses the wire once, not per update.
  const r = redis as Redis & { raFloodIncr?: FloodIncr };
  if (!r.raFloodIncr) redis.defineCommand("raFloodIncr", { numberOfKeys: 1, lua: s.flood.lua });
  const floodIncr = (key: string) =>
    (r.raFloodIncr as FloodIncr).call(redis, key, String(s.flood.windowMs)).then(Number);

  const reads = new Map<string, Promise<string | null>>();
  /** What was read for a key this update, to tell an unchanged write. */
  const readText = new Map<string, string>();
  const floods = new Map<string, Promise<number>[]>();
  const byUpdate = new WeakMap<C, { keys: string[]; flood?: [string, Promise<number>] }>();
  const stats: PrefetchStats = { hits: 0, misses: 0, unchangedWrites: 0 };

  const dropFlood = (key: string, p: Promise<number>) => {
    const list = floods.get(key);
    const i = list ? list.indexOf(p) : -1;
    if (!list || i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) floods.delete(key);
  };

  const forget = (ctx: C) => {
    const mine = byUpdate.get(ctx);
    if (!mine) return;
    byUpdate.delete(ctx);
    for (const key of mine.keys) {
      reads.delete(key);
      readText.delete(key);
    }
    if (mine.flood) dropFlood(...mine.flood);
  };

  const middleware: MiddlewareFn<C> = async (ctx, next) => {
    const session = s.keys.session(ctx);
    const conversation = s.keys.conversation(ctx);
    const keys = [session, conversation].filter(
      (k): k is string => k !== undefined && !reads.has(k),
    );
    const mine: { keys: string[]; flood?: [string, Promise<number>] } = { keys };
    if (keys.length > 0) {
      const values = quiet(redis.mget(...keys));
      keys.forEach((key, i) => {
        reads.set(key, quiet(values.then((v) => v[i] ?? null)));
      });
      if (session !== undefined && keys.includes(session)) {
        redis.expire(session, s.sessionTtlSeconds).catch(() => undefined);
      }
    }
    const floodKey = s.keys.flood(ctx);
    if (floodKey !== undefined) {
      const p = quiet(floodIncr(floodKey));
      floods.set(floodKey, [...(floods.get(floodKey) ?? []), p]);
      mine.flood = [floodKey, p];
    }
    byUpdate.set(ctx, mine);
    try {
      await next();
    } finally {
      forget(ctx);
    }
  };

  function storage<T>(
    inner: StorageAdapter<T>,
    opts: { skipUnchangedWrites?: boolean } = {},
  ): StorageAdapter<T> {
    return {
      async read(key) {
        const batched = reads.get(key);
        if (batched === undefined) {
          stats.misses++;
          return inner.read(key);
        }
        reads.delete(key);
        stats.hits++;
        const text = await batched;
        if (text === null) return undefined;
        if (opts.skipUnchangedWrites) readText.set(key, text);
        return JSON.parse(text) as T;
      },
      async write(key, value) {
        const before = readText.get(key);
        readText.delete(key);
        if (before !== undefined && JSON.stringify(value) === before) {
          stats.unchangedWrites++;
          return;
        }
        await inner.write(key, value);
      },
      async delete(key) {
        reads.delete(key);
        readText.delete(key);
        await inner.delete(key);
      },
    };
  }

  return {
    middleware,
    forget,
    storage,
    floodCounter: {
      async incr(key) {
        const batched = floods.get(key)?.shift();
        if (floods.get(key)?.length === 0) floods.delete(key);
        return batched ?? floodIncr(key);
      },
      pexpire: async () => 1,
    },
    stats,
  };
}
