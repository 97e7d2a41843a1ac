import { randomUUID } from "node:crypto";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { deleteIfHeld, luaScript } from "../redis/scripts.ts";

/**
 * A named, time-bounded lease so that of several processes only one does a periodic job per tick.
 * Not a correctness lock (everything the reconciler does is idempotent): it avoids double work.
 */
export interface Lease {
  /** True when this holder got (or already holds and renewed) the lease for `ttlMs`. */
  acquire(name: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up early, only if this holder still has it. */
  release(name: string): Promise<void>;
}

export function createMemoryLease(now: () => number = Date.now): Lease {
  const holders = new Map<string, { owner: string; until: number }>();
  const owner = randomUUID();
  return {
    async acquire(name, ttlMs) {
      const h = holders.get(name);
      if (h && h.until > now() && h.owner !== owner) return false;
      holders.set(name, { owner, until: now() + ttlMs });
      return true;
    },
    async release(name) {
      if (holders.get(name)?.owner === owner) holders.delete(name);
    },
  };
}

/** Renew only if we are the holder; otherwise take it only if free (SET NX PX). */
const ACQUIRE = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if cur then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;
const acquireLease = luaScript<"lease", number>("raLeaseAcquire", ["lease"], ACQUIRE);

/** Redis lease: value = this holder's random id, expiry = ttl; released only by its holder. */
export function createRedisLease(redis: RedisClient, prefix: string, owner = randomUUID()): Lease {
  const k = keyspace(prefix);
  return {
    async acquire(name, ttlMs) {
      const got = await acquireLease.run(
        redis,
        { lease: k.lease(name) },
        owner,
        String(Math.max(1, ttlMs)),
      );
      return got === 1;
    },
    async release(name) {
      await deleteIfHeld.run(redis, { key: k.lease(name) }, owner);
    },
  };
}
