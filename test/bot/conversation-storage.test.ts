import { deflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { deflatedRedisStorage } from "../../src/bot/conversation-storage.ts";
import { testRedis } from "../support/redis.ts";

describe("deflated conversation storage in Redis", () => {
  const t = testRedis("conv-store");
  afterAll(() => t.cleanup());
  // What a conversation holds: updates and Bot API answers, much of it repeated.
  const state = {
    replay: Array.from({ length: 6 }, (_, i) => ({
      message_id: i,
      from: {
        id: 7000000001,
        first_name: "Recharge Assistant",
        username: "recharge_assistant_bot",
      },
      chat: { id: 42, type: "private", first_name: "Sita" },
      text: `Step ${i}: Which mobile number should I recharge? (10 digits, NTC) ₹ रु`,
    })),
  };

  it("reads back what it wrote, smaller than its JSON, with the TTL set", async () => {
    const s = deflatedRedisStorage<typeof state>(t.redis, 3600);
    const key = `${t.prefix}conversation:1`;
    await s.write(key, state);
    expect(await s.read(key)).toEqual(state);
    const stored = await t.redis.getBuffer(key);
    expect(stored!.length).toBeLessThan(JSON.stringify(state).length / 2);
    const ttl = await t.redis.ttl(key);
    expect(ttl).toBeGreaterThan(3500);
    await s.delete(key);
    expect(await s.read(key)).toBeUndefined();
  });

  it("reads a conversation stored as plain JSON before the change", async () => {
    const s = deflatedRedisStorage<typeof state>(t.redis, 3600);
    const key = `${t.prefix}conversation:2`;
    await t.redis.set(key, JSON.stringify(state), "EX", 3600);
    expect(await s.read(key)).toEqual(state);
  });

  it("reads a conversation deflated at zlib's default level, as written before level 2", async () => {
    const s = deflatedRedisStorage<typeof state>(t.redis, 3600);
    const key = `${t.prefix}conversation:3`;
    const packed = deflateRawSync(Buffer.from(JSON.stringify(state)), {
      windowBits: 12,
      memLevel: 5,
    });
    await t.redis.set(key, Buffer.concat([Buffer.of(0), packed]), "EX", 3600);
    expect(await s.read(key)).toEqual(state);
  });
});
