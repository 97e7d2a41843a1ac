import type { RedisClient } from "../redis/connection.ts";
import { luaScript } from "../redis/scripts.ts";

/** The per-user flood limit: this many updates in this window, then one notice. */
export const FLOOD_WINDOW_MS = 10_000;
export const FLOOD_LIMIT = 30;
// ARGV: window ms, the count from which a counter is checked for a missing expiry.
const floodIncr = luaScript<"counter", number>(
  "raFloodIncr",
  ["counter"],
  `
local n = redis.call('INCR', KEYS[1])
if n == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
elseif n >= tonumber(ARGV[2]) and redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
`,
);

/**
 * The flood limiter's counter. The plugin's own Redis store sends INCR and then, on the first hit,
 * PEXPIRE: a process killed between the two (or a Redis hiccup) leaves a counter that never
 * expires, and that user is silently ignored for good. One script does both. A counter found
 * without an expiry (left by an older version) is repaired once it counts half the limit, well
 * before it could mute anyone; below that the check would be one more command on every update.
 */
export function floodCounter(redis: RedisClient, windowMs: number) {
  const checkFrom = String(Math.max(2, Math.floor(FLOOD_LIMIT / 2)));
  return {
    incr: async (key: string) =>
      Number(await floodIncr.run(redis, { counter: key }, String(windowMs), checkFrom)),
    pexpire: async () => 1,
  };
}
