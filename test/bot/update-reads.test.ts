import type { Context } from "grammy";
import { afterAll, describe, expect, it, vi } from "vitest";
import { redisPrefetch } from "../../src/bot/prefetch.ts";
import { earlyReadsInUpdate, updateEarlyRead } from "../../src/bot/update-reads.ts";
import { redisLimits } from "../../src/orders/limits.ts";
import { testRedis } from "../support/redis.ts";
import { monitorCommands } from "../support/redis-monitor.ts";

/**
 * The spend limits' reads inside an update take the user's buckets from the update's early read
 * (src/bot/update-reads.ts, orders/limits.ts): no command of their own, the same verdicts, and
 * Redis again once the update wrote them, the hour turned, or the update is over.
 */

const t = testRedis("update-reads");
afterAll(() => t.cleanup());

let n = 0;
const at = (iso: string) => Date.parse(iso);

function world(cap = 50_000, perHour = 2) {
  const prefix = `${t.prefix}${++n}:`;
  let now = at("2025-03-10T06:10:00Z");
  // The bot's limits on a connection of their own (their reads are spied), and another instance.
  const conn = t.connect();
  const s = { dailyCapPaisa: cap, ordersPerHour: perHour, now: () => now };
  const limits = redisLimits(conn, prefix, { ...s, early: updateEarlyRead });
  const other = redisLimits(t.connect(), prefix, s);
  const prefetch = redisPrefetch(t.redis);
  /** One update of user 7: its early read (with the buckets' keys), then `body`. */
  const update = (id: number, body: () => Promise<void>) => {
    const ctx = { update: { update_id: id } } as Context;
    return prefetch.middleware<Context>(() => limits.earlyKeys?.(7) ?? [])(ctx, async () => {
      await earlyReadsInUpdate<Context>((c, key) => prefetch.peek(c.update.update_id, key))(
        ctx,
        body,
      );
    });
  };
  const mget = vi.spyOn(conn, "mget");
  return {
    limits,
    other,
    update,
    mget,
    setNow: (iso: string) => {
      now = at(iso);
    },
  };
}

describe("the spend limits read with the update's early read", () => {
  it("answers headroom and check from the update's read, with no command of their own", async () => {
    const w = world();
    await w.other.reserve(7, 30_000, "before");
    const seen: unknown[] = [];
    await w.update(1, async () => {
      seen.push(await w.limits.headroom(7));
      seen.push(await w.limits.check(7, 20_000), await w.limits.check(7, 20_001));
    });
    expect(seen).toEqual([
      { spendLeftPaisa: 20_000, ordersLeft: 1 },
      { ok: true },
      { ok: false, reason: "daily_cap" },
    ]);
    expect(w.mget).not.toHaveBeenCalled();
  });

  it("keeps what it read as the update started; the next update reads another instance's reservation", async () => {
    const w = world();
    const seen: unknown[] = [];
    await w.update(2, async () => {
      await w.other.reserve(7, 10_000, "meanwhile");
      seen.push(await w.limits.headroom(7));
    });
    await w.update(3, async () => {
      seen.push(await w.limits.headroom(7));
    });
    expect(seen).toEqual([
      { spendLeftPaisa: 50_000, ordersLeft: 2 },
      { spendLeftPaisa: 40_000, ordersLeft: 1 },
    ]);
  });

  it("reads Redis after the update's own reservation or release: the update sees its write", async () => {
    const w = world(50_000, 1);
    const seen: unknown[] = [];
    await w.update(4, async () => {
      seen.push(await w.limits.check(7, 10_000));
      expect(await w.limits.reserve(7, 10_000, "k")).toEqual({ ok: true });
      seen.push(await w.limits.check(7, 10_000), await w.limits.headroom(7));
      await w.limits.release(7, "k");
      seen.push(await w.limits.headroom(7));
    });
    expect(seen).toEqual([
      { ok: true },
      { ok: false, reason: "rate" },
      { spendLeftPaisa: 40_000, ordersLeft: 0 },
      { spendLeftPaisa: 50_000, ordersLeft: 1 },
    ]);
  });

  it("reads the new hour's bucket when the hour turned since the update's read", async () => {
    const w = world(50_000, 1);
    const seen: unknown[] = [];
    await w.update(5, async () => {
      seen.push(await w.limits.headroom(7));
      // The hour turns; another instance's order counts in the new hour.
      w.setNow("2025-03-10T07:00:01Z");
      await w.other.reserve(7, 5_000, "next hour");
      seen.push(await w.limits.check(7, 5_000));
    });
    expect(seen).toEqual([
      { spendLeftPaisa: 50_000, ordersLeft: 1 },
      { ok: false, reason: "rate" },
    ]);
    expect(w.mget).toHaveBeenCalledTimes(1);
  });

  it("reads Redis outside an update and in work an update left running", async () => {
    const w = world();
    let go!: () => void;
    const later = new Promise<void>((resolve) => {
      go = resolve;
    });
    let left!: Promise<unknown>;
    await w.update(6, async () => {
      left = later.then(() => w.limits.headroom(7));
    });
    await w.other.reserve(7, 10_000, "after");
    go();
    expect(await left).toEqual({ spendLeftPaisa: 40_000, ordersLeft: 1 });
    expect(await w.limits.headroom(7)).toEqual({ spendLeftPaisa: 40_000, ordersLeft: 1 });
    expect(w.mget).toHaveBeenCalledTimes(2);
  });

  it("creates a first order's counters, absent at the update's read, with their TTL: no INCRBY, INCR or EXPIRE", async () => {
    const w = world();
    const [spend, count] = w.limits.earlyKeys?.(7) ?? [];
    const monitor = await monitorCommands(spend!);
    let seen: string[];
    try {
      await w.update(7, async () => {
        expect(await w.limits.reserve(7, 10_000, "first")).toEqual({ ok: true });
      });
      seen = (await monitor.drain((key) => t.redis.get(key))).map((a) => a[0]!);
    } finally {
      monitor.stop();
    }
    expect(seen.filter((c) => ["incrby", "incr", "expire"].includes(c))).toEqual([]);
    expect(await t.redis.ttl(spend!)).toBeGreaterThan(0);
    expect(await t.redis.ttl(count!)).toBeGreaterThan(0);
    expect(await w.limits.headroom(7)).toEqual({ spendLeftPaisa: 40_000, ordersLeft: 1 });
  });

  it("counts on top of counters another chat created after the update's read, their TTL kept", async () => {
    const w = world();
    const [spend, count] = w.limits.earlyKeys?.(7) ?? [];
    await w.update(8, async () => {
      await w.other.reserve(7, 5_000, "another chat");
      expect(await w.limits.reserve(7, 10_000, "mine")).toEqual({ ok: true });
    });
    expect(await w.limits.headroom(7)).toEqual({ spendLeftPaisa: 35_000, ordersLeft: 0 });
    expect(await t.redis.ttl(spend!)).toBeGreaterThan(0);
    expect(await t.redis.ttl(count!)).toBeGreaterThan(0);
    // Refused (the hour's count is spent): what it counted is taken back, the other's stays.
    await w.update(9, async () => {
      expect(await w.limits.reserve(7, 1_000, "third")).toEqual({ ok: false, reason: "rate" });
    });
    expect(await w.limits.headroom(7)).toEqual({ spendLeftPaisa: 35_000, ordersLeft: 0 });
  });

  it("gives a TTL to counters the update saw that expired before the reservation", async () => {
    const w = world();
    const [spend, count] = w.limits.earlyKeys?.(7) ?? [];
    await w.other.reserve(7, 5_000, "earlier");
    await w.update(10, async () => {
      expect(await w.limits.headroom(7)).toEqual({ spendLeftPaisa: 45_000, ordersLeft: 1 });
      await t.redis.del(spend!, count!);
      expect(await w.limits.reserve(7, 10_000, "after expiry")).toEqual({ ok: true });
    });
    expect(await w.limits.headroom(7)).toEqual({ spendLeftPaisa: 40_000, ordersLeft: 1 });
    expect(await t.redis.ttl(spend!)).toBeGreaterThan(0);
    expect(await t.redis.ttl(count!)).toBeGreaterThan(0);
  });
});
