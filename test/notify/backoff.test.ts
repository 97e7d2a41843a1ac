import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import type { NotifierApi } from "../../src/notify/options.ts";
import { pacerLimitsSchema } from "../../src/notify/pace-store.ts";
import { createSendPacer, type SendPacer } from "../../src/notify/pacer.ts";
import { redisPaceStore } from "../../src/notify/redis-pace-store.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { type FakeBotApi, startFakeBotApi } from "../support/fake-bot-api.ts";
import { createNotifier, createNotifierApi, noProvider } from "../support/notify.ts";
import { mobileInput, testRedis } from "../support/orders.ts";

/**
 * The back-off of resends that may have arrived (s21 review, findings 2, 3 and 8): a push waiting
 * out its retry time takes no Telegram slot, the entry's age bound does not cut the schedule short,
 * and a retry time from a clock far ahead is not waited for. Real Redis, the fake Bot API over
 * HTTP; the notifiers' clocks stand still within a round and move 30 s between rounds
 * (claimIdleMs 0: each round reclaims).
 */

const MINUTE = 60_000;
const CHAT = 4242;

let r: ReturnType<typeof testRedis>;
afterEach(async () => {
  await r.cleanup();
});

/** A pacer that grants every slot at once and counts them (the notifier's clock). */
function countingPacer(now: () => number) {
  const grants: number[] = [];
  const pacer: SendPacer = {
    limits: pacerLimitsSchema.parse({}),
    async hold() {},
    async acquire() {
      grants.push(now());
    },
  };
  return { pacer, grants };
}

async function setup(name: string, retryForMs?: number) {
  r = testRedis(name);
  const bot = await startFakeBotApi();
  onTestFinished(() => bot.close());
  let clock = Date.now();
  const start = clock;
  const now = () => clock;
  const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
    provider: noProvider,
  });
  const api = createNotifierApi("123:backoff", { apiRoot: bot.apiRoot, maxRetryAttempts: 0 });
  /** A notifier on this queue; `ahead`: how far its clock runs ahead of the others'. */
  const notifier = (
    consumerName: string,
    opts: { ahead?: number; api?: NotifierApi; pacer?: SendPacer } = {},
  ) =>
    createNotifier({
      queue,
      orders,
      api: opts.api ?? api,
      consumerName,
      pacer: opts.pacer ?? false,
      claimIdleMs: 0,
      now: () => clock + (opts.ahead ?? 0),
      ...(retryForMs === undefined ? {} : { retryForMs }),
    });
  /** An order placed through the API (no receipt): only the push tells the outcome. */
  const finalOrder = async () => {
    const o = await orders.place(mobileInput({ userId: CHAT, chatId: CHAT }));
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
    return o.reference;
  };
  return {
    bot,
    queue,
    api,
    now,
    /** A pacer over the Redis pace store of this prefix (every instance shares it). */
    sharedPacer: () => createSendPacer({ store: redisPaceStore(r.redis, r.prefix), now }),
    notifier,
    finalOrder,
    /** Minutes since the start, by the shared clock. */
    minute: () => (clock - start) / MINUTE,
    tick(ms = 30_000) {
      clock += ms;
    },
  };
}

/** sendMessage answers 502 (the message may have been shown) while `down()`; when it was asked. */
function bad(bot: FakeBotApi, minute: () => number, down: (m: number) => boolean) {
  const sends: number[] = [];
  bot.script = (method) => {
    if (method !== "sendMessage") return undefined;
    sends.push(minute());
    return down(minute()) ? { error_code: 502, description: "Bad Gateway" } : undefined;
  };
  return sends;
}

describe("a push backing off", () => {
  it("takes a Telegram slot only for the sends it makes, not at every reclaim", async () => {
    // Before: pace() came before the retry time was read, so each reclaim (every 30 s, for up to
    // two hours) took a slot of the shared ~30/s budget and sent nothing: 80 slots for 6 sends.
    const s = await setup("backoff-pace");
    const { pacer, grants } = countingPacer(s.now);
    const n = s.notifier("a", { pacer });
    const sends = bad(s.bot, s.minute, (m) => m < 20);
    const reference = await s.finalOrder();
    for (let i = 0; i < 80; i++) {
      await n.runOnce();
      s.tick();
    }
    expect(sends).toEqual([0, 1, 3, 7, 15, 31]);
    expect(grants).toHaveLength(sends.length);
    expect(s.bot.chat(CHAT).filter((m) => m.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
  });

  it("past the entry's age bound, is sent when due and arrives (the reviewer's case)", async () => {
    // Before: 502s until 46 min, sends at 0, 1, 3, 7, 15 and 31 min, the next due at 63; at 60
    // the entry was retryForMs old and dead-lettered ("still failing after 60 min"), unsent,
    // though Telegram was back since 46.
    const s = await setup("backoff-age", 60 * MINUTE);
    const n = s.notifier("a");
    const sends = bad(s.bot, s.minute, (m) => m < 46);
    const reference = await s.finalOrder();
    for (let i = 0; i < 140; i++) {
      await n.runOnce();
      s.tick();
    }
    expect(sends).toEqual([0, 1, 3, 7, 15, 31, 63]);
    expect(await s.queue.listDead(5)).toEqual([]);
    expect(s.bot.chat(CHAT).filter((m) => m.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
  });

  it("past the age bound, still ends: at 8 sends that may have arrived", async () => {
    // Before: dead-lettered at 60 min after 6 sends ("still failing"); now the schedule runs on
    // and the 8-send bound ends it, about two hours after the first send.
    const s = await setup("backoff-age-spent", 60 * MINUTE);
    const n = s.notifier("a");
    const sends = bad(s.bot, s.minute, () => true);
    const reference = await s.finalOrder();
    for (let i = 0; i < 300; i++) {
      await n.runOnce();
      s.tick();
    }
    expect(sends).toEqual([0, 1, 3, 7, 15, 31, 63, 123]);
    const dead = await s.queue.listDead(5);
    expect(dead.map((d) => d.notification.reference)).toEqual([reference]);
    expect(dead[0]?.reason).toBe("sent 8 times without an answer");
    expect(await s.queue.backlog()).toBe(0);
  });

  it("past the age bound, is given up once its owed resend fails without reaching Telegram", async () => {
    // The owed resend is made (before: none, dead at 60 min); refused (nothing sent), it is owed
    // no more, and the age bound gives the entry up at the next reclaim instead of retrying it
    // for ever.
    const s = await setup("backoff-age-refused", 60 * MINUTE);
    const refusing = createNotifierApi("123:backoff", {
      apiRoot: "http://127.0.0.1:1",
      maxRetryAttempts: 0,
    });
    const refusedAt: number[] = [];
    const api: NotifierApi = {
      sendMessage: (...a) => {
        if (s.minute() < 60) return s.api.sendMessage(...a);
        refusedAt.push(s.minute());
        return refusing.sendMessage(...a);
      },
      editMessageText: (...a) => s.api.editMessageText(...a),
    };
    const n = s.notifier("a", { api });
    const sends = bad(s.bot, s.minute, () => true);
    const reference = await s.finalOrder();
    for (let i = 0; i < 200; i++) {
      await n.runOnce();
      s.tick();
    }
    expect(sends).toEqual([0, 1, 3, 7, 15, 31]);
    expect(refusedAt).toEqual([63]);
    const dead = await s.queue.listDead(5);
    expect(dead.map((d) => d.notification.reference)).toEqual([reference]);
    expect(dead[0]?.reason).toMatch(/^still failing after 6\d min/);
    expect(await s.queue.backlog()).toBe(0);
  });

  it("is not held back by a retry time from a clock a day ahead", async () => {
    // Instance A's clock is a day ahead: its lost send asks for a resend "a minute later" on its
    // clock. Before: B took that time as is and waited a day (in practice: until the age bound
    // dead-lettered the push). Now a time more than the longest wait (an hour) ahead is due.
    const s = await setup("backoff-skew");
    const a = s.notifier("a", { ahead: 24 * 60 * MINUTE });
    const b = s.notifier("b");
    const sends = bad(s.bot, s.minute, (m) => m < 1);
    const reference = await s.finalOrder();
    await a.runOnce();
    expect(sends).toEqual([0]);
    s.tick(MINUTE);
    await b.runOnce();
    expect(sends).toEqual([0, 1]);
    expect(s.bot.chat(CHAT).filter((m) => m.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
  });
});

/** sendMessage answers 429 retry_after `seconds` until minute `until`; when it was asked. */
function floodWait(bot: FakeBotApi, minute: () => number, seconds: number, until: number) {
  const sends: number[] = [];
  bot.script = (method) => {
    if (method !== "sendMessage") return undefined;
    sends.push(minute());
    if (minute() >= until) return undefined;
    return { error_code: 429, description: "Too Many Requests", retry_after: seconds };
  };
  return sends;
}

describe("a 429 asking for more than a minute (review s31-notify, 5)", () => {
  it("is waited out in full: no send inside the flood wait, the push delivered after", async () => {
    // Before: the pause was capped at maxPauseMs (60 s): sends at minutes 0, 1, 2, 3, 4, each
    // inside the five minutes Telegram asked for (and prolonging them).
    const s = await setup("flood-wait");
    const n = s.notifier("a");
    const sends = floodWait(s.bot, s.minute, 300, 5);
    const reference = await s.finalOrder();
    for (let i = 0; i < 14; i++) {
      await n.runOnce();
      s.tick();
    }
    expect(sends).toEqual([0, 5]);
    expect(s.bot.chat(CHAT).filter((m) => m.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
  });

  it("holds another instance on the same Redis too (the pace store's hold)", async () => {
    // Before: the pause was the process's own: instance B reclaimed the entry 30 s later and sent
    // into the flood wait, and again at every reclaim after its own 429's pause.
    const s = await setup("flood-wait-shared");
    const a = s.notifier("a", { pacer: s.sharedPacer() });
    const b = s.notifier("b", { pacer: s.sharedPacer() });
    const sends = floodWait(s.bot, s.minute, 300, 5);
    const reference = await s.finalOrder();
    await a.runOnce();
    expect(sends).toEqual([0]);
    for (let i = 0; i < 14; i++) {
      s.tick();
      await b.runOnce();
    }
    expect(sends).toEqual([0, 5]);
    expect(s.bot.chat(CHAT).filter((m) => m.text.includes(reference))).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
    expect(await s.queue.listDead(5)).toEqual([]);
  });

  it("is capped at an hour against a wild retry_after", async () => {
    const s = await setup("flood-wait-cap");
    const n = s.notifier("a");
    const sends = floodWait(s.bot, s.minute, 86_400, 1);
    const reference = await s.finalOrder();
    for (let i = 0; i < 124; i++) {
      await n.runOnce();
      s.tick();
    }
    expect(sends).toEqual([0, 60]);
    expect(s.bot.chat(CHAT).filter((m) => m.text.includes(reference))).toHaveLength(1);
  });
});
