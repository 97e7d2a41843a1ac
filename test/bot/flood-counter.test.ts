import { afterAll, describe, expect, it } from "vitest";
import {
  FLOOD_LIMIT,
  FLOOD_LOCAL_BELOW,
  FLOOD_WINDOW_MS,
  floodCounter,
} from "../../src/bot/flood.ts";
import { testRedis } from "../support/redis.ts";

describe("the flood limiter's Redis counter", () => {
  const t = testRedis("flood");
  afterAll(() => t.cleanup());

  it("counts, and gives a new counter the window as its expiry", async () => {
    const counter = floodCounter(t.redis, FLOOD_WINDOW_MS);
    const key = `${t.prefix}flood1`;
    expect(await counter.incr(key)).toBe(1);
    expect(await counter.incr(key)).toBe(2);
    const ttl = await t.redis.pttl(key);
    expect(ttl).toBeGreaterThan(FLOOD_WINDOW_MS - 2_000);
    expect(ttl).toBeLessThanOrEqual(FLOOD_WINDOW_MS);
  });

  it("repairs a counter left without expiry before it can reach the limit", async () => {
    const counter = floodCounter(t.redis, FLOOD_WINDOW_MS);
    const key = `${t.prefix}flood2`;
    // What INCR without its PEXPIRE leaves behind (an older version killed in between).
    await t.redis.set(key, "3");
    let n = 0;
    while (n < FLOOD_LIMIT - 1 && (await t.redis.pttl(key)) < 0) n = await counter.incr(key);
    expect(await t.redis.pttl(key)).toBeGreaterThan(0);
    expect(n).toBeLessThan(FLOOD_LIMIT);
  });

  it("writes a new user's counter with its expiry in one command", async () => {
    const calls: string[] = [];
    // The client as the counter sees it, telling which commands it sends.
    const counted = new Proxy(t.redis, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(String(prop));
          return value.apply(target, args);
        };
      },
    });
    const counter = floodCounter(counted, FLOOD_WINDOW_MS);
    const key = `${t.prefix}flood6`;
    expect(await counter.incr(key)).toBe(1);
    expect(calls).toEqual(["set"]);
    expect(await t.redis.pttl(key)).toBeGreaterThan(FLOOD_WINDOW_MS - 2_000);
  });

  it("counts a known user's updates in memory below a third of the limit, in Redis from there", async () => {
    const counter = floodCounter(t.redis, FLOOD_WINDOW_MS);
    const key = `${t.prefix}flood3`;
    expect(await counter.incr(key)).toBe(1);
    for (let n = 2; n < FLOOD_LOCAL_BELOW; n++) expect(await counter.incr(key)).toBe(n);
    // Redis has only the first (the user was new to this process).
    expect(await t.redis.get(key)).toBe("1");
    expect(await counter.incr(key)).toBe(FLOOD_LOCAL_BELOW);
    expect(await t.redis.get(key)).toBe(String(FLOOD_LOCAL_BELOW));
    expect(await counter.incr(key)).toBe(FLOOD_LOCAL_BELOW + 1);
    expect(await t.redis.get(key)).toBe(String(FLOOD_LOCAL_BELOW + 1));
  });

  it("checks the limit against every process's count", async () => {
    const key = `${t.prefix}flood4`;
    const a = floodCounter(t.redis, FLOOD_WINDOW_MS);
    const b = floodCounter(t.redis, FLOOD_WINDOW_MS);
    let last = 0;
    // Two processes taking turns: each lets fewer than FLOOD_LOCAL_BELOW through on its own count.
    for (let i = 0; i < FLOOD_LIMIT + 2 * FLOOD_LOCAL_BELOW; i++)
      last = await (i % 2 === 0 ? a : b).incr(key);
    expect(last).toBeGreaterThan(FLOOD_LIMIT);
    expect(Number(await t.redis.get(key))).toBeGreaterThan(FLOOD_LIMIT);
  });

  it("starts a new window in memory when the old one is over", async () => {
    let clock = 1_000_000;
    const counter = floodCounter(t.redis, FLOOD_WINDOW_MS, () => clock);
    const key = `${t.prefix}flood5`;
    for (let n = 1; n < FLOOD_LOCAL_BELOW; n++) await counter.incr(key);
    clock += FLOOD_WINDOW_MS;
    expect(await counter.incr(key)).toBe(1);
  });
});
