import { limit } from "@grammyjs/ratelimiter";
import { RedisAdapter } from "@grammyjs/storage-redis";
import { Bot, type Context, type SessionFlavor, session } from "grammy";
import type { Update, UserFromGetMe } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dropRedelivered, redisUpdateClaims } from "../../src/bot/dedupe.ts";
import { redisUpdatePrefetch } from "../../src/bot/update-prefetch.ts";
import { testRedis } from "../orders/support.ts";

/** The prefetching middleware and adapters on a real Redis, with grammY's own session plugin. */

type Ctx = Context & SessionFlavor<{ n: number }>;

const botInfo = {
  id: 1,
  is_bot: true,
  first_name: "Test",
  username: "test_bot",
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
} as UserFromGetMe;

const FLOOD = `
local n = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

let nextUpdate = 1;
const textUpdate = (chatId: number, text = "hi"): Update => ({
  update_id: nextUpdate++,
  message: {
    message_id: nextUpdate,
    date: 0,
    chat: { id: chatId, type: "private", first_name: "U" },
    from: { id: chatId, is_bot: false, first_name: "U" },
    text,
  },
});

describe("update prefetch", () => {
  let r: ReturnType<typeof testRedis>;
  beforeEach(() => {
    r = testRedis("prefetch");
  });
  afterEach(async () => {
    await r.cleanup();
  });

  function setup(handler: (ctx: Ctx) => unknown, opts: { claims?: boolean } = {}) {
    const ttl = 3600;
    const prefetch = redisUpdatePrefetch<Ctx>(r.redis, {
      keys: {
        session: (ctx) => `${r.prefix}session:${ctx.chat?.id}`,
        conversation: (ctx) => `${r.prefix}conversation:${ctx.chat?.id}`,
        flood: (ctx) => `${r.prefix}flood${ctx.from?.id}`,
      },
      sessionTtlSeconds: ttl,
      flood: { lua: FLOOD, windowMs: 10_000 },
    });
    const bot = new Bot<Ctx>("1:test", { botInfo });
    bot.use(prefetch.middleware);
    if (opts.claims) {
      bot.use(
        dropRedelivered(redisUpdateClaims(r.redis, r.prefix), {
          onContended: prefetch.forget,
          pollMs: 20,
        }),
      );
    }
    bot.use(
      session({
        initial: () => ({ n: 0 }),
        storage: prefetch.storage(new RedisAdapter({ instance: r.redis, ttl }), {
          skipUnchangedWrites: true,
        }),
        prefix: `${r.prefix}session:`,
        getSessionKey: (ctx) => ctx.chat?.id.toString(),
      }),
    );
    bot.use(
      limit({
        timeFrame: 10_000,
        limit: 100,
        storageClient: prefetch.floodCounter,
        keyPrefix: `${r.prefix}flood`,
        keyGenerator: (ctx) => ctx.from?.id.toString(),
      }),
    );
    bot.on("message", handler);
    return { bot, prefetch, ttl };
  }

  it("serves the session from the batch, writes it when it changed and refreshes its TTL when not", async () => {
    const seen: number[] = [];
    const { bot, prefetch, ttl } = setup((ctx) => {
      seen.push(ctx.session.n);
      if (ctx.message?.text === "inc") ctx.session.n++;
    });
    const key = `${r.prefix}session:77`;
    await r.redis.set(key, JSON.stringify({ n: 5 }), "EX", 10);

    await bot.handleUpdate(textUpdate(77, "look"));
    expect(seen).toEqual([5]);
    expect(prefetch.stats).toMatchObject({ hits: 1, misses: 0, unchangedWrites: 1 });
    // Not rewritten, yet it lives for the session TTL from this update on.
    expect(await r.redis.ttl(key)).toBeGreaterThan(ttl - 5);

    await bot.handleUpdate(textUpdate(77, "inc"));
    await bot.handleUpdate(textUpdate(77, "look"));
    expect(seen).toEqual([5, 5, 6]);
    expect(JSON.parse((await r.redis.get(key)) ?? "null")).toEqual({ n: 6 });
    expect(prefetch.stats).toMatchObject({ hits: 3, misses: 0, unchangedWrites: 2 });
  });

  it("starts a new chat's session from scratch and stores it", async () => {
    const { bot } = setup((ctx) => {
      ctx.session.n = 1;
    });
    await bot.handleUpdate(textUpdate(78));
    expect(JSON.parse((await r.redis.get(`${r.prefix}session:78`)) ?? "null")).toEqual({ n: 1 });
  });

  it("counts one flood hit per update, with an expiry", async () => {
    const { bot } = setup(() => undefined);
    for (let i = 0; i < 3; i++) await bot.handleUpdate(textUpdate(79));
    expect(await r.redis.get(`${r.prefix}flood79`)).toBe("3");
    expect(await r.redis.pttl(`${r.prefix}flood79`)).toBeGreaterThan(0);
  });

  it("reads afresh when the update's claim had to wait for another holder", async () => {
    const seen: number[] = [];
    const { bot, prefetch } = setup(
      (ctx) => {
        seen.push(ctx.session.n);
      },
      { claims: true },
    );
    const key = `${r.prefix}session:80`;
    await r.redis.set(key, JSON.stringify({ n: 1 }), "EX", 60);
    const update = textUpdate(80);
    // Another process holds this update (a redelivery) and writes the session before its lease lapses.
    await r.redis.set(`${r.prefix}update:${update.update_id}`, "1:other", "PX", 300);
    const handled = bot.handleUpdate(update);
    await new Promise((res) => setTimeout(res, 100));
    await r.redis.set(key, JSON.stringify({ n: 2 }), "EX", 60);
    await handled;
    expect(seen).toEqual([2]);
    expect(prefetch.stats.misses).toBe(1);
  });
});
