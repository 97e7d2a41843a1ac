import { RedisAdapter } from "@grammyjs/storage-redis";
import type { Context } from "grammy";
import { afterAll, describe, expect, it } from "vitest";
import { decodeConversation, deflatedRedisStorage } from "../../src/bot/conversation-storage.ts";
import { readingPrefetched, redisPrefetch } from "../../src/bot/prefetch.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The session and the conversation state read with one MGET as an update starts: the adapters
 * get what Redis held then, each value once and only within that update.
 */
describe("prefetched session and conversation reads", () => {
  const t = testRedis("prefetch");
  afterAll(() => t.cleanup());
  const ctx = {} as Context;

  function stores() {
    const prefetch = redisPrefetch(t.redis);
    const session = readingPrefetched(
      new RedisAdapter<{ n: number }>({ instance: t.redis, ttl: 60 }),
      prefetch,
      (raw) => JSON.parse(raw.toString("utf8")) as { n: number },
    );
    const conversation = readingPrefetched(
      deflatedRedisStorage<{ steps: string[] }>(t.redis, 60),
      prefetch,
      (raw) => decodeConversation<{ steps: string[] }>(raw),
    );
    return { prefetch, session, conversation };
  }

  it("hands each adapter its value from the one read, and reads Redis again after that", async () => {
    const { prefetch, session, conversation } = stores();
    const sKey = `${t.prefix}session:1`;
    const cKey = `${t.prefix}conversation:1`;
    await session.write(sKey, { n: 1 });
    await conversation.write(cKey, { steps: ["a"] });
    const seen: unknown[] = [];
    await prefetch.middleware(() => [sKey, cKey, `${t.prefix}session:none`])(ctx, async () => {
      // Changed behind the prefetch's back: the update still sees what it read as it started...
      await t.redis.set(sKey, JSON.stringify({ n: 2 }));
      seen.push(await session.read(sKey), await conversation.read(cKey));
      seen.push(await session.read(`${t.prefix}session:none`));
      // ...once: a second read asks Redis.
      seen.push(await session.read(sKey));
    });
    expect(seen).toEqual([{ n: 1 }, { steps: ["a"] }, undefined, { n: 2 }]);
  });

  it("drops what the update did not read when it ends, even when it fails", async () => {
    const { prefetch, session } = stores();
    const key = `${t.prefix}session:2`;
    await session.write(key, { n: 1 });
    await expect(
      prefetch.middleware(() => [key])(ctx, async () => {
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    await prefetch.middleware(() => [key])(ctx, async () => {});
    await session.write(key, { n: 3 });
    // Nothing of the earlier updates is left to be handed out.
    expect(prefetch.take(key)).toBeUndefined();
    expect(await session.read(key)).toEqual({ n: 3 });
  });
});
