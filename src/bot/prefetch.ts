import type { Context, MiddlewareFn, StorageAdapter } from "grammy";
import { Cluster } from "ioredis";
import type { RedisClient } from "../redis/connection.ts";
import type { UpdateClaims } from "./dedupe.ts";

/**
 * Every update reads the chat's session and its conversation state, each plugin with its own GET.
 * This middleware reads both with one MGET as the update starts, and the two storage adapters
 * take their value from it instead of asking Redis again: one command per update less.
 *
 * The read is sent without waiting for it, so that it travels together with the update's claim
 * (dedupe.ts) when the middleware runs before the claim: one round trip instead of two. A value
 * read before the claim only holds when the claim was taken at once; when the claim had to wait
 * (another process held the update and may have saved its state meanwhile) the values are
 * dropped and the adapters read Redis. `gate` wraps the claims to tell. On one Redis node the
 * bot has the read made by its chat turn's take instead (`supplied`, create-bot.ts): in the take's
 * script, once the turn is taken, so it is current and costs no socket write of its own.
 *
 * A value read here is only handed to a read of the same key by the same update: the entries
 * are dropped when the update is done (whether or not a plugin asked for them), and updates of
 * one chat run one after another (sequentialize before this, and the chat's turn across instances
 * after it, which calls `stale` when it had to wait). An adapter read that finds no
 * entry (a key not prefetched, a second read, a read that failed) goes to Redis as before.
 */
export interface Prefetch {
  /** The value read for `key` by the running update (null: no such key), once; else undefined. */
  take(key: string): Promise<Buffer | null | undefined>;
  /**
   * `keysOf`'s last key is the one the read is judged by (the chat's epoch, chat-order.ts): on a
   * Cluster it is read first (`readInOrder`). `supplied`: nothing is sent here, the values are
   * handed in by `supply` (the chat's turn reads them as it is taken, one Redis node: chat-order.ts).
   */
  middleware<C extends Context>(
    keysOf: (ctx: C) => string[],
    opts?: { supplied?: boolean },
  ): MiddlewareFn<C>;
  /** The keys the running update `updateId` reads early, if any. */
  keysOf(updateId: number): readonly string[] | undefined;
  /** The values of a `supplied` read (undefined: none, the adapters read for themselves). */
  supply(updateId: number, values: Array<Buffer | null> | undefined): void;
  /** `claims`, dropping an update's early read when its claim was not taken at the first try. */
  gate(claims: UpdateClaims): UpdateClaims;
  /** Drops the update's early read: it had to wait (for its chat's turn, chat-order.ts). */
  stale(updateId: number): void;
  /**
   * The value the running update `updateId` read early for `key`, as `take` would give it, but
   * left in place (every read of the update may have it: the access flags, read by each check).
   */
  peek(updateId: number, key: string): Promise<Buffer | null | undefined>;
}

interface Batch {
  keys: string[];
  values: Promise<Array<Buffer | null> | undefined>;
  /** False once the update's claim had to wait: what was read may be stale. */
  usable: boolean;
  claims: number;
  /**
   * A supplied read not handed in yet: a read of the update before its take (a middleware before
   * the chat's turn) reads Redis itself rather than wait for a take that comes after it.
   */
  pending: boolean;
  /** Settles `values` of a supplied read (a no-op once settled). */
  supply: (values: Array<Buffer | null> | undefined) => void;
}

export function redisPrefetch(redis: RedisClient): Prefetch {
  const readAll = (keys: string[]) =>
    redis instanceof Cluster ? readInOrder(redis, keys) : redis.mgetBuffer(...keys);
  const ready = new Map<string, { batch: Batch; index: number }>();
  const byUpdate = new Map<number, Batch>();
  return {
    async take(key) {
      const entry = ready.get(key);
      if (entry === undefined) return undefined;
      ready.delete(key);
      if (!entry.batch.usable || entry.batch.pending) return undefined;
      const values = await entry.batch.values;
      return values === undefined ? undefined : (values[entry.index] ?? null);
    },
    middleware(keysOf, opts = {}) {
      return async (ctx, next) => {
        const keys = keysOf(ctx);
        if (keys.length === 0) return next();
        let resolve: Batch["supply"] = () => {};
        // A failed read is no failure of the update: the adapters then read for themselves.
        const values = opts.supplied
          ? new Promise<Array<Buffer | null> | undefined>((r) => {
              resolve = r;
            })
          : readAll(keys).catch(() => undefined);
        const supply: Batch["supply"] = (read) => {
          batch.pending = false;
          resolve(read);
        };
        const pending = opts.supplied === true;
        const batch: Batch = { keys, values, usable: true, claims: 0, pending, supply };
        const id = ctx.update.update_id;
        byUpdate.set(id, batch);
        keys.forEach((key, index) => {
          ready.set(key, { batch, index });
        });
        try {
          await next();
        } finally {
          // Never supplied (the take failed): nothing read, nobody left waiting for it.
          supply(undefined);
          for (const key of keys) ready.delete(key);
          if (byUpdate.get(id) === batch) byUpdate.delete(id);
        }
      };
    },
    async peek(updateId, key) {
      const batch = byUpdate.get(updateId);
      const index = batch ? batch.keys.indexOf(key) : -1;
      if (!batch || index < 0 || !batch.usable || batch.pending) return undefined;
      const values = await batch.values;
      // Dropped meanwhile (the turn had to wait): not current any more.
      if (values === undefined || !batch.usable) return undefined;
      return values[index] ?? null;
    },
    keysOf(updateId) {
      return byUpdate.get(updateId)?.keys;
    },
    supply(updateId, values) {
      byUpdate.get(updateId)?.supply(values);
    },
    stale(updateId) {
      const batch = byUpdate.get(updateId);
      if (batch) batch.usable = false;
    },
    gate(claims) {
      return {
        renew: (id, leaseMs) => claims.renew(id, leaseMs),
        state: (id) => claims.state(id),
        complete: (id) => claims.complete(id),
        async claim(id, leaseMs) {
          const taken = await claims.claim(id, leaseMs);
          const batch = byUpdate.get(id);
          if (batch) {
            batch.claims += 1;
            if (!taken || batch.claims > 1) batch.usable = false;
          }
          return taken;
        },
      };
    },
  };
}

/**
 * On a Cluster the keys are in different slots (no MGET across slots): one GET each, each answered
 * by its node in its own time. So the last key (the epoch) is read first and the others only once
 * it answered: a holder writes its state before its release moves the epoch, so a read that saw
 * the moved epoch sees that state too, and one that saw the old epoch is dropped by the take (the
 * epoch changed). Sent together, a session read answered before a holder's save and an epoch read
 * answered after its release passed for current together (one round trip more on a Cluster).
 */
export async function readInOrder(redis: Cluster, keys: string[]): Promise<Array<Buffer | null>> {
  const judge = keys.at(-1);
  if (judge === undefined) return [];
  const last = await redis.getBuffer(judge);
  const rest = await Promise.all(keys.slice(0, -1).map((key) => redis.getBuffer(key)));
  return [...rest, last];
}

/** `inner`, reading a prefetched value when there is one (decoded as `inner` would have). */
export function readingPrefetched<T>(
  inner: StorageAdapter<T>,
  prefetch: Prefetch,
  decode: (raw: Buffer) => T | undefined,
): StorageAdapter<T> {
  return {
    async read(key) {
      const raw = await prefetch.take(key);
      if (raw === undefined) return inner.read(key);
      return raw === null ? undefined : decode(raw);
    },
    write: (key, value) => inner.write(key, value),
    delete: (key) => inner.delete(key),
  };
}
