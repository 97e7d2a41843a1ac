import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { createI18n } from "../../src/bot/i18n.ts";
import { createComplaints, createRedisComplaintStore } from "../../src/complaints/index.ts";
import { createLogger } from "../../src/logger.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { replayDeadLetters } from "../../src/notify/replay-dead.ts";
import type { Order } from "../../src/orders/model.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { complaintNotice } from "../../src/system/complaints.ts";
import { startFakeBotApi } from "../support/fake-bot-api.ts";
import { createNotifier, createNotifierApi } from "../support/notify.ts";
import { testRedis } from "../support/redis.ts";

/**
 * A new complaint's alert to the admins (review s33-rvcomp 4). Before: it was sent straight after
 * the complaint was stored, outside the outbox: a crash between the two, or a send that gave up
 * (Telegram 5xx, 429), and no admin was ever told. Now the complaint's open script queues one
 * "raised" alert per admin in the notifier's outbox in the same step: another instance's notifier
 * sends it (retried, once per admin). Real Redis, instances of their own (a complaint service and
 * a notifier each), the Bot API stand-in over HTTP.
 */

const i18n = createI18n(() => "en");
const USER = 42;
const ADMINS = [3_401, 3_402, 3_403] as const;
const order = {
  reference: "1700000000001",
  userId: USER,
  chatId: USER,
  status: "success",
  holdId: "order:1700000000001",
  price: { amountPaisa: 25_000, feePaisa: 0, discountPaisa: 0, totalPaisa: 25_000 },
} as Order;

let r: ReturnType<typeof testRedis>;
/** The notifier's clock (a resend backs off on it). */
let clock = Date.now();
afterEach(async () => {
  await r.cleanup();
});

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
    admins: ADMINS,
  });
  // The second admin reads Nepali (the language the admin chose).
  const localeOf = async (id: number) => (id === ADMINS[1] ? "ne" : null);
  const notifier = createNotifier({
    queue,
    orders: { get: async () => null },
    api,
    renderNotice: complaintNotice(i18n, store, localeOf),
    consumerName: name,
    pacer: false,
    claimIdleMs: 0,
    now: () => clock,
  });
  return { service, notifier, queue, redis };
}

async function begin(name: string) {
  r = testRedis(name);
  const bot = await startFakeBotApi();
  onTestFinished(() => bot.close());
  return bot;
}

async function raise(a: ReturnType<typeof instance>) {
  const raised = await a.service.raise({
    userId: USER,
    chatId: USER,
    locale: "en",
    orderReference: order.reference,
    reason: "not_received",
  });
  if (!raised.ok || !raised.created) throw new Error("not raised");
  return raised.complaint.reference;
}

const alerts = (bot: Awaited<ReturnType<typeof startFakeBotApi>>, admin: number, ref: string) =>
  bot.chat(admin).filter((m) => m.text.includes(ref));

describe("a new complaint's alert to the admins", () => {
  it("survives the raising process's crash: two other instances tell every admin once", async () => {
    const bot = await begin("complaint-raised-crash");
    // The instance that raised it stops ("crashes") right after the complaint is stored: its
    // notifier never runs. Two others on the same Redis deliver the queued alerts.
    const crashed = instance("raised-a", bot.apiRoot);
    const ref = await raise(crashed);
    crashed.redis.disconnect();
    const b = instance("raised-b", bot.apiRoot);
    const c = instance("raised-c", bot.apiRoot);
    for (let i = 0; i < 4; i++) await Promise.all([b.notifier.runOnce(), c.notifier.runOnce()]);
    expect(alerts(bot, ADMINS[0], ref).map((m) => m.text)).toEqual([
      expect.stringMatching(
        new RegExp(`^📝 New complaint ${ref} on order ${order.reference}: Paid but not received`),
      ),
    ]);
    // In the admin's own language.
    expect(alerts(bot, ADMINS[1], ref)).toHaveLength(1);
    expect(alerts(bot, ADMINS[1], ref)[0]?.text).not.toContain("New complaint");
    expect(alerts(bot, ADMINS[2], ref)).toHaveLength(1);
    // The customer is not sent an admin's alert.
    expect(bot.chat(USER)).toEqual([]);
    expect(await b.queue.backlog()).toBe(0);
    expect(await b.queue.listDead(5)).toEqual([]);
    // Raised again while open: the open complaint, no second alert.
    const again = await b.service.raise({
      userId: USER,
      chatId: USER,
      locale: "en",
      orderReference: order.reference,
      reason: "duplicate",
    });
    expect(again).toMatchObject({ ok: true, created: false, complaint: { reference: ref } });
    for (let i = 0; i < 2; i++) await Promise.all([b.notifier.runOnce(), c.notifier.runOnce()]);
    for (const admin of ADMINS) expect(alerts(bot, admin, ref)).toHaveLength(1);
  });

  it("is retried after Telegram's 5xx, and an admin who blocked the bot does not stop the others", async () => {
    const bot = await begin("complaint-raised-blocked");
    let down = true;
    bot.script = (method, params) => {
      if (method !== "sendMessage") return undefined;
      if (params.chat_id === ADMINS[0])
        return { error_code: 403, description: "Forbidden: bot was blocked by the user" };
      return down ? { error_code: 502, description: "Bad Gateway" } : undefined;
    };
    const a = instance("raised-a", bot.apiRoot);
    const ref = await raise(a);
    for (let i = 0; i < 3; i++) await a.notifier.runOnce();
    expect(alerts(bot, ADMINS[1], ref)).toEqual([]);
    down = false;
    clock += 10 * 60_000; // past the resend's back-off (a 502's answer may have been shown)
    for (let i = 0; i < 3; i++) await a.notifier.runOnce();
    expect(alerts(bot, ADMINS[0], ref)).toEqual([]);
    expect(alerts(bot, ADMINS[1], ref)).toHaveLength(1);
    expect(alerts(bot, ADMINS[2], ref)).toHaveLength(1);
    expect(await a.queue.isChatInactive(ADMINS[0])).toBe(true);
    expect(await a.queue.backlog()).toBe(0);
  });

  it("an older notifier could not read is replayed from its dead letter (rolling deploy)", async () => {
    const bot = await begin("complaint-raised-replay");
    const a = instance("raised-a", bot.apiRoot);
    const ref = await raise(a);
    // What an older version's notifier does with an entry it cannot read: dead-letters it raw
    // (src/notify/redis-stream.ts decode) and acknowledges it. Here: the alert to the first admin.
    const k = keyspace(r.prefix);
    const entries = (await a.redis.xrange(k.outbox, "-", "+")) as [string, string[]][];
    const first = entries.find(([, f]) => String(f[1]).includes(`"chatId":${ADMINS[0]}`));
    if (!first) throw new Error("no alert queued for the first admin");
    await a.redis.xdel(k.outbox, first[0]);
    await a.redis.lpush(
      k.dead,
      JSON.stringify({ raw: first[1][1], reason: "unreadable", at: Date.now() }),
    );
    for (let i = 0; i < 2; i++) await a.notifier.runOnce();
    expect(alerts(bot, ADMINS[0], ref)).toEqual([]);
    expect(await replayDeadLetters(a.redis, r.prefix)).toMatchObject({ replayed: 1, skipped: 0 });
    for (let i = 0; i < 2; i++) await a.notifier.runOnce();
    for (const admin of ADMINS) expect(alerts(bot, admin, ref)).toHaveLength(1);
  });
});
