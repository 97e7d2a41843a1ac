import type { Context } from "grammy";
import { Cluster } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { chatOrder, dropStaleReads, type OnceInTurn } from "../../src/bot/chat-order.ts";
import { earlyReadKeys, onceInTurn } from "../../src/bot/create-bot.ts";
import { DONE, redisUpdateClaims } from "../../src/bot/dedupe.ts";
import { redisPrefetch } from "../../src/bot/prefetch.ts";
import { createLogger } from "../../src/logger.ts";
import {
  type ChatTurns,
  epochKey,
  type HeldTurn,
  type MarkOnRelease,
  redisChatTurns,
} from "../../src/redis/chat-turns.ts";
import type { RedisClient } from "../../src/redis/connection.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/**
 * chatOrder's `once`: each update of a chat once, decided in the chat's turn by its done mark
 * (create-bot.ts wires it so; these tests wire it the same way).
 */
describe("chatOrder once: the done mark in the chat's turn", () => {
  const t = testRedis("chat-order-once");
  afterAll(() => t.cleanup());
  const logger = createLogger({ level: "silent" });
  const keys = keyspace(t.prefix);
  const ctxOf = (id: number) => ({ update: { update_id: id } }) as Context;

  /** `once` as the bot builds it (create-bot.ts), over `redis`, with an optional early read. */
  const onceOver = (
    redis: RedisClient,
    prefetch?: ReturnType<typeof redisPrefetch>,
  ): OnceInTurn<Context> =>
    onceInTurn(redis, t.prefix, redisUpdateClaims(redis, t.prefix), prefetch, (err) => {
      return err instanceof Error && err.message === "permanent";
    });

  it("marks an update done when it succeeds or fails for good, not when a retry may fix it", async () => {
    const order = chatOrder(redisChatTurns(t.redis, t.prefix), () => "c1", {
      logger,
      once: onceOver(t.redis),
    });
    await order(ctxOf(101), async () => {});
    await expect(
      order(ctxOf(102), async () => {
        throw new Error("permanent");
      }),
    ).rejects.toThrow("permanent");
    await expect(
      order(ctxOf(103), async () => {
        throw new Error("transient");
      }),
    ).rejects.toThrow("transient");
    expect(await t.redis.get(keys.update(101))).toBe(DONE);
    expect(await t.redis.get(keys.update(102))).toBe(DONE);
    expect(await t.redis.get(keys.update(103))).toBeNull();
    // The failed one is handled again on its redelivery, the done ones are not.
    let ran = 0;
    for (const id of [101, 102, 103]) await order(ctxOf(id), async () => void ran++);
    expect(ran).toBe(1);
  });

  it("writes no mark for a redelivery it drops", async () => {
    let asked = 0;
    const once: OnceInTurn<Context> = {
      ...onceOver(t.redis),
      // Said done without a mark in Redis: a drop that wrote one would show.
      isDone: async () => {
        asked++;
        return true;
      },
    };
    let ran = 0;
    await chatOrder(redisChatTurns(t.redis, t.prefix), () => "c2", { logger, once })(
      ctxOf(201),
      async () => void ran++,
    );
    expect([asked, ran]).toEqual([1, 0]);
    expect(await t.redis.get(keys.update(201))).toBeNull();
    // And the turn was freed: the chat's next update takes it at once.
    const next = await redisChatTurns(t.redis, t.prefix).take("c2", 202);
    expect(next.tries).toBe(1);
    await next.release();
  });

  it("when the wait runs out, drops the update the turn's holder is on and handles any other", async () => {
    const other = redisChatTurns(t.connect(), t.prefix);
    const held = await other.take("c3", 301);
    const impatient = redisChatTurns(t.redis, t.prefix, { maxWaitMs: 1, pollMs: 1 });
    const order = chatOrder(impatient, () => "c3", { logger, once: onceOver(t.redis) });
    const ran: number[] = [];
    await order(ctxOf(301), async () => void ran.push(301));
    await order(ctxOf(302), async () => void ran.push(302));
    expect(ran).toEqual([302]);
    // The holder's own turn was not freed by the drop; the handled one wrote its mark.
    expect(await other.holder("c3")).toBe(301);
    expect(await t.redis.get(keys.update(301))).toBeNull();
    expect(await t.redis.get(keys.update(302))).toBe(DONE);
    await held.release();
  });

  describe("the done mark read early", () => {
    /** Runs update `id` of `chat` with the early read sent before `between` runs. */
    async function run(
      chat: string,
      id: number,
      turns: ChatTurns,
      between: () => Promise<void>,
    ): Promise<number> {
      const prefetch = redisPrefetch(t.redis);
      const order = chatOrder(turns, () => chat, {
        logger,
        onTaken: dropStaleReads(prefetch, t.prefix, () => chat),
        once: onceOver(t.redis, prefetch),
      });
      let ran = 0;
      const early = prefetch.middleware(() => [epochKey(t.prefix, chat), keys.update(id)]);
      await early(ctxOf(id), async () => {
        await between();
        await order(ctxOf(id), async () => void ran++);
      });
      return ran;
    }

    it("is used when the turn was taken at the first try with the epoch read", async () => {
      // Marked behind the read's back with no turn in between: the read (not done) is trusted,
      // which shows it was used (one GET saved).
      const ran = await run("c4", 401, redisChatTurns(t.redis, t.prefix), async () => {
        await t.redis.set(keys.update(401), DONE);
      });
      expect(ran).toBe(1);
    });

    it("is not used when a turn of the chat ended between the read and the take", async () => {
      const other = redisChatTurns(t.connect(), t.prefix);
      const ran = await run("c5", 501, redisChatTurns(t.redis, t.prefix), async () => {
        const held = await other.take("c5", 501);
        await held.release({ key: keys.update(501), value: DONE, ttlSeconds: 60 });
      });
      expect(ran).toBe(0);
    });

    it("is not used when the turn had to be waited for, even at the same epoch", async () => {
      // A take that polled twice and reports the epoch the read saw ("0": no turn key).
      const waited: ChatTurns = {
        holder: async () => undefined,
        take: async () => ({ held: true, epoch: "0", tries: 2, release: async () => {} }),
      };
      const ran = await run("c6", 601, waited, async () => {
        await t.redis.set(keys.update(601), DONE);
      });
      expect(ran).toBe(0);
    });
  });

  it("a redelivery that takes the turn of a holder whose lease lapsed never sees its early read of the mark as current", async () => {
    // A handles update 701 and stalls beyond its lease; B gets 701 redelivered and reads early
    // (the turn absent, 701 not done). A then finishes; B's take runs after each command A's
    // finish sends (the mark, the release). One script (mark and release together) leaves B's
    // take nothing to pass between; two commands let it in after the mark, at the epoch B read.
    const ra = t.connect();
    const turnsA = redisChatTurns(ra, t.prefix);
    const chat = "c7";
    let runB: () => Promise<void> = async () => {};
    let gate: () => void = () => {};
    const gateOpen = new Promise<void>((resolve) => {
      gate = resolve;
    });
    const seamA: ChatTurns = {
      holder: (c) => turnsA.holder(c),
      async take(c, id) {
        const turn = await turnsA.take(c, id);
        return {
          ...turn,
          async release(mark?: MarkOnRelease) {
            if (mark === undefined) await gateOpen;
            await turn.release(mark);
            if (mark !== undefined) await runB();
          },
        } satisfies HeldTurn;
      },
    };
    const onceA = onceOver(ra);
    const completeA = onceA.claims.complete;
    onceA.claims = {
      ...onceA.claims,
      async complete(id) {
        await completeA(id);
        await runB();
        gate();
      },
    };
    let ranB = 0;
    const turnsB = redisChatTurns(t.redis, t.prefix);
    let bStarted!: Promise<number>;
    await chatOrder(seamA, () => chat, { logger, once: onceA })(ctxOf(701), async () => {
      // A's lease lapses while it works.
      await t.redis.del(epochKey(t.prefix, chat));
      const prefetch = redisPrefetch(t.redis);
      const orderB = chatOrder(turnsB, () => chat, {
        logger,
        onTaken: dropStaleReads(prefetch, t.prefix, () => chat),
        once: onceOver(t.redis, prefetch),
      });
      // B's early read goes out now; its take waits until A's finish lets it run.
      let started!: () => void;
      const readSent = new Promise<void>((resolve) => {
        started = resolve;
      });
      const early = prefetch.middleware<Context>(() => [
        epochKey(t.prefix, chat),
        keys.update(701),
      ]);
      bStarted = (async () => {
        await early(ctxOf(701), async () => {
          started();
          await new Promise<void>((go) => {
            runB = async () => {
              runB = async () => {};
              go();
              await bDone;
            };
          });
          await orderB(ctxOf(701), async () => void ranB++);
        });
        return ranB;
      })();
      const bDone = bStarted.then(() => undefined);
      await readSent;
    });
    expect(await bStarted).toBe(0);
    expect(await t.redis.get(keys.update(701))).toBe(DONE);
  });

  it("reads the done mark early on one Redis node (in the take's script, no epoch needed), not on a Cluster (its GETs answer apart)", () => {
    const ctx = {
      update: { update_id: 9 },
      chat: { id: 5 },
      from: { id: 5 },
    } as unknown as Context;
    const limitKeys = (id: number) => [`${t.prefix}spend-of-${id}`, `${t.prefix}count-of-${id}`];
    const single = earlyReadKeys(t.prefix, t.redis, limitKeys)(ctx);
    expect(single).toContain(keys.update(9));
    // The sender's access flags, for every access check of the update (src/bot/access.ts).
    expect(single).toContain(keys.accessFlags(5));
    // And their spend limits' buckets (src/bot/update-reads.ts), on one node only.
    expect(single).toEqual(expect.arrayContaining(limitKeys(5)));
    const cluster = new Cluster([{ host: "127.0.0.1", port: 1 }], { lazyConnect: true });
    try {
      const onCluster = earlyReadKeys(t.prefix, cluster, limitKeys)(ctx);
      for (const key of limitKeys(5)) expect(onCluster).not.toContain(key);
      expect(onCluster).not.toContain(keys.update(9));
      // The same state, then the epoch the read is judged by there (one node: read in the take).
      expect(single).not.toContain(epochKey(t.prefix, "5"));
      expect(onCluster).toEqual([
        ...single.filter((k) => k !== keys.update(9) && !limitKeys(5).includes(k)),
        epochKey(t.prefix, "5"),
      ]);
    } finally {
      cluster.disconnect();
    }
  });
});
