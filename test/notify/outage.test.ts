import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { GrammyError, HttpError } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import type { NotifierApi } from "../../src/notify/options.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { replayDeadLetters } from "../../src/notify/replay-dead.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { createNotifier, noProvider } from "../support/notify.ts";
import { mobileInput, REDIS_URL, testRedis } from "../support/orders.ts";

/**
 * A Telegram outage of minutes loses no push. Before: each reclaim (every claim idle time, 30 s)
 * counted one attempt and the entry was dead at the 9th, about 4 to 7 minutes into an outage; and
 * nothing read the dead letters again. Now failures that say nothing about the message are
 * retried until the entry is retryForMs old (hours), and the dead letters can be replayed
 * (scripts/replay-dead-pushes.ts), safely: a push already in the chat is not sent again.
 * Real Redis; the notifier's clock moves 30 s per round (claimIdleMs 0: each round reclaims).
 */

const MINUTE = 60_000;

let r: ReturnType<typeof testRedis>;
afterEach(async () => {
  await r.cleanup();
});

/**
 * A Bot API that fails while `down()` says so: with `failure` before the message is sent
 * (connection refused: never sent), or after it reached the chat when `arrives()` says so (the
 * answer lost: a timeout).
 */
function flakyApi(down: () => boolean, failure: () => Error, arrives: () => boolean) {
  const pushes: Array<{ chatId: number; text: string }> = [];
  /** Every sendMessage call, whatever came of it. */
  const calls = { count: 0 };
  const api: NotifierApi = {
    async sendMessage(chatId, text) {
      calls.count++;
      if (down() && !arrives()) throw failure();
      pushes.push({ chatId, text });
      if (down()) throw failure();
      return { message_id: pushes.length };
    },
    async editMessageText() {
      if (down()) throw failure();
      return true;
    },
  };
  return { api, pushes, calls };
}

const refused = () =>
  new HttpError(
    "Network request for 'sendMessage' failed!",
    Object.assign(new Error("connect ECONNREFUSED 149.154.167.220:443"), { code: "ECONNREFUSED" }),
  );

/** A send whose answer is lost after it reached the chat. */
const timedOut = () =>
  new HttpError(
    "Network request for 'sendMessage' timed out after 25000 ms (attempt 1 of 3; not repeated: it may have arrived)",
    new Error("The operation was aborted"),
  );

function setup(
  name: string,
  opts: { retryForMs?: number; failure?: () => Error; arrives?: () => boolean } = {},
) {
  r = testRedis(name);
  let offset = 0;
  let downUntil = Number.POSITIVE_INFINITY;
  const now = () => Date.now() + offset;
  const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
    provider: noProvider,
  });
  const { api, pushes, calls } = flakyApi(
    () => now() < downUntil,
    opts.failure ?? refused,
    opts.arrives ?? (() => false),
  );
  const notifier = createNotifier({
    queue,
    orders,
    api,
    consumerName: name,
    pacer: false,
    claimIdleMs: 0,
    now,
    ...(opts.retryForMs === undefined ? {} : { retryForMs: opts.retryForMs }),
  });
  return {
    queue,
    orders,
    pushes,
    calls,
    notifier,
    /** Telegram comes back `ms` after the notifier's now. */
    upIn(ms: number) {
      downUntil = now() + ms;
    },
    /** One round of the notifier, then its clock moves on by `ms`. */
    async round(ms = 30_000) {
      const outcomes = await notifier.runOnce();
      offset += ms;
      return outcomes;
    },
  };
}

/** An order placed through the API (no receipt): only the push tells the outcome. */
async function finalOrder(s: ReturnType<typeof setup>) {
  const o = await s.orders.place(mobileInput({ userId: 4242, chatId: 4242 }));
  await s.orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
  return o.reference;
}

describe("a Telegram outage", () => {
  it("of 10 minutes: the push is retried through it and arrives once Telegram is back", async () => {
    const s = setup("outage-10");
    s.upIn(10 * MINUTE);
    const reference = await finalOrder(s);
    for (let i = 0; i < 24; i++) await s.round(); // 12 minutes of rounds
    expect(await s.queue.listDead(5)).toEqual([]); // before: dead at the 9th round (4.5 min)
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
  });

  it("of 5xx answers: each may have arrived, so the push is sent at most maxAttempts times", async () => {
    const s = setup("outage-5xx", {
      failure: () =>
        new GrammyError(
          "Call to 'sendMessage' failed! (502: Bad Gateway)",
          { ok: false, error_code: 502, description: "Bad Gateway" },
          "sendMessage",
          {},
        ),
    });
    s.upIn(10 * MINUTE);
    const reference = await finalOrder(s);
    for (let i = 0; i < 24; i++) await s.round();
    // A 5xx may come after Telegram showed the message: 8 such sends, then a dead letter (not a
    // copy every 30 s while it lasts); a replay delivers it.
    expect(s.calls.count).toBe(8);
    const dead = await s.queue.listDead(5);
    expect(dead.map((d) => d.notification.reference)).toEqual([reference]);
    expect(dead[0]?.reason).toBe("sent 8 times without an answer");
    expect((await replayDeadLetters(r.redis, r.prefix)).replayed).toBe(1);
    for (let i = 0; i < 3; i++) await s.round();
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
  });

  it("longer than retryForMs dead-letters the push; a replay once Telegram is back delivers it, once", async () => {
    const s = setup("outage-long", { retryForMs: 20 * MINUTE });
    s.upIn(60 * MINUTE);
    const reference = await finalOrder(s);
    for (let i = 0; i < 50; i++) await s.round(); // 25 minutes
    const dead = await s.queue.listDead(5);
    expect(dead.map((d) => d.notification.reference)).toEqual([reference]);
    expect(dead[0]?.reason).toMatch(/still failing after 2\d min/);
    expect(await s.queue.backlog()).toBe(0);

    s.upIn(0); // back
    const dry = await replayDeadLetters(r.redis, r.prefix, { dryRun: true });
    expect(dry.letters.map((l) => l.notification.reference)).toEqual([reference]);
    expect(await s.queue.listDead(5)).toHaveLength(1); // a dry run changes nothing
    const replay = await replayDeadLetters(r.redis, r.prefix);
    expect(replay.replayed).toBe(1);
    expect(await s.queue.listDead(5)).toEqual([]);
    for (let i = 0; i < 3; i++) await s.round();
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);

    // Replayed again (a letter written twice, a replay run twice): the sent marker holds it back.
    await s.queue.deadLetter(
      {
        id: "0-1",
        notification: { kind: "status", reference, status: "success", chatId: 4242, at: 1 },
      },
      "a second copy",
    );
    expect((await replayDeadLetters(r.redis, r.prefix)).replayed).toBe(1);
    for (let i = 0; i < 3; i++) await s.round();
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.listDead(5)).toEqual([]);
  });
});

describe("a push that may have arrived (its answer lost)", () => {
  // Before: retried like an outage until the entry was retryForMs old, and each reclaim sent it
  // again: 40 copies in 40 rounds (s20-r5, finding 1). Now the sending lock's record counts such
  // sends, across reclaims and instances: maxAttempts of them, then a dead letter.
  it("is sent at most maxAttempts times, then dead-lettered; a replay sends it once more", async () => {
    const s = setup("resend-bound", { failure: timedOut, arrives: () => true });
    const reference = await finalOrder(s);
    for (let i = 0; i < 40; i++) await s.round(); // 20 minutes
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(8);
    const dead = await s.queue.listDead(5);
    expect(dead.map((d) => d.notification.reference)).toEqual([reference]);
    expect(dead[0]?.reason).toBe("sent 8 times without an answer");
    expect(await s.queue.backlog()).toBe(0);

    // Replayed once answers come back: sent once more (a possible duplicate), then marked sent.
    s.upIn(0);
    expect((await replayDeadLetters(r.redis, r.prefix)).replayed).toBe(1);
    for (let i = 0; i < 3; i++) await s.round();
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(9);
    expect(await s.queue.listDead(5)).toEqual([]);
    expect(await s.queue.backlog()).toBe(0);
  });

  it("is counted across failures that sent nothing in between", async () => {
    // Lost answers and refused connections by turns: a refusal puts the record back, it does not
    // clear it, so the lost answers still add up to the bound.
    let n = 0;
    const s = setup("resend-mixed", {
      failure: () => (n % 2 === 1 ? timedOut() : refused()),
      arrives: () => ++n % 2 === 1,
    });
    const reference = await finalOrder(s);
    for (let i = 0; i < 40; i++) await s.round();
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(8);
    const dead = await s.queue.listDead(5);
    expect(dead.map((d) => d.notification.reference)).toEqual([reference]);
  });
});

describe("a failure about the message itself", () => {
  it("is dead-lettered after maxAttempts tries, not retried for hours", async () => {
    const s = setup("message-failure", {
      failure: () =>
        new GrammyError(
          "Call to 'sendMessage' failed! (413: Request Entity Too Large)",
          { ok: false, error_code: 413, description: "Request Entity Too Large" },
          "sendMessage",
          {},
        ),
    });
    s.upIn(60 * MINUTE);
    const reference = await finalOrder(s);
    for (let i = 0; i < 10; i++) await s.round();
    const dead = await s.queue.listDead(5);
    expect(dead.map((d) => d.notification.reference)).toEqual([reference]);
    expect(dead[0]?.reason).toMatch(/failed 8 times: Request Entity Too Large/);
  });
});

describe("scripts/replay-dead-pushes.ts", () => {
  it("lists with --dry-run, then replays, and leaves unreadable letters in the list", async () => {
    r = testRedis("replay-script");
    const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
    const n = {
      kind: "status" as const,
      reference: "123456",
      status: "success" as const,
      chatId: 7,
      at: 1,
    };
    await queue.deadLetter(
      { id: "0-1", notification: n },
      "still failing after 360 min (700 tries)",
    );
    const deadKey = `${r.prefix}{money}:notify:dead`;
    await r.redis.rpush(deadKey, JSON.stringify({ raw: "garbage", reason: "unreadable", at: 1 }));
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["scripts/replay-dead-pushes.ts", ...args], {
        env: { ...process.env, REDIS_URL, REDIS_PREFIX: r.prefix },
      });
    const dry = await run("--dry-run");
    expect(dry.stdout).toContain("status:123456:success: still failing after 360 min");
    expect(dry.stdout).toContain("1 readable, 1 unreadable (dry run");
    expect(await r.redis.llen(deadKey)).toBe(2);
    const real = await run();
    expect(real.stdout).toContain("1 replayed, 1 left in the list");
    expect(await r.redis.llen(deadKey)).toBe(1);
    const entries = await r.redis.xrange(`${r.prefix}{money}:notify:stream`, "-", "+");
    expect(entries.map(([, fields]) => JSON.parse(fields[1] ?? "{}"))).toEqual([n]);
  });
});
