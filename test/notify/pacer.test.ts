import { afterAll, describe, expect, it } from "vitest";
import { memoryPaceStore, type PaceStore, pacerLimitsSchema } from "../../src/notify/pace-store.ts";
import { createSendPacer } from "../../src/notify/pacer.ts";
import { redisPaceStore } from "../../src/notify/redis-pace-store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/orders.ts";

/**
 * The pacer's buckets, with a clock the test moves by hand (no real time is involved): which
 * sends it lets through and how long it tells the rest to wait. One contract for both stores.
 */

const limits = pacerLimitsSchema.parse({
  globalPerSecond: 10,
  globalBurst: 3,
  perChatPerSecond: 1,
  perChatBurst: 2,
});

const redis = testRedis("pacer");
afterAll(async () => {
  await redis.cleanup();
});

const stores: Array<[string, () => PaceStore]> = [
  ["memory", () => memoryPaceStore()],
  ["redis", () => redisPaceStore(redis.redis, `${redis.prefix}${Math.random()}:`)],
];

describe.each(stores)("%s pace store", (_name, make) => {
  it("holds every slot until a 429's hold ends, an earlier hold never moving it back", async () => {
    // Review s31-notify, 5: Telegram's retry_after is the bot's, so a hold lives in the store.
    const store = make();
    const t = 1_000_000;
    await store.hold(t + 300_000, limits);
    await store.hold(t + 60_000, limits);
    expect(await store.take(1, t + 299_999, limits)).toMatchObject({
      ok: false,
      heldUntil: t + 300_000,
    });
    expect(await store.take(2, t + 299_999, limits, "edit")).toMatchObject({ ok: false });
    expect(await store.take(1, t + 300_000, limits)).toMatchObject({ ok: true });
  });

  it("lets a chat's burst through, then tells it when its next slot is", async () => {
    const store = make();
    const t = 1_000_000;
    expect(await store.take(1, t, limits)).toMatchObject({ ok: true });
    expect(await store.take(1, t, limits)).toMatchObject({ ok: true });
    const refused = await store.take(1, t, limits);
    expect(refused).toMatchObject({ ok: false, globalWaitMs: 0 });
    // Two slots taken at t: the third is due one interval (1 s) after the first, minus the burst.
    expect(refused.ok === false && refused.chatWaitMs).toBeCloseTo(1000, 0);
    expect(await store.take(1, t + 1000, limits)).toMatchObject({ ok: true });
  });

  it("keeps the whole bot under its global rate across chats", async () => {
    const store = make();
    const t = 2_000_000;
    for (const chat of [1, 2, 3])
      expect(await store.take(chat, t, limits)).toMatchObject({ ok: true });
    const refused = await store.take(4, t, limits);
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.globalWaitMs).toBeCloseTo(100, 0);
    expect(refused.ok === false && refused.chatWaitMs).toBe(0);
    expect(await store.take(4, t + 100, limits)).toMatchObject({ ok: true });
    // Over a long stretch, exactly 10 per second get through.
    let sent = 0;
    for (let ms = 0; ms < 10_000; ms += 5) {
      if ((await store.take(100 + (ms % 700), t + 100 + ms, limits)).ok) sent++;
    }
    expect(sent).toBeGreaterThanOrEqual(99);
    expect(sent).toBeLessThanOrEqual(101);
  });

  it("takes a slot from both buckets or from neither", async () => {
    const store = make();
    const t = 3_000_000;
    await store.take(7, t, limits);
    await store.take(7, t, limits);
    // Chat 7 is full: refusing it must not use up a global slot.
    expect((await store.take(7, t, limits)).ok).toBe(false);
    expect((await store.take(7, t, limits)).ok).toBe(false);
    expect(await store.take(8, t, limits)).toMatchObject({ ok: true });
    expect((await store.take(9, t, limits)).ok).toBe(false);
  });

  it("tells with each slot the buckets' new timestamps", async () => {
    const store = make();
    const t = 4_000_000;
    // Chat: burst 2, 1 s apart; global: burst 3, 100 ms apart.
    expect(await store.take(5, t, limits)).toEqual({
      ok: true,
      globalTat: t + 100,
      chatTat: t + 1000,
    });
    expect(await store.take(5, t, limits)).toEqual({
      ok: true,
      globalTat: t + 200,
      chatTat: t + 2000,
    });
    expect(await store.take(6, t, limits)).toEqual({
      ok: true,
      globalTat: t + 300,
      chatTat: t + 1000,
    });
    // The third global slot was the burst's last: the next one is 100 ms later.
    expect((await store.take(7, t, limits)).ok).toBe(false);
  });

  it("keeps pushReserve global slots of the burst for pushes: an edit waits for them", async () => {
    const store = make();
    const t = 4_000_000;
    const reserved = pacerLimitsSchema.parse({ ...limits, pushReserve: 1 });
    // Burst 3, one kept for pushes: an edit gets the first two, a push the third.
    expect(await store.take(1, t, reserved, "edit")).toMatchObject({ ok: true });
    expect(await store.take(2, t, reserved, "edit")).toMatchObject({ ok: true });
    const edit = await store.take(3, t, reserved, "edit");
    expect(edit.ok).toBe(false);
    expect(edit.ok === false && edit.globalWaitMs).toBeCloseTo(100, 0);
    expect(await store.take(3, t, reserved, "push")).toMatchObject({ ok: true });
    // Now the edit must wait until the bucket is one slot below full again: two intervals.
    const later = await store.take(4, t, reserved, "edit");
    expect(later.ok === false && later.globalWaitMs).toBeCloseTo(200, 0);
    expect(await store.take(4, t + 200, reserved, "edit")).toMatchObject({ ok: true });
  });
});

describe("redis pace store", () => {
  it("keeps both buckets in one key and drops the chats' empty buckets once a minute", async () => {
    const prefix = `${redis.prefix}${Math.random()}:`;
    const store = redisPaceStore(redis.redis, prefix);
    const key = keyspace(prefix).paceBuckets;
    const t = 6_000_000;
    expect(await store.take(1, t, limits)).toMatchObject({ ok: true });
    expect(await store.take(2, t + 30_000, limits)).toMatchObject({ ok: true });
    expect(await redis.redis.zscore(key, "1")).not.toBeNull();
    // A minute on: chat 1's bucket ran empty long ago and goes; chat 3's is new.
    expect(await store.take(3, t + 61_000, limits)).toMatchObject({ ok: true });
    expect(await redis.redis.zscore(key, "1")).toBeNull();
    expect(await redis.redis.zscore(key, "2")).toBeNull();
    expect(Number(await redis.redis.zscore(key, "3"))).toBe(t + 62_000);
    expect(Number(await redis.redis.zscore(key, "g"))).toBe(t + 61_100);
    // Dropped is the same as empty: chat 1 has its whole burst again.
    expect(await store.take(1, t + 61_000, limits)).toMatchObject({ ok: true });
    expect(await store.take(1, t + 61_000, limits)).toMatchObject({ ok: true });
    expect((await store.take(1, t + 61_000, limits)).ok).toBe(false);
  });
});

describe("send pacer", () => {
  /** A clock that only moves when the pacer sleeps. */
  function manualClock(start = 5_000_000) {
    let now = start;
    const sleeps: number[] = [];
    return {
      now: () => now,
      sleeps,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    };
  }

  it("spaces one chat's messages by its rate after the burst", async () => {
    const clock = manualClock();
    const pacer = createSendPacer({ limits, now: clock.now, sleep: clock.sleep });
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      await pacer.acquire(42);
      times.push(clock.now());
    }
    expect(times.map((x) => x - times[0]!)).toEqual([0, 0, 1000, 2000]);
  });

  it("lets other chats through while one chat waits for its slot", async () => {
    const clock = manualClock();
    const pacer = createSendPacer({ limits, now: clock.now, sleep: clock.sleep });
    const order: string[] = [];
    await pacer.acquire(1);
    await pacer.acquire(1);
    // Chat 1 must wait a second; chat 2 queued behind it must not.
    const busy = pacer.acquire(1).then(() => order.push("chat 1"));
    const other = pacer.acquire(2).then(() => order.push("chat 2"));
    await Promise.all([busy, other]);
    expect(order).toEqual(["chat 2", "chat 1"]);
  });

  it("asks the store once per message when its own slots say how long to wait", async () => {
    const clock = manualClock();
    const inner = memoryPaceStore();
    let asked = 0;
    const store: PaceStore = {
      take: (chatId, now, l) => {
        asked++;
        return inner.take(chatId, now, l);
      },
      hold: (until, l) => inner.hold(until, l),
    };
    const pacer = createSendPacer({ store, limits, now: clock.now, sleep: clock.sleep });
    const times: number[] = [];
    // One chat past its burst, then more chats than the global burst at once.
    for (let i = 0; i < 4; i++) {
      await pacer.acquire(42);
      times.push(clock.now());
    }
    for (let chat = 1; chat <= 5; chat++) await pacer.acquire(chat);
    expect(times.map((x) => x - times[0]!)).toEqual([0, 0, 1000, 2000]);
    expect(asked).toBe(9);
  });

  it("serves waiting pushes before waiting edits, and edits with what pushes leave", async () => {
    const clock = manualClock();
    const pacer = createSendPacer({
      limits: { ...limits, pushReserve: 2 },
      now: clock.now,
      sleep: clock.sleep,
    });
    // A burst just went out: every slot from now on is contested.
    for (const chat of [10, 11, 12]) await pacer.acquire(chat);
    const order: string[] = [];
    const take = (chat: number, kind: "push" | "edit") =>
      pacer.acquire(chat, { kind }).then(() => order.push(`${kind} ${chat}`));
    // Edits queued first, pushes after: the pushes still go first.
    const waiting = [
      take(1, "edit"),
      take(2, "edit"),
      take(3, "push"),
      take(4, "push"),
      take(5, "push"),
    ];
    await Promise.all(waiting);
    expect(order.slice(0, 3).sort()).toEqual(["push 3", "push 4", "push 5"]);
    expect(order.slice(3).sort()).toEqual(["edit 1", "edit 2"]);
  });

  it("drops an edit that gives up waiting, and nobody waits on its behalf", async () => {
    const clock = manualClock();
    const pacer = createSendPacer({ limits, now: clock.now, sleep: clock.sleep });
    for (const chat of [1, 2, 3]) await pacer.acquire(chat);
    const start = clock.now();
    // An edit needs the whole burst free (300 ms away); it gives up at once.
    const stop = new AbortController();
    const edit = pacer.acquire(4, { kind: "edit", signal: stop.signal });
    stop.abort(new Error("stopped"));
    await expect(edit).rejects.toThrow("stopped");
    await pacer.acquire(5);
    // The push had its slot when due (100 ms), not after a wait on the edit's behalf.
    expect(clock.now() - start).toBeCloseTo(100, 0);
  });

  it("never lets more than the global rate through, whatever the number of chats", async () => {
    const clock = manualClock();
    const pacer = createSendPacer({ limits, now: clock.now, sleep: clock.sleep });
    const start = clock.now();
    for (let chat = 0; chat < 53; chat++) await pacer.acquire(chat);
    // 3 at once (the burst), then one every 100 ms: the 53rd at 5 s.
    expect(clock.now() - start).toBeCloseTo(5000, 0);
  });
});
