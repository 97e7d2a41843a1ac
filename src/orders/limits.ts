import { nepalDay, nepalDayStart } from "../nepal-time.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace, TTL } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import type { Order } from "./model.ts";
import {
  InsufficientFundsError,
  OrderInputError,
  type PlaceInput,
  PriceChangedError,
} from "./place.ts";
import type { SubmitOptions } from "./submit.ts";

/**
 * Spend limits, the policy that guards placing an order (the checkout reserves before it places):
 * wallet protection per user, a daily spend cap (per Nepal day) and an hourly order count (per
 * clock hour). `reserve` is atomic and idempotent by order key, so a replayed confirm never counts
 * twice. The limits count only orders the customer placed that reached the provider (issue 30): a
 * reservation whose order was refused for the merchant's own reasons (the balance short when the
 * hold was taken, a draft refused before submit, the merchant's float short at the aggregator) is
 * taken back (`release`, called by `reachedProviderOnly` around the chat's orders); a limit's own
 * refusal never counted. Orders that reached the provider count whatever their outcome: the
 * provider did the work.
 * The order key is the user's own (an order's idempotency key), so verdicts are kept per user.
 */
export type LimitReason = "daily_cap" | "rate";
type LimitVerdict = { ok: true } | { ok: false; reason: LimitReason };

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
  /**
   * Takes back what `reserve` counted under this order key (its own day and hour, whenever this
   * runs): the order never reached the provider. Idempotent; a key never reserved is a no-op.
   */
  release(userId: number, key: string): Promise<void>;
  /** The numbers, for the refusals' words. */
  readonly terms: { dailyCapPaisa: number; ordersPerHour: number };
  /** When a refusal for `reason` made now ends: the next Nepal midnight, the next clock hour. */
  resetAt(reason: LimitReason): number;
  /**
   * The keys `check` and `headroom` read for this user now (Redis only): the bot reads them with
   * the update's early MGET (src/bot/create-bot.ts), so a step's limits read costs no command.
   */
  earlyKeys?(userId: number): string[];
}

/**
 * The running update's early read (src/bot/update-reads.ts), when the limits are read inside one:
 * `read` gives a key's value as the update read it as it started (undefined: not read early, or
 * no longer current), `drop` makes the update's later reads of the keys go to Redis.
 */
export interface EarlyRead {
  read(key: string): Promise<Buffer | null | undefined>;
  drop(keys: readonly string[]): void;
}

export interface LimitSettings {
  dailyCapPaisa: number;
  ordersPerHour: number;
  now?: () => number;
  /** Redis only: the update's early read, used by `check` and `headroom` for the keys it holds. */
  early?: EarlyRead;
}

/** Days are Nepal days: a cap resets at the merchant's midnight. */
const dayOf = nepalDay;
const HOUR_MS = 3_600_000;
const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);

/** The end of the window `t` falls in: the day's (Nepal midnight) or the clock hour's. */
function resetOf(reason: LimitReason, t: number): number {
  return reason === "daily_cap" ? nepalDayStart(t) + 86_400_000 : (hourOf(t) + 1) * HOUR_MS;
}

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
  /** Per user and key: the verdict, and for an ok the buckets it counted in until released. */
  const seen = new Map<
    string,
    { v: LimitVerdict; counted?: { d: string; h: string; amount: number } }
  >();
  const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);
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
    terms: { dailyCapPaisa: s.dailyCapPaisa, ordersPerHour: s.ordersPerHour },
    resetAt: (reason) => resetOf(reason, now()),
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
      // A released key reserves afresh (its order was never placed, or never reached the provider).
      if (prior && (!prior.v.ok || prior.counted)) return prior.v;
      const v = verdict(userId, amount);
      if (!v.ok) {
        seen.set(`${userId}:${key}`, { v });
        return v;
      }
      const t = now();
      const counted = { d: `${userId}:${dayOf(t)}`, h: `${userId}:${hourOf(t)}`, amount };
      add(spent, counted.d, amount);
      add(counts, counted.h, 1);
      seen.set(`${userId}:${key}`, { v, counted });
      return v;
    },
    async release(userId, key) {
      const counted = seen.get(`${userId}:${key}`)?.counted;
      if (!counted) return;
      add(spent, counted.d, -counted.amount);
      add(counts, counted.h, -1);
      seen.set(`${userId}:${key}`, { v: { ok: true } });
    },
  };
}

// KEYS: spend, count, seen (one user's: one Cluster slot). ARGV: amount, cap, perHour, spend ttl,
// count ttl, seen ttl (seconds), and what an ok keeps under the order's key ("ok|<day>|<hour>|
// <amount>": the buckets it counted in, for `release`). Counted first and taken back when refused,
// so the usual path (a reservation within the limits) reads nothing, and a counter gets its TTL
// only when this call created it. The verdict is kept under the order's key in the same command
// that finds one kept already (SET NX GET, Redis 7): then this is a replay, which takes back what
// it just counted and answers the first verdict; a key released since reserves afresh. ARGV[8],
// ARGV[9]: '1' when the update's early read found the spend or the count counter absent: it is
// then created with its TTL in one command (SET NX EX) instead of INCRBY and EXPIRE; when it is
// there after all (another chat's reservation since), SET NX writes nothing and INCRBY counts as
// without the hint. Commands with the script's own: 4 for a user's first order of the day seen
// absent (6 unseen: two EXPIREs), 4 for one more in the same hour. A replay counts and takes
// back (6 instead of 2): replays are rare.
const RESERVE = `
local amount = tonumber(ARGV[1])
local spentNew = ARGV[8] == '1' and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[4])
local spent = amount
if not spentNew then spent = redis.call('INCRBY', KEYS[1], amount) end
local countNew = ARGV[9] == '1' and redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[5])
local count = 1
if not countNew then count = redis.call('INCR', KEYS[2]) end
local verdict = 'ok'
if spent > tonumber(ARGV[2]) then verdict = 'daily_cap'
elseif count > tonumber(ARGV[3]) then verdict = 'rate' end
local kept = verdict
if verdict == 'ok' then kept = ARGV[7] end
local prior = redis.call('SET', KEYS[3], kept, 'NX', 'GET', 'EX', ARGV[6])
if prior == 'released' then
  redis.call('SET', KEYS[3], kept, 'EX', ARGV[6])
  prior = false
end
if verdict == 'ok' and not prior then
  if spent == amount and not spentNew then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
  if count == 1 and not countNew then redis.call('EXPIRE', KEYS[2], ARGV[5]) end
  return verdict
end
if spent == amount then redis.call('DEL', KEYS[1]) else redis.call('DECRBY', KEYS[1], amount) end
if count == 1 then redis.call('DEL', KEYS[2]) else redis.call('DECR', KEYS[2]) end
if prior then return prior end
return verdict
`;
const reserveScript = luaScript<"spend" | "count" | "seen", string>(
  "raLimitReserve2",
  ["spend", "count", "seen"],
  RESERVE,
);

// KEYS: the spend and count buckets an ok counted in, seen. ARGV: the ok as kept, its amount. Takes
// them back only while the key still holds that ok (a second release finds "released").
const RELEASE = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
if redis.call('DECRBY', KEYS[1], ARGV[2]) <= 0 then redis.call('DEL', KEYS[1]) end
if redis.call('DECR', KEYS[2]) <= 0 then redis.call('DEL', KEYS[2]) end
redis.call('SET', KEYS[3], 'released', 'KEEPTTL')
return 1
`;
const releaseScript = luaScript<"spend" | "count" | "seen", number>(
  "raLimitRelease",
  ["spend", "count", "seen"],
  RELEASE,
);

/** An ok as kept under the order's key: "ok|<day>|<hour>|<amount>" (a bare "ok" from before). */
const okKept = (day: string, hour: number, amount: number) => `ok|${day}|${hour}|${amount}`;
function parseOk(v: string | null): { day: string; hour: number; amount: number } | null {
  const m = /^ok\|(\d{4}-\d{2}-\d{2})\|(\d+)\|(\d+)$/.exec(v ?? "");
  return m ? { day: m[1]!, hour: Number(m[2]), amount: Number(m[3]) } : null;
}

export function redisLimits(redis: RedisClient, prefix: string, s: LimitSettings): SpendLimits {
  const now = s.now ?? Date.now;
  const k = keyspace(prefix);
  const keys = (userId: number) => {
    const t = now();
    return [k.spendDay(userId, dayOf(t)), k.countHour(userId, hourOf(t))];
  };
  const toVerdict = (v: string): LimitVerdict =>
    v === "ok" || v.startsWith("ok|")
      ? { ok: true }
      : { ok: false, reason: v === "rate" ? "rate" : "daily_cap" };
  /**
   * The spend and the count as the running update read them as it started (the chat's turn was
   * taken then: as current as a read now, bar another chat's reservation in those milliseconds),
   * else read now. The keys are drawn now, so a day or hour that turned since the update's read
   * finds no early value and reads the new buckets.
   */
  const buckets = async (userId: number): Promise<[number, number]> => {
    const [spendKey, countKey] = keys(userId) as [string, string];
    const early = s.early;
    if (early) {
      const [spent, count] = await Promise.all([early.read(spendKey), early.read(countKey)]);
      if (spent !== undefined && count !== undefined)
        return [Number(spent?.toString() ?? 0), Number(count?.toString() ?? 0)];
    }
    const [spent, count] = await redis.mget(spendKey, countKey);
    return [Number(spent ?? 0), Number(count ?? 0)];
  };
  /**
   * Per counter, '1' when the update's early read found it absent (a hint only: the reservation's
   * SET NX checks it again), '' when it was there or not read early.
   */
  const absentAtStart = async (key: string): Promise<string> =>
    (await s.early?.read(key)) === null ? "1" : "";
  /** Before a write of the user's buckets: the update's later reads go to Redis. */
  const dropEarly = (userId: number, ...more: string[]) =>
    s.early?.drop([...keys(userId), ...more]);
  return {
    earlyKeys: keys,
    terms: { dailyCapPaisa: s.dailyCapPaisa, ordersPerHour: s.ordersPerHour },
    resetAt: (reason) => resetOf(reason, now()),
    async check(userId, amount) {
      const [spent, count] = await buckets(userId);
      if (spent + amount > s.dailyCapPaisa) return { ok: false, reason: "daily_cap" };
      if (count + 1 > s.ordersPerHour) return { ok: false, reason: "rate" };
      return { ok: true };
    },
    async headroom(userId) {
      const [spent, count] = await buckets(userId);
      return room(s, spent, count);
    },
    async reserve(userId, amount, key) {
      const t = now();
      const spend = k.spendDay(userId, dayOf(t));
      const count = k.countHour(userId, hourOf(t));
      const [spendNew, countNew] = await Promise.all([absentAtStart(spend), absentAtStart(count)]);
      dropEarly(userId, spend, count);
      const v = await reserveScript.run(
        redis,
        { spend, count, seen: k.reserved(userId, key) },
        String(amount),
        String(s.dailyCapPaisa),
        String(s.ordersPerHour),
        String(TTL.spendDaySeconds),
        String(TTL.countHourSeconds),
        String(TTL.reservedSeconds),
        okKept(dayOf(t), hourOf(t), amount),
        spendNew,
        countNew,
      );
      return toVerdict(v);
    },
    async release(userId, key) {
      const seen = k.reserved(userId, key);
      const kept = await redis.get(seen);
      const ok = parseOk(kept);
      if (!ok) return;
      const buckets = { spend: k.spendDay(userId, ok.day), count: k.countHour(userId, ok.hour) };
      dropEarly(userId, buckets.spend, buckets.count);
      await releaseScript.run(redis, { ...buckets, seen }, kept!, String(ok.amount));
    },
  };
}

/** The parts of the orders service whose refusals `reachedProviderOnly` watches. */
interface WatchedOrders {
  place(input: PlaceInput): Promise<Order>;
  submit(reference: string, opts?: SubmitOptions): Promise<Order>;
}

/**
 * The chat's orders with the limits counting only orders that reached the provider: a place
 * refused for the balance (the hold) or the draft (validated before submit), and a submit the
 * aggregator refused for the merchant's own float, take back the order key's reservation. The
 * error or the order is handed on as it was; a release that fails only leaves the count high.
 */
export function reachedProviderOnly<O extends WatchedOrders>(
  orders: O,
  limits: Pick<SpendLimits, "release">,
): O {
  const release = (userId: number, key: string) => limits.release(userId, key).catch(() => {});
  return {
    ...orders,
    async place(input: PlaceInput) {
      try {
        return await orders.place(input);
      } catch (err) {
        if (
          err instanceof InsufficientFundsError ||
          err instanceof OrderInputError ||
          err instanceof PriceChangedError
        )
          await release(input.userId, input.idempotencyKey);
        throw err;
      }
    },
    async submit(reference: string, opts?: SubmitOptions) {
      const order = await orders.submit(reference, opts);
      if (order.status === "failed" && order.floatShort)
        await release(order.userId, order.idempotencyKey);
      return order;
    },
  };
}
