import type { Redis } from "ioredis";

/**
 * Wallet protection per user: a daily spend cap and an hourly order count. `reserve` is atomic and
 * idempotent by order key, so a replayed confirm never counts twice. Failed orders are not released:
 * the cap counts what users attempted, the conservative reading for a prepaid merchant wallet.
 */
export type LimitVerdict = { ok: true } | { ok: false; reason: "daily_cap" | "rate" };

export interface SpendLimits {
  check(userId: number, amountPaisa: number): Promise<LimitVerdict>;
  reserve(userId: number, amountPaisa: number, key: string): Promise<LimitVerdict>;
}

export interface LimitSettings {
  dailyCapPaisa: number;
  ordersPerHour: number;
  now?: () => number;
}

const dayOf = (ms: number) => new Date(ms + 345 * 60_000).toISOString().slice(0, 10); // Nepal day
const hourOf = (ms: number) => Math.floor(ms / 3_600_000);

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
    async reserve(userId, amount, key) {
      const prior = seen.get(key);
      if (prior) return prior;
      const v = verdict(userId, amount);
      if (v.ok) {
        const t = now();
        const d = `${userId}:${dayOf(t)}`;
        const h = `${userId}:${hourOf(t)}`;
        spent.set(d, (spent.get(d) ?? 0) + amount);
        counts.set(h, (counts.get(h) ?? 0) + 1);
      }
      seen.set(key, v);
      return v;
    },
  };
}

// KEYS: spend, count, seen. ARGV: amount, cap, perHour, daySeconds.
const RESERVE = `
local prior = redis.call('GET', KEYS[3])
if prior then return prior end
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local count = tonumber(redis.call('GET', KEYS[2]) or '0')
local verdict = 'ok'
if spent + tonumber(ARGV[1]) > tonumber(ARGV[2]) then verdict = 'daily_cap'
elseif count + 1 > tonumber(ARGV[3]) then verdict = 'rate' end
if verdict == 'ok' then
  redis.call('INCRBY', KEYS[1], ARGV[1]); redis.call('EXPIRE', KEYS[1], ARGV[4])
  redis.call('INCR', KEYS[2]); redis.call('EXPIRE', KEYS[2], 7200)
end
redis.call('SET', KEYS[3], verdict, 'EX', ARGV[4])
return verdict
`;

export function redisLimits(redis: Redis, prefix: string, s: LimitSettings): SpendLimits {
  const now = s.now ?? Date.now;
  const keys = (userId: number) => {
    const t = now();
    return [
      `${prefix}limit:spend:${userId}:${dayOf(t)}`,
      `${prefix}limit:count:${userId}:${hourOf(t)}`,
    ];
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
    async reserve(userId, amount, key) {
      const [spendKey, countKey] = keys(userId);
      const v = (await redis.eval(
        RESERVE,
        3,
        spendKey!,
        countKey!,
        `${prefix}limit:seen:${key}`,
        String(amount),
        String(s.dailyCapPaisa),
        String(s.ordersPerHour),
        String(2 * 86_400),
      )) as string;
      return toVerdict(v);
    },
  };
}
