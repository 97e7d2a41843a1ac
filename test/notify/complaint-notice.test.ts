import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { createI18n } from "../../src/bot/i18n.ts";
import { createComplaints, createRedisComplaintStore } from "../../src/complaints/index.ts";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import { INACTIVE_CHAT } from "../../src/notify/deliver.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { redisSentLog } from "../../src/notify/sent-log.ts";
import type { Order } from "../../src/orders/model.ts";
import { complaintNotice } from "../../src/system/complaints.ts";
import { startFakeBotApi } from "../support/fake-bot-api.ts";
import { createNotifier, createNotifierApi } from "../support/notify.ts";
import { testRedis } from "../support/redis.ts";

/**
 * A complaint's notice to the customer (review s24-c, finding 5). Before: it was sent once, after
 * the change, with the error swallowed into a warn line: a Telegram 5xx spell or a WhatsApp rate
 * hold lost "your complaint is resolved: Rs 250 was returned to your balance" for good (the
 * complaint is closed; nothing sends it again), while the admin read "the customer was told".
 * Now each change queues its notice in the notifier's outbox in the same script as the change
 * (and the refund), keyed per complaint and status: the notifier sends it once, retried as an
 * order's final push is. Real Redis, two instances (a complaint service and a notifier each), the
 * Bot API stand-in over HTTP.
 */

const i18n = createI18n(() => "en");
const USER = 42;
const order = {
  reference: "1700000000001",
  userId: USER,
  chatId: USER,
  status: "success",
  holdId: "order:1700000000001",
  price: { amountPaisa: 25_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 25_000 },
} as Order;

let r: ReturnType<typeof testRedis>;
afterEach(async () => {
  await r.cleanup();
});

/** The notifier's clock (a resend backs off on it). */
let clock = Date.now();

/** One process: its own Redis connection, complaint service and notifier, on one prefix. */
function instance(name: string, apiRoot: string) {
  const redis = r.connect();
  const store = createRedisComplaintStore({ redis, prefix: r.prefix });
  const queue = createRedisNotificationQueue({ redis, prefix: r.prefix });
  const api = createNotifierApi("123:complaints", { apiRoot, maxRetryAttempts: 0 });
  const service = createComplaints({
    store,
    orders: { get: async (ref) => (ref === order.reference ? order : null) },
    logger: createLogger({ level: "silent" }),
  });
  const notifier = createNotifier({
    queue,
    orders: { get: async () => null },
    api,
    // The product's words (src/system/complaints.ts), read from the store.
    renderNotice: complaintNotice(i18n, store, async () => null),
    consumerName: name,
    pacer: false,
    claimIdleMs: 0,
    now: () => clock,
    sentLog: redisSentLog(redis, r.prefix),
  });
  return { service, notifier, queue };
}

/** The test's own Redis prefix (`name`) and a Bot API stand-in, closed when the test ends. */
async function begin(name: string) {
  r = testRedis(name);
  const bot = await startFakeBotApi();
  onTestFinished(() => bot.close());
  return bot;
}

/** The first send's answer is lost (a 502: Telegram may have shown it); the sends counted. */
function loseFirstAnswer(bot: Awaited<ReturnType<typeof startFakeBotApi>>) {
  const counted = { sends: 0 };
  bot.script = (method) => {
    if (method !== "sendMessage") return undefined;
    counted.sends++;
    return counted.sends === 1 ? { error_code: 502, description: "Bad Gateway" } : undefined;
  };
  return counted;
}

/** The customer's complaint about the order, raised on `a`; its reference. */
async function raise(a: ReturnType<typeof instance>, reason: "not_received" | "duplicate") {
  const raised = await a.service.raise({
    userId: USER,
    chatId: USER,
    locale: "en",
    orderReference: order.reference,
    reason,
  });
  if (!raised.ok) throw new Error("not raised");
  return raised.complaint.reference;
}

describe("a complaint's notice", () => {
  it("that fails to send is sent again, once, across two instances, with the refund and the balance", async () => {
    const bot = await begin("complaint-notice");
    // A WhatsApp rate hold: nothing sent ("Not sent: "), for the first sends to the customer.
    let down = true;
    let refused = 0;
    bot.script = (method, params) => {
      if (method !== "sendMessage" || !down || params.chat_id !== USER) return undefined;
      refused++;
      return { error_code: 503, description: "Not sent: WhatsApp error 131048 (rate hold)" };
    };
    const a = instance("cmp-a", bot.apiRoot);
    const b = instance("cmp-b", bot.apiRoot);
    const rounds = async (n: number) => {
      for (let i = 0; i < n; i++) await Promise.all([a.notifier.runOnce(), b.notifier.runOnce()]);
    };

    const ref = await raise(a, "not_received");
    expect(await b.service.take(ref, 1)).toMatchObject({ ok: true });
    const done = await a.service.resolve(ref, 1, { text: "sorry", refundPaisa: 25_000 });
    expect(done.ok).toBe(true);
    // Confirmed again on the other instance (a repeated tap, a second admin): closed, no notice.
    expect(await b.service.resolve(ref, 2, { text: "again", refundPaisa: 25_000 })).toMatchObject({
      ok: false,
      code: "closed",
    });
    const ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    expect((await ledger.balance(account.customer(USER))).availablePaisa).toBe(25_000);

    await rounds(3); // the rate hold: every send refused, nothing lost
    expect(refused).toBeGreaterThan(0);
    expect(bot.chat(USER)).toEqual([]);
    expect(await a.queue.listDead(5)).toEqual([]);
    // The balance moves while the notice waits (a top-up): the notice, sent later, names the
    // balance the refund left as that, not as the balance now (before: "Balance: Rs 250", false
    // when it is sent; the customer has Rs 350 by then).
    const topUp = await ledger.transfer({
      id: "complaint-notice-later-credit",
      debit: account.merchant.funding,
      credit: account.customer(USER),
      amountPaisa: 10_000,
      kind: "credit",
    });
    expect(topUp.ok).toBe(true);

    down = false;
    await rounds(3);
    // The "taken" notice is not sent: the complaint is resolved by now (review s24-h, 1).
    const texts = bot.chat(USER).map((m) => m.text);
    expect(texts).toEqual([
      `✅ Your complaint ${ref} about order ${order.reference} is resolved: sorry\nRs 250 was returned to your balance. Balance after the refund: Rs 250`,
    ]);
    expect(await a.queue.isSent(`complaint:${ref}:resolved`)).toBe(true);
    expect(await a.queue.backlog()).toBe(0);
    await rounds(2);
    expect(bot.chat(USER)).toHaveLength(1); // sent once, though two notifiers ran
  });

  it("whose send may have arrived is not sent again blindly (its answer lost: the sent-once record)", async () => {
    const bot = await begin("complaint-notice-lost");
    // The first send's answer is lost (a 502: Telegram may have shown it).
    const counted = loseFirstAnswer(bot);
    const a = instance("cmp-a", bot.apiRoot);
    const b = instance("cmp-b", bot.apiRoot);
    const ref = await raise(a, "duplicate");
    expect(await a.service.reject(ref, 1, "charged once")).toMatchObject({ ok: true });
    for (let i = 0; i < 4; i++) await Promise.all([a.notifier.runOnce(), b.notifier.runOnce()]);
    // One send, its answer lost: the record says it may have arrived and backs the resend off
    // (a minute, on the notifier's clock), so no second send within these rounds.
    expect(counted.sends).toBe(1);
    expect(await a.queue.listDead(5)).toEqual([]);
    expect(await a.queue.isSent(`complaint:${ref}:rejected`)).toBe(false);
    expect(await a.queue.backlog()).toBe(1);
  });

  it('saying "being looked into" is not sent after "resolved" (a failed taken send retried late)', async () => {
    // Review s24-h, 1: take, the taken send's answer lost (a 502: the sent-once record backs the
    // resend off), resolve within that minute: "resolved" went out first, and a minute later the
    // customer read "is being looked into. We will answer by …" of a closed complaint.
    const bot = await begin("complaint-notice-order");
    const counted = loseFirstAnswer(bot);
    const a = instance("cmp-a", bot.apiRoot);
    const ref = await raise(a, "duplicate");
    expect(await a.service.take(ref, 1)).toMatchObject({ ok: true });
    await a.notifier.runOnce(); // the taken send: its answer lost
    expect(counted.sends).toBe(1);
    const done = await a.service.resolve(ref, 1, { text: "fixed", refundPaisa: 25_000 });
    expect(done.ok).toBe(true);
    for (let i = 0; i < 3; i++) await a.notifier.runOnce();
    clock += 10 * 60_000; // past the resend's back-off
    for (let i = 0; i < 3; i++) await a.notifier.runOnce();
    const texts = bot.chat(USER).map((m) => m.text);
    expect(texts).toEqual([
      `✅ Your complaint ${ref} about order ${order.reference} is resolved: fixed\nRs 250 was returned to your balance. Balance after the refund: Rs 250`,
    ]);
    expect(await a.queue.backlog()).toBe(0);
    expect(await a.queue.listDead(5)).toEqual([]);
  });

  it("to a chat marked inactive is recorded as not delivered and dead-lettered, not dropped unseen", async () => {
    // Review s24-h, 4: the admin read "the notice is on its way", and the notifier dropped it
    // with no trace (the customer had blocked the bot). Now the order's timeline says "not
    // delivered", and the dead letter can be replayed once the customer is back.
    const bot = await begin("complaint-notice-inactive");
    const a = instance("cmp-a", bot.apiRoot);
    await a.queue.markChatInactive(USER);
    const ref = await raise(a, "duplicate");
    expect(await a.service.reject(ref, 1, "charged once")).toMatchObject({ ok: true });
    for (let i = 0; i < 2; i++) await a.notifier.runOnce();
    expect(bot.chat(USER)).toEqual([]);
    expect(await a.queue.backlog()).toBe(0);
    const dead = await a.queue.listDead(5);
    expect(dead.map((x) => [x.notification.kind, x.reason])).toEqual([
      ["complaint", INACTIVE_CHAT],
    ]);
    const timeline = await redisSentLog(r.redis, r.prefix).list(order.reference);
    expect(timeline).toMatchObject([
      { chatId: USER, status: "complaint rejected", ok: false, error: INACTIVE_CHAT },
    ]);
  });
});
