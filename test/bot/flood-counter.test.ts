import { afterAll, describe, expect, it } from "vitest";
import { FLOOD_LIMIT, FLOOD_WINDOW_MS, floodCounter } from "../../src/bot/flood.ts";
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
});
