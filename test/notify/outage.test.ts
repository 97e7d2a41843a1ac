import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { GrammyError, HttpError } from "grammy";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import type { NotifierApi } from "../../src/notify/options.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { recordMarks } from "../../src/notify/redis-send-lock.ts";
import { replayDeadLetters } from "../../src/notify/replay-dead.ts";
import { resendDelayMs } from "../../src/notify/retry-bound.ts";
import { sendKeyOf } from "../../src/notify/send-key.ts";
import { notificationKey } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { startFakeBotApi } from "../support/fake-bot-api.ts";
import { createNotifier, createNotifierApi, noProvider } from "../support/notify.ts";
import { mobileInput, REDIS_URL, testRedis } from "../support/orders.ts";

/**
 * A Telegram outage of minutes loses no push. Before: each reclaim (every claim idle time, 30 s)
 * counted one attempt and the entry was dead at the 9th, about 4 to 7 minutes into an outage; and
 * nothing read the dead letters again. Now failures that say nothing about the message are
 * retried until the entry is retryForMs old (hours), and the dead letters can be replayed
 * (scripts/replay-dead-pushes.ts), safely: a push already in the chat is not sent again.
 * Real Redis; the notifier's clock stands still within a round and moves 30 s (or a minute)
 * between rounds (claimIdleMs 0: each round reclaims).
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
function flakyApi(
  down: () => boolean,
  failure: () => Error,
  arrives: () => boolean,
  now: () => number,
) {
  const pushes: Array<{ chatId: number; text: string }> = [];
  /** Every sendMessage call, whatever came of it, and when (the notifier's clock). */
  const calls = { count: 0, at: [] as number[] };
  const api: NotifierApi = {
    async sendMessage(chatId, text) {
      calls.count++;
      calls.at.push(now());
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
  opts: {
    retryForMs?: number;
    failure?: () => Error;
    arrives?: () => boolean;
    /** A Bot API client of its own (over HTTP to the fake Bot API) instead of the stub. */
    api?: NotifierApi;
  } = {},
) {
  r = testRedis(name);
  // The notifier's clock: still within a round, moved on between rounds only.
  let clock = Date.now();
  let downUntil = Number.POSITIVE_INFINITY;
  const now = () => clock;
  const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
    provider: noProvider,
  });
  const flaky = flakyApi(
    () => now() < downUntil,
    opts.failure ?? refused,
    opts.arrives ?? (() => false),
    now,
  );
  const { pushes, calls } = flaky;
  const notifier = createNotifier({
    queue,
    orders,
    api: opts.api ?? flaky.api,
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
    /** Telegram is down (by the notifier's clock). */
    isDown: () => now() < downUntil,
    /** Telegram comes back `ms` after the notifier's now. */
    upIn(ms: number) {
      downUntil = now() + ms;
    },
    /** One round of the notifier, then its clock moves on by `ms`. */
    async round(ms = 30_000) {
      const outcomes = await notifier.runOnce();
      clock += ms;
      return outcomes;
    },
    now,
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

  it("of 5xx answers: the resends back off, and the push arrives once Telegram is back", async () => {
    // Before: a 5xx may come after Telegram showed the message, so each counted as a send that
    // may have arrived, and one came at every reclaim (30 s): the 8th at 3.5 minutes, then a dead
    // letter, 4 minutes into any outage (admin alerts too), for an operator to replay. Now each
    // resend waits longer (a minute, doubling, capped at an hour): the same 8 sends span about
    // two hours, and an outage of 20 minutes costs 6 of them and loses nothing.
    const bot = await startFakeBotApi();
    onTestFinished(() => bot.close());
    const s = setup("outage-5xx", {
      api: createNotifierApi("123:outage", { apiRoot: bot.apiRoot }),
    });
    /** When each sendMessage reached the Bot API (the notifier's clock). */
    const sends: number[] = [];
    bot.script = (method) => {
      if (method !== "sendMessage") return undefined;
      sends.push(s.now());
      return s.isDown() ? { error_code: 502, description: "Bad Gateway" } : undefined;
    };
    const start = s.now();
    s.upIn(20 * MINUTE);
    const reference = await finalOrder(s);
    const key = `status:${reference}:success`;
    /** The retry times the record of the lost sends asked for, in order (minutes from the start). */
    const asked: number[] = [];
    for (let i = 0; i < 80; i++) {
      await s.round(); // 40 minutes of rounds
      const record = await r.redis.get(keyspace(r.prefix).sent(key));
      const { retryAt } = recordMarks(record ?? "");
      if (retryAt !== undefined && retryAt !== asked.at(-1)) asked.push(retryAt);
    }
    const minutes = (ts: number[]) => ts.map((t) => (t - start) / MINUTE);
    // Each resend waits resendDelayMs after the send before it: 1, 2, 4, 8 then 16 minutes.
    expect(minutes(asked)).toEqual([1, 3, 7, 15, 31]);
    expect(asked.map((t, i) => t - (sends[i] ?? 0))).toEqual([1, 2, 3, 4, 5].map(resendDelayMs));
    // Sent when due, not before: the 6th, at 31 minutes, after Telegram came back (20).
    expect(minutes(sends)).toEqual([0, 1, 3, 7, 15, 31]);
    expect(await s.queue.listDead(5)).toEqual([]); // before: "sent 8 times without an answer"
    expect(bot.chat(4242).filter((m) => m.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.isSent(key)).toBe(true);
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
  // sends, across reclaims and instances: maxAttempts of them, spread out, then a dead letter.
  it("is sent at most maxAttempts times, backing off, then dead-lettered; a replay sends it once more", async () => {
    const s = setup("resend-bound", { failure: timedOut, arrives: () => true });
    const start = s.now();
    const reference = await finalOrder(s);
    for (let i = 0; i < 150; i++) await s.round(MINUTE); // 2.5 hours
    expect(s.pushes.filter((p) => p.text.includes(reference))).toHaveLength(8);
    // The 8 sends span about two hours (the last wait capped at an hour), not 3.5 minutes.
    expect(s.calls.at.map((t) => (t - start) / MINUTE)).toEqual([0, 1, 3, 7, 15, 31, 63, 123]);
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
    for (let i = 0; i < 150; i++) await s.round(MINUTE);
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
    // A books alert: sent under its send key (the digest of what it says), which the list names.
    const alert = {
      kind: "admin_alert" as const,
      status: "success" as const,
      chatId: 8,
      at: 2,
      topic: "low_float" as const,
      figures: { floatPaisa: 100 },
    };
    await queue.deadLetter({ id: "0-2", notification: alert }, "given up");
    const deadKey = `${r.prefix}{money}:notify:dead`;
    await r.redis.rpush(deadKey, JSON.stringify({ raw: "garbage", reason: "unreadable", at: 1 }));
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["scripts/replay-dead-pushes.ts", ...args], {
        env: { ...process.env, REDIS_URL, REDIS_PREFIX: r.prefix },
      });
    const dry = await run("--dry-run");
    expect(dry.stdout).toContain("status:123456:success: still failing after 360 min");
    expect(sendKeyOf(alert)).not.toBe(notificationKey(alert));
    expect(dry.stdout).toContain(`${sendKeyOf(alert)}: given up`);
    expect(dry.stdout).toContain("2 readable, 1 unreadable (dry run");
    expect(await r.redis.llen(deadKey)).toBe(3);
    const real = await run();
    expect(real.stdout).toContain("2 replayed, 1 left in the list");
    expect(await r.redis.llen(deadKey)).toBe(1);
    const entries = await r.redis.xrange(`${r.prefix}{money}:notify:stream`, "-", "+");
    const queued = entries.map(([, fields]) => JSON.parse(fields[1] ?? "{}"));
    expect(queued).toHaveLength(2);
    expect(queued).toEqual(expect.arrayContaining([n, alert]));
  });
});
