import type { Context } from "grammy";
import { afterAll, describe, expect, it } from "vitest";
import { carryWithRelease } from "../../src/bot/carried-writes.ts";
import { chatOrder, dropStaleReads } from "../../src/bot/chat-order.ts";
import { decodeConversation, deflatedRedisStorage } from "../../src/bot/conversation-storage.ts";
import { earlyByTake, onceInTurn } from "../../src/bot/create-bot.ts";
import { DONE, redisUpdateClaims } from "../../src/bot/dedupe.ts";
import { redisIdleDeadlines } from "../../src/bot/idle.ts";
import { readingPrefetched, redisPrefetch } from "../../src/bot/prefetch.ts";
import { createLogger } from "../../src/logger.ts";
import {
  type ChatTurns,
  epochKey,
  redisChatTurns,
  type TurnWrite,
} from "../../src/redis/chat-turns.ts";
import type { RedisClient } from "../../src/redis/connection.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The update's writes carried by its chat's turn release (src/bot/carried-writes.ts): the
 * conversation state and the idle deadline reach Redis with the release's script, in order,
 * before the done mark and the freed turn; a failed one fails the update without its mark. Two
 * "instances" are two chat orders, each on a connection of its own.
 */
describe("writes carried by the chat's turn release", () => {
  const t = testRedis("carried-writes");
  afterAll(() => t.cleanup());
  const logger = createLogger({ level: "silent" });
  const keys = keyspace(t.prefix);
  const ctxOf = (id: number) => ({ update: { update_id: id } }) as Context;

  /** The bot's chat order with carried writes on `redis`, as create-bot.ts wires it. */
  const orderOn = (redis: RedisClient, chat: string, prefetch?: ReturnType<typeof redisPrefetch>) =>
    chatOrder(redisChatTurns(redis, t.prefix), () => chat, {
      logger,
      once: onceInTurn(redis, t.prefix, redisUpdateClaims(redis, t.prefix), prefetch, () => false),
      ...(prefetch ? { onTaken: dropStaleReads(prefetch, t.prefix, () => chat) } : {}),
      carry: true,
    });

  it("sends the conversation state and the idle arm with the release, not before", async () => {
    const redis = t.connect();
    const storage = deflatedRedisStorage<{ step: number }>(redis, 60);
    const idle = redisIdleDeadlines(redis, t.prefix);
    const conv = `${keys.conversationPrefix}k1`;
    const sent: string[] = [];
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = ((cmd: { name: string }) => {
      sent.push(cmd.name);
      return send(cmd as never);
    }) as typeof redis.sendCommand;
    await orderOn(redis, "k1")(ctxOf(11), async () => {
      await storage.write(conv, { step: 1 });
      await idle.arm(1001, 5_000, { locale: "en" });
      // Nothing written yet: both wait for the release.
      expect(await t.redis.exists(conv, keys.idleInfoOf(1001))).toBe(0);
    });
    expect(await storage.read(conv)).toEqual({ step: 1 });
    expect(await t.redis.zscore(keys.idleDue, "1001")).toBe("5000");
    expect(await t.redis.get(keys.update(11))).toBe(DONE);
    // No SET or ZADD of their own: they went inside the release's script.
    expect(sent.filter((n) => ["set", "zadd", "del"].includes(n))).toEqual([]);
    // A delete is carried too.
    await orderOn(redis, "k1")(ctxOf(12), async () => {
      await storage.delete(conv);
      expect(await t.redis.exists(conv)).toBe(1);
    });
    expect(await t.redis.exists(conv)).toBe(0);
  });

  it("writes for itself outside an update's turn", async () => {
    const storage = deflatedRedisStorage<{ step: number }>(t.redis, 60);
    const conv = `${keys.conversationPrefix}k2`;
    expect(carryWithRelease([{ command: "del", key: conv, args: [] }])).toBe(false);
    await storage.write(conv, { step: 1 });
    expect(await storage.read(conv)).toEqual({ step: 1 });
  });

  it("work the update left running writes at once once the update settled", async () => {
    const storage = deflatedRedisStorage<{ step: number }>(t.redis, 60);
    const conv = `${keys.conversationPrefix}k2b`;
    let go = () => {};
    const gate = new Promise<void>((r) => {
      go = r;
    });
    let late: Promise<void> = Promise.resolve();
    await orderOn(t.redis, "k2b")(ctxOf(22), async () => {
      // Started inside the update (its async context, so its carrier), writing after it settled.
      late = gate.then(() => storage.write(conv, { step: 2 }));
    });
    expect(await t.redis.exists(conv)).toBe(0);
    go();
    await late;
    // The carrier is closed: written at once, not left to a release that went already.
    expect(await storage.read(conv)).toEqual({ step: 2 });
  });

  it("a failed write fails the update: no later write, no done mark, the turn freed", async () => {
    const wrong = `${keys.conversationPrefix}k3:wrong`;
    await t.redis.set(wrong, "a string, not a sorted set");
    const conv = `${keys.conversationPrefix}k3`;
    await expect(
      orderOn(t.redis, "k3")(ctxOf(31), async () => {
        carryWithRelease([
          { command: "set", key: conv, args: ["first", "EX", 60] },
          { command: "zadd", key: wrong, args: [1, "x"] },
          { command: "set", key: `${conv}:after`, args: ["after", "EX", 60] },
        ]);
      }),
    ).rejects.toThrow(/WRONGTYPE/);
    // In order up to the failure, nothing after it, and the update not marked done.
    expect(await t.redis.get(conv)).toBe("first");
    expect(await t.redis.exists(`${conv}:after`)).toBe(0);
    expect(await t.redis.get(keys.update(31))).toBeNull();
    // The turn was freed: the chat's next update takes it at once, and its redelivery runs again.
    let ran = 0;
    await orderOn(t.redis, "k3")(ctxOf(31), async () => void ran++);
    expect(ran).toBe(1);
    const next = await redisChatTurns(t.redis, t.prefix).take("k3", 32);
    expect(next.tries).toBe(1);
    await next.release();
  });

  it("another instance waiting for the turn reads the state the holder carried", async () => {
    const chat = "k4";
    const conv = `${keys.conversationPrefix}${chat}`;
    const ra = t.connect();
    const rb = t.connect();
    const storageA = deflatedRedisStorage<{ step: number }>(ra, 60);
    await storageA.write(conv, { step: 1 });
    const prefetchB = redisPrefetch(rb);
    const storageB = readingPrefetched(
      deflatedRedisStorage<{ step: number }>(rb, 60),
      prefetchB,
      (raw) => decodeConversation<{ step: number }>(raw),
    );
    let seenByB: { step: number } | undefined;
    let b: Promise<void> = Promise.resolve();
    await orderOn(ra, chat)(ctxOf(41), async () => {
      // B's update of the chat starts while A holds the turn: its early read sees step 1.
      const early = prefetchB.middleware<Context>(() => [conv, epochKey(t.prefix, chat)]);
      const orderB = orderOn(rb, chat, prefetchB);
      b = (async () => {
        await early(ctxOf(42), async () => {
          await orderB(ctxOf(42), async () => {
            seenByB = await storageB.read(conv);
          });
        });
      })();
      await new Promise((r) => setTimeout(r, 50));
      await storageA.write(conv, { step: 2 });
    });
    await b;
    // B waited for the turn, dropped its early read and read A's carried state.
    expect(seenByB).toEqual({ step: 2 });
  });
});

describe("the early read made by the take (one Redis node)", () => {
  const t = testRedis("early-by-take");
  afterAll(() => t.cleanup());
  const logger = createLogger({ level: "silent" });
  const keys = keyspace(t.prefix);
  const ctxOf = (id: number) => ({ update: { update_id: id } }) as Context;

  it("reads in the take's script what the holder saved before freeing the turn, with no read of its own", async () => {
    const chat = "e1";
    const conv = `${keys.conversationPrefix}${chat}`;
    const ra = t.connect();
    const rb = t.connect();
    const storageA = deflatedRedisStorage<{ step: number }>(ra, 60);
    await storageA.write(conv, { step: 1 });
    const orderOf = (redis: RedisClient, prefetch?: ReturnType<typeof redisPrefetch>) =>
      chatOrder(redisChatTurns(redis, t.prefix, { pollMs: 10 }), () => chat, {
        logger,
        once: onceInTurn(
          redis,
          t.prefix,
          redisUpdateClaims(redis, t.prefix),
          prefetch,
          () => false,
        ),
        ...(prefetch ? { early: earlyByTake(prefetch) } : {}),
        carry: true,
      });
    const prefetchB = redisPrefetch(rb);
    const storageB = readingPrefetched(
      deflatedRedisStorage<{ step: number }>(rb, 60),
      prefetchB,
      (raw) => decodeConversation<{ step: number }>(raw),
    );
    const sentByB: string[] = [];
    const send = rb.sendCommand.bind(rb);
    rb.sendCommand = ((cmd: { name: string }) => {
      sentByB.push(cmd.name);
      return send(cmd as never);
    }) as typeof rb.sendCommand;
    let seenByB: { step: number } | undefined;
    let b: Promise<void> = Promise.resolve();
    await orderOf(ra)(ctxOf(51), async () => {
      const early = prefetchB.middleware<Context>(() => [conv, keys.update(52)], {
        supplied: true,
      });
      const orderB = orderOf(rb, prefetchB);
      b = (async () => {
        await early(ctxOf(52), async () => {
          await orderB(ctxOf(52), async () => {
            seenByB = await storageB.read(conv);
          });
        });
      })();
      // B polls for the turn meanwhile.
      await new Promise((r) => setTimeout(r, 50));
      await storageA.write(conv, { step: 2 });
    });
    await b;
    expect(seenByB).toEqual({ step: 2 });
    // The state and the done mark came with the take: no GET, no MGET of B's own.
    expect(sentByB.filter((n) => n === "get" || n === "mget")).toEqual([]);
    expect(await t.redis.get(keys.update(52))).toBe(DONE);
  });

  it("hands the take's values over as they are (binary, and null for a key not there)", async () => {
    const turns = redisChatTurns(t.redis, t.prefix);
    const bytes = Buffer.from([0, 255, 1, 128]);
    await t.redis.set(`${t.prefix}bin`, bytes);
    const turn = await turns.take("e2", 61, { read: [`${t.prefix}bin`, `${t.prefix}none`] });
    expect(turn.read).toEqual([bytes, null]);
    expect(turn.epoch).toBe("0");
    await turn.release();
    // Taken again (tried as free, its own freed value): read as well.
    const again = await turns.take("e2", 62, { read: [`${t.prefix}bin`] });
    expect(again.read).toEqual([bytes]);
    expect(again.epoch.startsWith("f:")).toBe(true);
    await again.release();
    // Nothing asked: nothing read.
    const plain = await turns.take("e2", 63);
    expect(plain.read).toBeUndefined();
    await plain.release();
  });
});

describe("the release carrying writes: guarded, allow-listed, its answer lost", () => {
  const t = testRedis("carried-guard");
  afterAll(() => t.cleanup());
  const logger = createLogger({ level: "silent" });
  const keys = keyspace(t.prefix);
  const ctxOf = (id: number) => ({ update: { update_id: id } }) as Context;
  const orderWith = (
    turns: ChatTurns,
    redis: RedisClient,
    chat: string,
    more: { prefetch?: ReturnType<typeof redisPrefetch> } = {},
  ) =>
    chatOrder(turns, () => chat, {
      logger,
      once: onceInTurn(
        redis,
        t.prefix,
        redisUpdateClaims(redis, t.prefix),
        more.prefetch,
        () => false,
      ),
      ...(more.prefetch ? { early: earlyByTake(more.prefetch) } : {}),
      carry: true,
    });

  it("a release resent after a reconnect writes nothing over the later updates' state", async () => {
    const chat = "g1";
    const chatId = 9001;
    const conv = `${keys.conversationPrefix}${chat}`;
    const ra = t.connect();
    const rb = t.connect();
    const scripts: Array<{ name: string; args: unknown[] }> = [];
    const send = ra.sendCommand.bind(ra);
    ra.sendCommand = ((cmd: { name: string; args: unknown[] }) => {
      if (cmd.name === "evalsha" || cmd.name === "eval")
        scripts.push({ name: cmd.name, args: [...cmd.args] });
      return send(cmd as never);
    }) as typeof ra.sendCommand;
    const storageA = deflatedRedisStorage<{ step: number }>(ra, 60);
    const storageB = deflatedRedisStorage<{ step: number }>(rb, 60);
    // A: the state S_A and the idle deadline D_A, carried by its release.
    await orderWith(
      redisChatTurns(ra, t.prefix),
      ra,
      chat,
    )(ctxOf(91), async () => {
      await storageA.write(conv, { step: 1 });
      await redisIdleDeadlines(ra, t.prefix).arm(chatId, 5_000, { locale: "en" });
    });
    expect(await t.redis.zscore(keys.idleDue, String(chatId))).toBe("5000");
    const release = scripts.at(-1);
    if (release === undefined) throw new Error("no release script seen");
    const resend = () => t.redis.call(release.name, ...(release.args as string[]));
    // Resent before anyone else took the turn: this release's own freed value, it ran already.
    const first = await resend();
    // B takes the turn: the order placed, the deadline disarmed, a new state saved.
    await orderWith(
      redisChatTurns(rb, t.prefix),
      rb,
      chat,
    )(ctxOf(92), async () => {
      expect(await redisIdleDeadlines(rb, t.prefix).disarm(chatId, 5_000)).toBe(true);
      await storageB.write(conv, { step: 2 });
    });
    // A's connection resends its release: no write of it made again.
    const second = await resend();
    expect(await storageB.read(conv)).toEqual({ step: 2 });
    expect(await t.redis.zscore(keys.idleDue, String(chatId))).toBeNull();
    expect([first, second]).toEqual([
      [1, "", "again"],
      [0, "", "lost"],
    ]);
    // B took the turn later still, and it is free for the next update.
    const next = await redisChatTurns(rb, t.prefix).take(chat, 93);
    expect(next.held).toBe(true);
    await next.release();
  });

  it("refuses a carried command it does not know, before any write", async () => {
    const chat = "g2";
    const key = `${t.prefix}g2:counter`;
    await expect(
      orderWith(
        redisChatTurns(t.redis, t.prefix),
        t.redis,
        chat,
      )(ctxOf(101), async () => {
        carryWithRelease([
          { command: "set", key: `${key}:before`, args: ["x"] },
          { command: "incr" as "set", key, args: [] },
        ]);
      }),
    ).rejects.toThrow(/refused command incr/);
    expect(await t.redis.exists(key, `${key}:before`, keys.update(101))).toBe(0);
  });

  it("lets go of the carried writes once released", async () => {
    const inner = redisChatTurns(t.redis, t.prefix);
    let passed: readonly TurnWrite[] = [];
    const turns: ChatTurns = {
      holder: (chat) => inner.holder(chat),
      async take(chat, id, opts) {
        const turn = await inner.take(chat, id, opts);
        return {
          ...turn,
          release: (mark, writes) => {
            passed = writes ?? [];
            return turn.release(mark, writes);
          },
        };
      },
    };
    await orderWith(
      turns,
      t.redis,
      "g3",
    )(ctxOf(111), async () => {
      carryWithRelease([{ command: "set", key: `${t.prefix}g3:v`, args: ["big value"] }]);
    });
    expect(await t.redis.get(`${t.prefix}g3:v`)).toBe("big value");
    expect(passed).toEqual([]);
  });

  /** `inner`'s turns whose release answers with a connection's error, after running or not. */
  const replyLost = (inner: ChatTurns, ran: boolean): ChatTurns => ({
    holder: (chat) => inner.holder(chat),
    async take(chat, id, opts) {
      const turn = await inner.take(chat, id, opts);
      return {
        ...turn,
        async release(mark, writes) {
          if (ran) await turn.release(mark, writes);
          throw new Error("Connection is closed.");
        },
      };
    },
  });

  it("a release whose answer was lost is done when its done mark is there", async () => {
    const conv = `${keys.conversationPrefix}g4`;
    const storage = deflatedRedisStorage<{ step: number }>(t.redis, 60);
    const turns = replyLost(redisChatTurns(t.redis, t.prefix), true);
    await orderWith(
      turns,
      t.redis,
      "g4",
    )(ctxOf(121), async () => {
      await storage.write(conv, { step: 4 });
    });
    expect(await storage.read(conv)).toEqual({ step: 4 });
    expect(await t.redis.get(keys.update(121))).toBe(DONE);
    // Not run (no mark): the update fails, as before.
    const lost = replyLost(redisChatTurns(t.redis, t.prefix), false);
    await expect(
      orderWith(
        lost,
        t.redis,
        "g5",
      )(ctxOf(131), async () => {
        await storage.write(`${keys.conversationPrefix}g5`, { step: 5 });
      }),
    ).rejects.toThrow(/Connection is closed/);
  });

  it("a turn whose wait ran out: the adapters read Redis, writes go at once, the update ends", async () => {
    const chat = "g6";
    const conv = `${keys.conversationPrefix}g6`;
    const storage = deflatedRedisStorage<{ step: number }>(t.redis, 60);
    await storage.write(conv, { step: 1 });
    // A holder stuck on the chat's turn (renewed until released).
    const stuck = await redisChatTurns(t.connect(), t.prefix).take(chat, 140);
    const rb = t.connect();
    const prefetch = redisPrefetch(rb);
    const read = readingPrefetched(
      deflatedRedisStorage<{ step: number }>(rb, 60),
      prefetch,
      (raw) => decodeConversation<{ step: number }>(raw),
    );
    const turns = redisChatTurns(rb, t.prefix, { maxWaitMs: 30, pollMs: 10 });
    let seen: { step: number } | undefined;
    const early = prefetch.middleware<Context>(() => [conv, keys.update(141)], { supplied: true });
    await early(ctxOf(141), async () => {
      await orderWith(turns, rb, chat, { prefetch })(ctxOf(141), async () => {
        seen = await read.read(conv);
        await read.write(conv, { step: 2 });
      });
    });
    expect(seen).toEqual({ step: 1 });
    // Out of turn: written at once (a release of a turn not held carries nothing).
    expect(await storage.read(conv)).toEqual({ step: 2 });
    await stuck.release();
  });

  it("a read before the take's values are handed in reads Redis, it does not wait for them", async () => {
    const prefetch = redisPrefetch(t.redis);
    const key = `${t.prefix}g7`;
    let before: unknown = "pending";
    await prefetch.middleware<Context>(() => [key], { supplied: true })(ctxOf(151), async () => {
      const taken = prefetch.take(key);
      const peeked = prefetch.peek(151, key);
      // Settled at once (undefined: read Redis), not left waiting for a supply.
      before = await Promise.race([
        Promise.all([taken, peeked]),
        new Promise((r) => setImmediate(() => r("pending"))),
      ]);
    });
    expect(before).toEqual([undefined, undefined]);
  });
});
