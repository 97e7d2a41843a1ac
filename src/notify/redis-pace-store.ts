import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { buckets, type PaceStore } from "./pace-store.ts";

/**
 * The pacer's buckets in Redis (pacer.ts, pace-store.ts): one budget and one hold for every
 * process of the bot, each slot checked and taken by one Lua script.
 */

// KEYS: the buckets (a sorted set: member "g" the bot's, member <chat id> each chat's, scored by
// its theoretical arrival time). ARGV: now, global interval, global tolerance, chat interval,
// chat tolerance, chat id, sweep ('1': drop the buckets that ran empty). Member "h": a hold's end
// (`hold`: ZADD GT), refused until then with that time as a fourth answer. One read and one write
// for both buckets (two string keys cost 4 commands, as Redis counts a script's own: MGET and two
// SETs); a sorted set has no expiry per member, so each process sweeps the empty ones once a
// minute. Times are float milliseconds, written with string.format so they keep their fraction
// (Lua's default number format would round them to 14 digits). A grant returns the buckets' new
// timestamps.
const TAKE = `
local now = tonumber(ARGV[1])
local gi, gt, ci, ct = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local tats = redis.call('ZMSCORE', KEYS[1], 'g', ARGV[6], 'h')
local g = math.max(tonumber(tats[1] or '0') or 0, now)
local c = math.max(tonumber(tats[2] or '0') or 0, now)
local gw = math.max(0, g - now - gt)
local cw = math.max(0, c - now - ct)
local h = tonumber(tats[3] or '0') or 0
if h > now then
  return {0, string.format('%.3f', gw), string.format('%.3f', cw), string.format('%.3f', h)}
end
if gw > 0 or cw > 0 then return {0, string.format('%.3f', gw), string.format('%.3f', cw)} end
if ARGV[7] == '1' then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1]) end
local ng, nc = string.format('%.3f', g + gi), string.format('%.3f', c + ci)
redis.call('ZADD', KEYS[1], ng, 'g', nc, ARGV[6])
return {1, ng, nc}
`;

const paceTake = luaScript<"buckets", [number, string, string, string?]>(
  "raPaceTake",
  ["buckets"],
  TAKE,
);

/** How often a process drops the buckets that ran empty. */
const SWEEP_EVERY_MS = 60_000;

/** Buckets in Redis, shared by every process using the same prefix (REDIS_PREFIX). */
export function redisPaceStore(redis: RedisClient, prefix: string): PaceStore {
  const k = keyspace(prefix);
  // On the callers' clock (a benchmark's may run faster than real time).
  let lastSweep: number | undefined;
  return {
    async hold(until, limits) {
      // ZADD GT: each member only moves forward; the global one to where a push's slot is free
      // at `until` (the sends after it then come at the steady rate, no burst into Telegram).
      const g = until + buckets(limits).global.tolerance;
      await redis.zadd(k.paceBuckets, "GT", until.toFixed(3), "h", g.toFixed(3), "g");
    },
    async take(chatId, now, limits, kind) {
      const b = buckets(limits, kind);
      lastSweep ??= now;
      const sweep = now - lastSweep >= SWEEP_EVERY_MS;
      const [ok, gw, cw, held] = await paceTake.run(
        redis,
        { buckets: k.paceBuckets },
        now.toFixed(3),
        String(b.global.interval),
        String(b.global.tolerance),
        String(b.chat.interval),
        String(b.chat.tolerance),
        String(chatId),
        sweep ? "1" : "0",
      );
      if (ok !== 1) {
        const r = { ok: false as const, globalWaitMs: Number(gw), chatWaitMs: Number(cw) };
        return held === undefined ? r : { ...r, heldUntil: Number(held) };
      }
      if (sweep) lastSweep = now;
      return { ok: true, globalTat: Number(gw), chatTat: Number(cw) };
    },
  };
}
