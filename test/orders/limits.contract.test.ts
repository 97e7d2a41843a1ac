import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type LimitSettings,
  memoryLimits,
  redisLimits,
  type SpendLimits,
} from "../../src/orders/limits.ts";
import { testRedis } from "../support/orders.ts";

/**
 * ONE contract for the per-user spend limits, run against the memory adapter and the Redis one
 * (the Lua script production runs). The clock is injected; `make` builds a limiter over the same
 * data (for Redis, on another connection, as a second process would).
 */
interface Harness {
  make(s: LimitSettings): SpendLimits;
  close(): Promise<void>;
}

function memoryHarness(): Harness {
  return { make: (s) => memoryLimits(s), close: async () => {} };
}

function redisHarness(): Harness {
  const t = testRedis("limits");
  let first = true;
  return {
    make: (s) => {
      const conn = first ? t.redis : t.connect();
      first = false;
      return redisLimits(conn, t.prefix, s);
    },
    close: () => t.cleanup(),
  };
}

const adapters: Array<[string, () => Harness]> = [
  ["memory", memoryHarness],
  ["redis", redisHarness],
];

const at = (iso: string) => Date.parse(iso);

describe.each(adapters)("spend limits contract: %s", (_name, makeHarness) => {
  let h: Harness;
  let now = at("2025-03-10T06:00:00Z");
  const clock = () => now;
  beforeEach(() => {
    h = makeHarness();
    now = at("2025-03-10T06:00:00Z");
  });
  afterEach(() => h.close());

  it("tells the headroom up front: what is left today and this hour, never below zero", async () => {
    const l = h.make({ dailyCapPaisa: 50_000, ordersPerHour: 2, now: clock });
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 50_000, ordersLeft: 2 });
    await l.reserve(7, 30_000, "a");
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 20_000, ordersLeft: 1 });
    await l.reserve(7, 20_000, "b");
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 0, ordersLeft: 0 });
    // Another user, and the next Nepal day, start afresh.
    expect(await l.headroom(8)).toEqual({ spendLeftPaisa: 50_000, ordersLeft: 2 });
    now = at("2025-03-11T06:00:00Z");
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 50_000, ordersLeft: 2 });
  });

  it("lets orders through up to the daily cap and refuses the one that would pass it", async () => {
    const l = h.make({ dailyCapPaisa: 50_000, ordersPerHour: 100, now: clock });
    expect(await l.reserve(7, 30_000, "a")).toEqual({ ok: true });
    expect(await l.check(7, 20_000)).toEqual({ ok: true });
    expect(await l.check(7, 20_001)).toEqual({ ok: false, reason: "daily_cap" });
    expect(await l.reserve(7, 20_001, "b")).toEqual({ ok: false, reason: "daily_cap" });
    // A refused reserve spends nothing: the exact remainder still fits.
    expect(await l.reserve(7, 20_000, "c")).toEqual({ ok: true });
    expect(await l.reserve(7, 1, "d")).toEqual({ ok: false, reason: "daily_cap" });
    // Another user has a cap of their own.
    expect(await l.reserve(8, 50_000, "e")).toEqual({ ok: true });
  });

  it("refuses an order above the cap on its own", async () => {
    const l = h.make({ dailyCapPaisa: 10_000, ordersPerHour: 100, now: clock });
    expect(await l.check(7, 10_001)).toEqual({ ok: false, reason: "daily_cap" });
    expect(await l.reserve(7, 10_001, "a")).toEqual({ ok: false, reason: "daily_cap" });
    expect(await l.reserve(7, 10_000, "b")).toEqual({ ok: true });
  });

  it("counts orders per clock hour and refuses one more than allowed", async () => {
    now = at("2025-03-10T10:05:00Z");
    const l = h.make({ dailyCapPaisa: 10_000_000, ordersPerHour: 2, now: clock });
    expect(await l.reserve(7, 100, "a")).toEqual({ ok: true });
    expect(await l.reserve(7, 100, "b")).toEqual({ ok: true });
    expect(await l.check(7, 100)).toEqual({ ok: false, reason: "rate" });
    expect(await l.reserve(7, 100, "c")).toEqual({ ok: false, reason: "rate" });
    expect(await l.reserve(8, 100, "d")).toEqual({ ok: true });
    now = at("2025-03-10T10:59:59Z");
    expect(await l.reserve(7, 100, "e")).toEqual({ ok: false, reason: "rate" });
    now = at("2025-03-10T11:00:00Z");
    expect(await l.check(7, 100)).toEqual({ ok: true });
    expect(await l.reserve(7, 100, "f")).toEqual({ ok: true });
  });

  it("reports the daily cap before the hourly count when both are reached", async () => {
    const l = h.make({ dailyCapPaisa: 1_000, ordersPerHour: 1, now: clock });
    expect(await l.reserve(7, 1_000, "a")).toEqual({ ok: true });
    expect(await l.check(7, 1)).toEqual({ ok: false, reason: "daily_cap" });
  });

  it("reserves once per order key: a replayed confirm never counts twice", async () => {
    const l = h.make({ dailyCapPaisa: 50_000, ordersPerHour: 2, now: clock });
    expect(await l.reserve(7, 30_000, "order-1")).toEqual({ ok: true });
    expect(await l.reserve(7, 30_000, "order-1")).toEqual({ ok: true });
    // Another process (another connection) replays it too.
    expect(
      await h
        .make({ dailyCapPaisa: 50_000, ordersPerHour: 2, now: clock })
        .reserve(7, 30_000, "order-1"),
    ).toEqual({ ok: true });
    // Spent once (20,000 left) and counted once (one more order this hour).
    expect(await l.check(7, 20_000)).toEqual({ ok: true });
    expect(await l.reserve(7, 20_000, "order-2")).toEqual({ ok: true });
    expect(await l.check(7, 1)).toEqual({ ok: false, reason: "daily_cap" });
  });

  it("takes back what a replay counted: in the same hour, and on a later day", async () => {
    const l = h.make({ dailyCapPaisa: 10_000, ordersPerHour: 2, now: clock });
    expect(await l.reserve(7, 6_000, "a")).toEqual({ ok: true });
    expect(await l.reserve(7, 6_000, "a")).toEqual({ ok: true });
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 4_000, ordersLeft: 1 });
    now = at("2025-03-11T06:00:00Z");
    expect(await l.reserve(7, 6_000, "a")).toEqual({ ok: true });
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 10_000, ordersLeft: 2 });
  });

  it("keeps an order key's reservation to its user", async () => {
    const l = h.make({ dailyCapPaisa: 10_000, ordersPerHour: 100, now: clock });
    expect(await l.reserve(7, 10_000, "same")).toEqual({ ok: true });
    expect(await l.reserve(8, 4_000, "same")).toEqual({ ok: true });
    expect(await l.check(8, 6_000)).toEqual({ ok: true });
    expect(await l.check(8, 6_001)).toEqual({ ok: false, reason: "daily_cap" });
  });

  it("replays a refusal for the same order key, even once there is room again", async () => {
    const l = h.make({ dailyCapPaisa: 10_000, ordersPerHour: 100, now: clock });
    expect(await l.reserve(7, 10_000, "a")).toEqual({ ok: true });
    expect(await l.reserve(7, 5_000, "b")).toEqual({ ok: false, reason: "daily_cap" });
    now = at("2025-03-11T06:00:00Z");
    expect(await l.reserve(7, 5_000, "b")).toEqual({ ok: false, reason: "daily_cap" });
    expect(await l.reserve(7, 5_000, "c")).toEqual({ ok: true });
  });

  it("takes a reservation back on release, in the day and hour it counted in, once", async () => {
    const l = h.make({ dailyCapPaisa: 10_000, ordersPerHour: 2, now: clock });
    now = at("2025-03-10T10:59:00Z");
    expect(await l.reserve(7, 6_000, "short")).toEqual({ ok: true });
    expect(await l.reserve(7, 1_000, "kept")).toEqual({ ok: true });
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 3_000, ordersLeft: 0 });
    // Released in the next hour: the earlier hour's count and the day's spend get it back.
    now = at("2025-03-10T11:00:30Z");
    await l.release(7, "short");
    await l.release(7, "short");
    // Another process releases it too: nothing more is taken back.
    await h.make({ dailyCapPaisa: 10_000, ordersPerHour: 2, now: clock }).release(7, "short");
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 9_000, ordersLeft: 2 });
    now = at("2025-03-10T10:59:30Z");
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 9_000, ordersLeft: 1 });
    // A key never reserved, or refused, releases nothing.
    await l.release(7, "never");
    expect(await l.reserve(7, 9_001, "refused")).toEqual({ ok: false, reason: "daily_cap" });
    await l.release(7, "refused");
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 9_000, ordersLeft: 1 });
    // The released key reserves afresh (the order is placed after all), and counts once.
    expect(await l.reserve(7, 6_000, "short")).toEqual({ ok: true });
    expect(await l.reserve(7, 6_000, "short")).toEqual({ ok: true });
    expect(await l.headroom(7)).toEqual({ spendLeftPaisa: 3_000, ordersLeft: 0 });
  });

  it("says when a refusal ends: the next Nepal midnight, the next clock hour", async () => {
    now = at("2025-03-10T10:05:00Z");
    const l = h.make({ dailyCapPaisa: 10_000, ordersPerHour: 3, now: clock });
    expect(l.terms).toEqual({ dailyCapPaisa: 10_000, ordersPerHour: 3 });
    expect(l.resetAt("rate")).toBe(at("2025-03-10T11:00:00Z"));
    expect(l.resetAt("daily_cap")).toBe(at("2025-03-10T18:15:00Z"));
    now = at("2025-03-10T18:15:00Z");
    expect(l.resetAt("daily_cap")).toBe(at("2025-03-11T18:15:00Z"));
  });

  it("rolls the day over at midnight in Nepal (18:15 UTC), not at midnight UTC", async () => {
    const l = h.make({ dailyCapPaisa: 10_000, ordersPerHour: 100, now: clock });
    // 23:59:59 in Kathmandu on 10 March.
    now = at("2025-03-10T18:14:59Z");
    expect(await l.reserve(7, 10_000, "a")).toEqual({ ok: true });
    expect(await l.check(7, 1)).toEqual({ ok: false, reason: "daily_cap" });
    // 00:00:00 in Kathmandu on 11 March: a new day, still 10 March in UTC.
    now = at("2025-03-10T18:15:00Z");
    expect(await l.check(7, 10_000)).toEqual({ ok: true });
    expect(await l.reserve(7, 10_000, "b")).toEqual({ ok: true });
    // Midnight UTC is no boundary: 05:45 on 11 March in Kathmandu, the same Nepal day.
    now = at("2025-03-11T00:00:00Z");
    expect(await l.check(7, 1)).toEqual({ ok: false, reason: "daily_cap" });
    expect(await l.reserve(7, 1, "c")).toEqual({ ok: false, reason: "daily_cap" });
    // Until 18:14:59 UTC on 11 March.
    now = at("2025-03-11T18:14:59Z");
    expect(await l.check(7, 1)).toEqual({ ok: false, reason: "daily_cap" });
    now = at("2025-03-11T18:15:00Z");
    expect(await l.reserve(7, 10_000, "d")).toEqual({ ok: true });
  });
});

describe("spend limits in Redis: the counters' keys", () => {
  it("gives a new counter its TTL, and leaves nothing behind for a refusal that created it", async () => {
    const t = testRedis("limits-keys");
    try {
      const now = () => Date.parse("2025-03-10T06:00:00Z");
      const l = redisLimits(t.redis, t.prefix, { dailyCapPaisa: 10_000, ordersPerHour: 5, now });
      const counters = async () => {
        const keys = (await t.redis.keys(`${t.prefix}*`)).filter((k) => !k.includes(":seen:"));
        return Promise.all(keys.map(async (k) => [await t.redis.get(k), await t.redis.ttl(k)]));
      };
      expect(await l.reserve(7, 10_001, "too-much")).toEqual({ ok: false, reason: "daily_cap" });
      expect(await counters()).toEqual([]);
      expect(await l.reserve(7, 4_000, "a")).toEqual({ ok: true });
      expect(await l.reserve(7, 7_000, "b")).toEqual({ ok: false, reason: "daily_cap" });
      const left = await counters();
      expect(left.map(([v]) => v).sort()).toEqual(["1", "4000"]);
      for (const [, ttl] of left) expect(Number(ttl)).toBeGreaterThan(0);
      // A replay counts and takes back: the same figures, the TTLs kept.
      expect(await l.reserve(7, 4_000, "a")).toEqual({ ok: true });
      const again = await counters();
      expect(again.map(([v]) => v).sort()).toEqual(["1", "4000"]);
      for (const [, ttl] of again) expect(Number(ttl)).toBeGreaterThan(0);
    } finally {
      await t.cleanup();
    }
  });
});
