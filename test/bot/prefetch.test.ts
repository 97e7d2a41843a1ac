import { RedisAdapter } from "@grammyjs/storage-redis";
import type { Context } from "grammy";
import { Cluster } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { decodeConversation, deflatedRedisStorage } from "../../src/bot/conversation-storage.ts";
import { dropRedelivered, redisUpdateClaims } from "../../src/bot/dedupe.ts";
import { readingPrefetched, redisPrefetch } from "../../src/bot/prefetch.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The session and the conversation state read with one MGET as an update starts: the adapters
 * get what Redis held then, each value once and only within that update.
 */
describe("prefetched session and conversation reads", () => {
  const t = testRedis("prefetch");
  afterAll(() => t.cleanup());
  const ctx = { update: { update_id: 1 } } as Context;

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
    expect(await prefetch.take(key)).toBeUndefined();
    expect(await session.read(key)).toEqual({ n: 3 });
  });

  // Sent before the update's claim (one round trip for both): what was read holds only when the
  // claim was taken at once. A claim that waited for another process may find the state that
  // process saved meanwhile.
  it("uses a read sent with the claim when the claim is taken at once", async () => {
    const { prefetch, session } = stores();
    const key = `${t.prefix}session:3`;
    await session.write(key, { n: 1 });
    const claims = prefetch.gate(redisUpdateClaims(t.redis, `${t.prefix}claims3:`));
    const update = { update: { update_id: 301 } } as Context;
    const seen: unknown[] = [];
    await prefetch.middleware(() => [key])(update, async () => {
      await dropRedelivered(claims)(update, async () => {
        // Changed after the read went out: the update sees what it read.
        await t.redis.set(key, JSON.stringify({ n: 2 }));
        seen.push(await session.read(key));
      });
    });
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("reads again when the claim had to wait for another holder", async () => {
    const { prefetch, session } = stores();
    const key = `${t.prefix}session:4`;
    await session.write(key, { n: 1 });
    const inner = redisUpdateClaims(t.redis, `${t.prefix}claims4:`);
    const claims = prefetch.gate(inner);
    // Another process holds update 401 and saves the session before its lease runs out.
    expect(await inner.claim(401, 150)).toBe(true);
    const update = { update: { update_id: 401 } } as Context;
    const seen: unknown[] = [];
    const handled = prefetch.middleware(() => [key])(update, async () => {
      await dropRedelivered(claims, { pollMs: 20, maxWaitMs: 2_000 })(update, async () => {
        seen.push(await session.read(key));
      });
    });
    await t.redis.set(key, JSON.stringify({ n: 2 }));
    await handled;
    expect(seen).toEqual([{ n: 2 }]);
  });

  it("on a Cluster reads the epoch (the last key) first, the others once it answered", async () => {
    // A holder saves its state before its release moves the epoch: state read after the epoch's
    // answer is at least as new as that epoch. Sent together, a session answered before a save
    // and an epoch answered after the release passed for current together.
    const cluster = new Cluster([{ host: "127.0.0.1", port: 1 }], { lazyConnect: true });
    const sent: string[] = [];
    let answerEpoch: (value: Buffer) => void = () => {};
    Object.assign(cluster, {
      getBuffer: (key: string) => {
        sent.push(key);
        if (key !== "epoch") return Promise.resolve(Buffer.from(`${key} value`));
        return new Promise<Buffer>((resolve) => {
          answerEpoch = resolve;
        });
      },
    });
    try {
      const prefetch = redisPrefetch(cluster);
      await prefetch.middleware(() => ["session", "conversation", "epoch"])(ctx, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        expect(sent).toEqual(["epoch"]);
        answerEpoch(Buffer.from("f:1"));
        expect((await prefetch.take("session"))?.toString()).toBe("session value");
        expect((await prefetch.take("epoch"))?.toString()).toBe("f:1");
        expect(sent).toEqual(["epoch", "session", "conversation"]);
      });
    } finally {
      cluster.disconnect();
    }
  });
});
