import { afterAll, describe, expect, it } from "vitest";
import {
  type BlockedUsers,
  createMemoryBlocked,
  createRedisBlocked,
} from "../../src/accounts/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/**
 * One contract for the blocked list (issue 29), kept by the memory and the Redis store: a block
 * with its reason, by whom and when; blocking again replaces it (the record before is returned
 * for the audit log); unblocking deletes it; the list is newest first. On Redis a second
 * connection (another instance) sees a block at once.
 */

const redis = testRedis("blocked");
afterAll(() => redis.cleanup());

const block = (userId: number, at: number, reason = "abuse") => ({ userId, reason, by: 3001, at });

describe.each([
  ["memory", () => createMemoryBlocked()],
  [
    "redis",
    () => createRedisBlocked({ redis: redis.redis, prefix: `${redis.prefix}${Math.random()}:` }),
  ],
])("blocked users (%s)", (_name, make: () => BlockedUsers) => {
  it("blocks with a reason, and tells the record before and after", async () => {
    const s = make();
    expect(await s.isBlocked(5)).toBe(false);
    expect(await s.get(5)).toBeNull();
    const first = await s.block(block(5, 100, "  spam  "));
    expect(first.before).toBeNull();
    expect(first.after).toEqual({ userId: 5, reason: "spam", by: 3001, at: 100 });
    expect(await s.isBlocked(5)).toBe(true);
    expect(await s.get(5)).toEqual(first.after);
    expect(await s.isBlocked(6)).toBe(false);

    const again = await s.block(block(5, 200, "fraud"));
    expect(again.before).toEqual(first.after);
    expect((await s.get(5))?.reason).toBe("fraud");
  });

  it("unblocks: the record before, then nothing; unblocking again finds nothing", async () => {
    const s = make();
    await s.block(block(7, 100));
    expect((await s.unblock(7)).before).toMatchObject({ userId: 7, reason: "abuse" });
    expect(await s.isBlocked(7)).toBe(false);
    expect(await s.get(7)).toBeNull();
    expect((await s.unblock(7)).before).toBeNull();
  });

  it("lists everyone blocked, newest first, up to the limit", async () => {
    const s = make();
    expect(await s.list(10)).toEqual([]);
    await s.block(block(1, 300));
    await s.block(block(2, 100));
    await s.block(block(3, 200));
    expect((await s.list(10)).map((b) => b.userId)).toEqual([1, 3, 2]);
    expect((await s.list(2)).map((b) => b.userId)).toEqual([1, 3]);
    await s.unblock(3);
    expect((await s.list(10)).map((b) => b.userId)).toEqual([1, 2]);
  });

  it("refuses a malformed block (empty reason, bad id): nothing is stored", async () => {
    const s = make();
    await expect(s.block(block(8, 1, "   "))).rejects.toThrow();
    await expect(s.block(block(0, 1))).rejects.toThrow();
    await expect(s.block(block(9, 1, "x".repeat(301)))).rejects.toThrow();
    expect(await s.isBlocked(8)).toBe(false);
    expect(await s.list(10)).toEqual([]);
  });
});

describe("blocked users on Redis, across instances", () => {
  it("a block written by one connection holds at once for another", async () => {
    const prefix = `${redis.prefix}shared:`;
    const a = createRedisBlocked({ redis: redis.redis, prefix });
    const b = createRedisBlocked({ redis: redis.connect(), prefix });
    expect(await b.isBlocked(11)).toBe(false);
    await a.block(block(11, 1));
    expect(await b.isBlocked(11)).toBe(true);
    await b.unblock(11);
    expect(await a.isBlocked(11)).toBe(false);
  });

  it("skips a record nobody of ours wrote", async () => {
    const prefix = `${redis.prefix}garbage:`;
    const s = createRedisBlocked({ redis: redis.redis, prefix });
    await redis.redis.hset(keyspace(prefix).accountBlocked, "12", "not json");
    expect(await s.get(12)).toBeNull();
    expect(await s.list(10)).toEqual([]);
  });
});
