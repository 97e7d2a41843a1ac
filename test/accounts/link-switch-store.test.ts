import { afterAll, describe, expect, it } from "vitest";
import {
  createMemoryLinks,
  createRedisLinks,
  LINK_CODE_MS,
  type LinkStore,
  type Phone,
} from "../../src/accounts/index.ts";
import { testRedis } from "../support/redis.ts";

/**
 * A switch waiting for a chat's Confirm or Cancel (accounts/links.ts `holdSwitch`): kept for a
 * code's life, taken once, and never a link by itself. One contract for memory and Redis.
 */

const redis = testRedis("link-switch");
afterAll(() => redis.cleanup());

const pending = { from: 1001, personId: 2002, phone: "9779800051001" as Phone, seal: "s" };

describe.each([
  ["memory", () => createMemoryLinks()],
  [
    "redis",
    () => createRedisLinks({ redis: redis.redis, prefix: `${redis.prefix}${Math.random()}:` }),
  ],
])("a waiting link switch (%s)", (_name, make: () => LinkStore) => {
  it("is kept, read, taken once, and links nothing", async () => {
    const s = make();
    await s.link(7, 1001);
    expect(await s.switchOf(7)).toBeNull();
    await s.holdSwitch(7, pending);
    expect(await s.switchOf(7)).toEqual(pending);
    expect(await s.linkOf(7)).toBe(1001);
    expect(await s.takeSwitch(7)).toEqual(pending);
    expect(await s.takeSwitch(7)).toBeNull();
    expect(await s.switchOf(7)).toBeNull();
    expect(await s.linkOf(7)).toBe(1001);
  });
});

describe("its life", () => {
  it("ends with a code's (memory clock)", async () => {
    let now = 1_000;
    const s = createMemoryLinks(() => now);
    await s.holdSwitch(9, pending);
    now += LINK_CODE_MS;
    expect(await s.takeSwitch(9)).toBeNull();
  });

  it("is a code's on Redis (its PX)", async () => {
    const prefix = `${redis.prefix}ttl:`;
    const s = createRedisLinks({ redis: redis.redis, prefix });
    await s.holdSwitch(9, pending);
    const keys = await redis.redis.keys(`${prefix}*linkswitch*`);
    expect(keys).toHaveLength(1);
    const ttl = await redis.redis.pttl(keys[0] ?? "");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(LINK_CODE_MS);
  });
});
