import type { RedisClient } from "../redis/connection.ts";

/** The per-user flood limit: this many updates in this window, then one notice. */
export const FLOOD_WINDOW_MS = 10_000;
export const FLOOD_LIMIT = 30;
/** Below this many updates in a window, a user this process knows is counted in its memory. */
export const FLOOD_LOCAL_BELOW = 10;
/** Users a process remembers (the oldest is forgotten first; a forgotten one costs one INCR). */
const KNOWN_USERS = 100_000;

interface Local {
  /** Updates in the window as this process knows them. */
  n: number;
  /** How many of them Redis has. */
  synced: number;
  /** When this process's window ends. */
  until: number;
}

/**
 * The flood limiter's counter. A user's first update in a process is counted in Redis (a new
 * counter is written with its expiry, SET NX PX; an existing one is INCRed): that is where the
 * count of the other processes is, and where a counter left without expiry is repaired. After
 * that a user this process knows is counted in memory while the window holds fewer than
 * FLOOD_LOCAL_BELOW of their updates, and in Redis again from there on (what was counted here
 * added at once), so the limit itself is always checked against Redis. No Redis command for an
 * ordinary user's update: a top-up is six of them, each an INCR before. With several processes
 * behind a load balancer, each may let a user's updates through uncounted until its own count
 * reaches FLOOD_LOCAL_BELOW: at most that many per process and window beyond the limit (a flood
 * guard, not an account).
 *
 * A process killed between an INCR that made a counter and its PEXPIRE (or a Redis hiccup) leaves
 * a counter that never expires, and that user would be silently ignored for good: so a counter at
 * half the limit is checked for a missing expiry and repaired, well before it could mute anyone.
 */
export function floodCounter(redis: RedisClient, windowMs: number, now: () => number = Date.now) {
  const checkFrom = Math.max(2, Math.floor(FLOOD_LIMIT / 2));
  const known = new Map<string, Local>();
  const add = async (key: string, by: number) => {
    const n = by === 1 ? await redis.incr(key) : await redis.incrby(key, by);
    if (n === by || (n >= checkFrom && (await redis.pttl(key)) < 0))
      await redis.pexpire(key, windowMs);
    return n;
  };
  return {
    incr: async (key: string) => {
      const t = now();
      const local = known.get(key);
      if (local === undefined) {
        // Usually there is no counter yet: created with its expiry in one command.
        const created = await redis.set(key, "1", "PX", windowMs, "NX");
        const n = created === "OK" ? 1 : await add(key, 1);
        known.set(key, { n, synced: n, until: t + windowMs });
        if (known.size > KNOWN_USERS) known.delete(known.keys().next().value as string);
        return n;
      }
      if (local.until <= t) {
        local.n = 0;
        local.synced = 0;
        local.until = t + windowMs;
      }
      local.n++;
      if (local.n < FLOOD_LOCAL_BELOW) return local.n;
      const by = local.n - local.synced;
      local.synced = local.n;
      const n = await add(key, by);
      // Other processes' updates count too from here on.
      local.n = Math.max(local.n, n);
      local.synced = Math.max(local.synced, n);
      return local.n;
    },
    pexpire: async () => 1,
  };
}
