import { RedisAdapter } from "@grammyjs/storage-redis";
import type { Context } from "grammy";
import { afterAll, describe, expect, it } from "vitest";
import { chatOrder, dropStaleReads } from "../../src/bot/chat-order.ts";
import { readingPrefetched, redisPrefetch } from "../../src/bot/prefetch.ts";
import { createLogger } from "../../src/logger.ts";
import { epochKey, redisChatTurns } from "../../src/redis/chat-turns.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The chat's turn with the early read of the chat's state (create-bot.ts's order: the read goes
 * out first, the turn is taken after): an instance whose read went out just before another
 * instance finished the chat's previous update (saved the state, freed the turn) finds the turn
 * free at once, and must still not use what it read.
 */
describe("the chat's turn and the early read", () => {
  const t = testRedis("chat-order");
  afterAll(() => t.cleanup());
  const logger = createLogger({ level: "silent" });

  it("drops a read made before another instance ended the chat's previous update", async () => {
    const chat = "77";
    const sKey = `${t.prefix}session:${chat}`;
    const prefetch = redisPrefetch(t.redis);
    const session = readingPrefetched(
      new RedisAdapter<{ step: string }>({ instance: t.redis, ttl: 60 }),
      prefetch,
      (raw) => JSON.parse(raw.toString("utf8")) as { step: string },
    );
    await session.write(sKey, { step: "number" });
    // The other instance is handling update 1 of the chat.
    const other = redisChatTurns(t.connect(), t.prefix);
    const held = await other.take(chat, 1);
    const mine = redisChatTurns(t.redis, t.prefix);
    const ctx = { update: { update_id: 2 } } as Context;
    let seen: unknown;
    let tries = 0;
    await prefetch.middleware(() => [sKey, epochKey(t.prefix, chat)])(ctx, async () => {
      // Read sent; now the other instance saves the next step and frees the turn.
      await t.redis.set(sKey, JSON.stringify({ step: "amount" }));
      await held.release();
      await chatOrder(mine, () => chat, {
        logger,
        onTaken: async (c, turn) => {
          tries = turn.tries;
          await dropStaleReads(prefetch, t.prefix, () => chat)(c, turn);
        },
      })(ctx, async () => {
        seen = await session.read(sKey);
      });
    });
    expect(tries).toBe(1);
    expect(seen).toEqual({ step: "amount" });
  });

  it("keeps a read when no turn ended between it and the take", async () => {
    const chat = "78";
    const sKey = `${t.prefix}session:${chat}`;
    const prefetch = redisPrefetch(t.redis);
    const session = readingPrefetched(
      new RedisAdapter<{ step: string }>({ instance: t.redis, ttl: 60 }),
      prefetch,
      (raw) => JSON.parse(raw.toString("utf8")) as { step: string },
    );
    await session.write(sKey, { step: "number" });
    const mine = redisChatTurns(t.redis, t.prefix);
    const ctx = { update: { update_id: 3 } } as Context;
    let seen: unknown;
    await prefetch.middleware(() => [sKey, epochKey(t.prefix, chat)])(ctx, async () => {
      // Changed behind the read's back, with no turn: the read is used (one GET saved).
      await t.redis.set(sKey, JSON.stringify({ step: "changed" }));
      await chatOrder(mine, () => chat, {
        logger,
        onTaken: dropStaleReads(prefetch, t.prefix, () => chat),
      })(ctx, async () => {
        seen = await session.read(sKey);
      });
    });
    expect(seen).toEqual({ step: "number" });
  });
});

describe("the chat's turn when the early-read check fails", () => {
  const t = testRedis("chat-order-fail");
  afterAll(() => t.cleanup());
  const logger = createLogger({ level: "silent" });

  it("releases the turn, so the chat's next update takes it at once", async () => {
    const chat = "79";
    const turns = redisChatTurns(t.redis, t.prefix, { maxWaitMs: 2_000 });
    const first = { update: { update_id: 1 } } as Context;
    await expect(
      chatOrder(turns, () => chat, {
        logger,
        onTaken: async () => {
          throw new Error("read failed");
        },
      })(first, async () => {}),
    ).rejects.toThrow("read failed");
    const next = await turns.take(chat, 2);
    await next.release();
    expect(next.held).toBe(true);
    expect(next.tries).toBe(1);
  });
});
