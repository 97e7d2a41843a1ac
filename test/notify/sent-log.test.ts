import { afterAll, describe, expect, it } from "vitest";
import { redisSentLog } from "../../src/notify/sent-log.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/** The order's sent log on real Redis: oldest first, the last 50 kept, the key expiring. */

const t = testRedis("sent-log");
afterAll(() => t.cleanup());

const entry = (at: number) => ({
  at,
  chatId: 7,
  kind: "push" as const,
  status: "success",
  ok: true,
});

describe("the sent log in Redis", () => {
  it("keeps the newest 50 entries, oldest first, under a key that expires", async () => {
    const log = redisSentLog(t.redis, t.prefix);
    await log.add("R1", entry(1));
    expect(await log.list("R1")).toEqual([entry(1)]);
    for (let at = 2; at <= 53; at++) await log.add("R1", entry(at));
    const kept = await log.list("R1");
    expect(kept).toHaveLength(50);
    expect(kept[0]?.at).toBe(4);
    expect(kept.at(-1)?.at).toBe(53);
    const ttl = await t.redis.ttl(keyspace(t.prefix).orderSent("R1"));
    expect(ttl).toBeGreaterThan(170 * 86_400);
  });

  it("lists the entries it reads and leaves out one that is not JSON (before: the list threw)", async () => {
    const log = redisSentLog(t.redis, t.prefix);
    await log.add("R2", entry(1));
    await t.redis.rpush(keyspace(t.prefix).orderSent("R2"), "{cut off", JSON.stringify({ at: 2 }));
    await log.add("R2", entry(3));
    expect(await log.list("R2")).toEqual([entry(1), entry(3)]);
  });
});
