import { nepalDay } from "../nepal-time.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace, TTL } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * Spend limits, the policy that guards placing an order (the checkout reserves before it places):
 * wallet protection per user, a daily spend cap (per Nepal day) and an hourly order count.
 * `reserve` is atomic and idempotent by order key, so a replayed confirm never counts twice. Failed
 * orders are not released: the cap counts what users attempted, the conservative reading for a
 * prepaid merchant wallet.
 * The order key is the user's own (an order's idempotency key), so verdicts are kept per user.
 */
type LimitVerdict = { ok: true } | { ok: false; reason: "daily_cap" | "rate" };

/** What a user may still do now: spend today (paisa, never negative) and orders this hour. */
interface Headroom {
  spendLeftPaisa: number;
  ordersLeft: number;
}

export interface SpendLimits {
  check(userId: number, amountPaisa: number): Promise<LimitVerdict>;
  /** Read before a flow's first question, so limits are known up front (nothing is reserved). */
  headroom(userId: number): Promise<Headroom>;
  reserve(userId: number, amountPaisa: number, key: string): Promise<LimitVerdict>;
}

export interface LimitSettings {
  dailyCapPaisa: number;
  ordersPerHour: number;
  now?: () => number;
}

/** Days are Nepal days: a cap resets at the merchant's midnight. */
const dayOf = nepalDay;
const hourOf = (ms: number) => Math.floor(ms / 3_600_000);

function room(s: LimitSettings, spentPaisa: number, count: number): Headroom {
  return {
    spendLeftPaisa: Math.max(0, s.dailyCapPaisa - spentPaisa),
    ordersLeft: Math.max(0, s.ordersPerHour - count),
  };
}

export function memoryLimits(s: LimitSettings): SpendLimits {
  const now = s.now ?? Date.now;
  const spent = new Map<string, number>();
  const counts = new Map<string, number>();
  const seen = new Map<string, LimitVerdict>();
  const verdict = (userId: number, amount: number): LimitVerdict => {
    const t = now();
    if ((spent.get(`${userId}:${dayOf(t)}`) ?? 0) + amount > s.dailyCapPaisa) {
      return { ok: false, reason: "daily_cap" };
    }
    if ((counts.get(`${userId}:${hourOf(t)}`) ?? 0) + 1 > s.ordersPerHour)
      return { ok: false, reason: "rate" };
    return { ok: true };
  };
  return {
    async check(userId, amount) {
      return verdict(userId, amount);
    },
    async headroom(userId) {
      const t = now();
      return room(
        s,
        spent.get(`${userId}:${dayOf(t)}`) ?? 0,
        counts.get(`${userId}:${hourOf(t)}`) ?? 0,
      );
    },
    async reserve(userId, amount, key) {
      const prior = seen.get(`${userId}:${key}`);
      if (prior) return prior;
      const v = verdict(userId, amount);
      if (v.ok) {
        const t = now();
        const d = `${userId}:${dayOf(t)}`;
        const h = `${userId}:${hourOf(t)}`;
        spent.set(d, (spent.get(d) ?? 0) + amount);
        counts.set(h, (counts.get(h) ?? 0) + 1);
      }
      seen.set(`${userId}:${key}`, v);
      return v;
    },
  };
}

// KEYS: spend, count, seen (one user's: one Cluster slot). ARGV: amount, cap, perHour, spend ttl,
// count ttl, seen ttl (seconds). Counted first and taken back when refused, so the usual path (a
// reservation within the limits) reads nothing, and a counter gets its TTL only when this call
// created it. The verdict is kept under the order's key in the same command that finds one kept
// already (SET NX GET, Redis 7): then this is a replay, which takes back what it just counted and
// answers the first verdict. Commands with the script's own: 6 for a user's first order of the
// day (two new counters), 4 for one more in the same hour; before, a read of the key first (7 and
// 5). A replay counts and takes back (6 instead of 2): replays are rare.
const RESERVE = `
local amount = tonumber(ARGV[1])
local spent = redis.call('INCRBY', KEYS[1], amount)
local count = redis.call('INCR', KEYS[2])
local verdict = 'ok'
if spent > tonumber(ARGV[2]) then verdict = 'daily_cap'
elseif count > tonumber(ARGV[3]) then verdict = 'rate' end
local prior = redis.call('SET', KEYS[3], verdict, 'NX', 'GET', 'EX', ARGV[6])
if prior then verdict = prior end
if verdict == 'ok' and not prior then
  if spent == amount then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
  if count == 1 then redis.call('EXPIRE', KEYS[2], ARGV[5]) end
else
  if spent == amount then redis.call('DEL', KEYS[1]) else redis.call('DECRBY', KEYS[1], amount) end
  if count == 1 then redis.call('DEL', KEYS[2]) else redis.call('DECR', KEYS[2]) end
end
return verdict
`;
const reserveScript = luaScript<"spend" | "count" | "seen", string>(
  "raLimitReserve",
  ["spend", "count", "seen"],
  RESERVE,
);

export function redisLimits(redis: RedisClient, prefix: string, s: LimitSettings): SpendLimits {
  const now = s.now ?? Date.now;
  const k = keyspace(prefix);
  const keys = (userId: number) => {
    const t = now();
    return [k.spendDay(userId, dayOf(t)), k.countHour(userId, hourOf(t))];
  };
  const toVerdict = (v: string): LimitVerdict =>
    v === "ok" ? { ok: true } : { ok: false, reason: v === "rate" ? "rate" : "daily_cap" };
  return {
    async check(userId, amount) {
      const [spendKey, countKey] = keys(userId);
      const [spent, count] = await redis.mget(spendKey!, countKey!);
      if (Number(spent ?? 0) + amount > s.dailyCapPaisa) return { ok: false, reason: "daily_cap" };
      if (Number(count ?? 0) + 1 > s.ordersPerHour) return { ok: false, reason: "rate" };
      return { ok: true };
    },
    async headroom(userId) {
      const [spendKey, countKey] = keys(userId);
      const [spent, count] = await redis.mget(spendKey!, countKey!);
      return room(s, Number(spent ?? 0), Number(count ?? 0));
    },
    async reserve(userId, amount, key) {
      const [spendKey, countKey] = keys(userId);
      const v = await reserveScript.run(
        redis,
        { spend: spendKey!, count: countKey!, seen: k.reserved(userId, key) },
        String(amount),
        String(s.dailyCapPaisa),
        String(s.ordersPerHour),
        String(TTL.spendDaySeconds),
        String(TTL.countHourSeconds),
        String(TTL.reservedSeconds),
      );
      return toVerdict(v);
    },
  };
}
