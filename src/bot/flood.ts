import type { RedisClient } from "../redis/connection.ts";

/** The per-user flood limit: this many updates in this window, then one notice. */
export const FLOOD_WINDOW_MS = 10_000;
export const FLOOD_LIMIT = 30;

/**
 * The flood limiter's counter, one INCR per update. A new counter gets the window as its expiry
 * (a second command, once per window). A process killed between the two (or a Redis hiccup)
 * leaves a counter that never expires, and that user would be silently ignored for good: so a
 * counter at half the limit is checked for a missing expiry and repaired, well before it could
 * mute anyone. A script doing INCR and PEXPIRE at once cost two commands on every update (the
 * script's call and its INCR) for what the repair already covers.
 */
export function floodCounter(redis: RedisClient, windowMs: number) {
  const checkFrom = Math.max(2, Math.floor(FLOOD_LIMIT / 2));
  return {
    incr: async (key: string) => {
      const n = await redis.incr(key);
      if (n === 1 || (n >= checkFrom && (await redis.pttl(key)) < 0))
        await redis.pexpire(key, windowMs);
      return n;
    },
    pexpire: async () => 1,
  };
}
