import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import type { NotificationQueue } from "../../src/notify/queue.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { type FakeBotApi, startFakeBotApi } from "../support/fake-bot-api.ts";
import { createNotifier, createNotifierApi, englishRender, noProvider } from "../support/notify.ts";
import { attachReceipt, mobileInput, testRedis, waitUntil } from "../support/orders.ts";

/**
 * A final push whose answer is lost, on an order with a receipt, is not pushed again: the receipt
 * edit is then the only thing that tells the chat the outcome. Before this test, the edit lane
 * gave that edit up after 8 passing failures (about 30 s of 5xx), dead-letter and acknowledgement,
 * while the sent marker said "sent": the customer was told nothing. Now the edit is retried as
 * long as a push would be, and the marker is written once the receipt shows the outcome. A fake
 * Bot API over real HTTP, real Redis, sleeps compressed.
 */

let bot: FakeBotApi;
const r = testRedis("carried-edit");
let nextUser = 91_000;

beforeAll(async () => {
  bot = await startFakeBotApi();
});
afterAll(async () => {
  await bot.close();
  await r.cleanup();
});

/** Edits answered 502 this many times in a row: far past the lane's 8 tries. */
const FAILING_EDITS = 30;

describe("the receipt edit standing in for a push whose answer was lost", () => {
  it.each([
    ["never carried out", "reset", 0],
    ["carried out", "reset-after", 1],
  ] as const)(
    "outlasts a 5xx spell longer than the lane's tries (push %s): the chat is told, no second push",
    async (_what, lost, pushesShown) => {
      const api = createNotifierApi("123:carried", {
        apiRoot: bot.apiRoot,
        maxRetryAttempts: 0,
        timeoutMs: 2_000,
      });
      const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
      const orders = createOrders({
        categories: CATEGORY_MODULES,
        accessMode: "staff",
        store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
        provider: noProvider,
      });
      const notifier = createNotifier({
        queue,
        orders,
        api,
        consumerName: `carried-${lost}`,
        pacer: false,
        claimIdleMs: 200,
        sleep: () => new Promise((done) => setTimeout(done, 1)),
      });
      const drain = (what: string) =>
        waitUntil(
          async () => {
            await notifier.runOnce();
            return (await queue.backlog()) === 0;
          },
          what,
          { timeoutMs: 20_000 },
        );

      const user = ++nextUser;
      const o = await orders.place(mobileInput({ userId: user, chatId: user }));
      const receiptId = (await api.sendMessage(user, `Order ${o.reference}: processing`))
        .message_id;
      await attachReceipt(orders, o.reference, receiptId);
      await orders.submit(o.reference);
      await drain("the receipt shows confirming");

      let pushesTried = 0;
      let editsFailed = 0;
      bot.script = (method, params) => {
        if (method === "sendMessage" && /Recharge successful/.test(String(params.text)))
          return pushesTried++ === 0 ? lost : undefined;
        if (method === "editMessageText" && editsFailed < FAILING_EDITS) {
          editsFailed++;
          return { error_code: 502, description: "Bad Gateway" };
        }
        return undefined;
      };
      await orders.apply({ reference: o.reference, source: "webhook", status: "success", at: 5 });
      await drain("the outcome told");
      bot.script = () => undefined;

      const chat = bot.chat(user);
      expect(chat.find((m) => m.id === receiptId)?.text).toMatch(/Status: Successful/);
      const pushes = chat.filter((m) => m.id !== receiptId && /Recharge successful/.test(m.text));
      expect(pushes).toHaveLength(pushesShown); // at most the one whose answer was lost
      expect(pushesTried).toBe(1); // never pushed again
      expect(editsFailed).toBe(FAILING_EDITS);
      expect(await queue.listDead(5)).toEqual([]); // before: "edit failed 8 times: Bad Gateway"
      expect(await queue.isSent(`status:${o.reference}:success`)).toBe(true);
      await notifier.stop();
    },
  );
});

describe("the receipt edit standing in for a lost answer, on a receipt that is gone", () => {
  /**
   * Before: "message to edit not found" counted as told (the edit "settled"), the sent marker was
   * written and the customer, whose receipt was deleted, never learned the outcome. Now the push
   * is sent as a new message, once: two notifiers share the queue, and a redelivery of the entry
   * afterwards sends nothing. "Message is not modified" (the receipt shows it already) is told.
   */
  it.each([
    ["deleted", 1],
    ["already showing the outcome", 0],
  ] as const)("receipt %s: %i new message with the result", async (receiptIs, newPushes) => {
    const api = createNotifierApi("123:gone", {
      apiRoot: bot.apiRoot,
      maxRetryAttempts: 0,
      timeoutMs: 2_000,
    });
    const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
      provider: noProvider,
    });
    const notifiers = ["a", "b"].map((name) =>
      createNotifier({
        queue,
        orders,
        api,
        consumerName: `gone-${receiptIs}-${name}`,
        pacer: false,
        claimIdleMs: 200,
        sleep: () => new Promise((done) => setTimeout(done, 1)),
      }),
    );
    const drain = (what: string) =>
      waitUntil(
        async () => {
          await Promise.all(notifiers.map((n) => n.runOnce()));
          return (await queue.backlog()) === 0;
        },
        what,
        { timeoutMs: 20_000 },
      );

    const user = ++nextUser;
    const o = await orders.place(mobileInput({ userId: user, chatId: user }));
    const receiptId = (await api.sendMessage(user, `Order ${o.reference}: processing`)).message_id;
    await attachReceipt(orders, o.reference, receiptId);
    await orders.submit(o.reference);
    await drain("the receipt shows confirming");
    if (receiptIs === "deleted") await api.deleteMessage(user, receiptId);

    let pushesTried = 0;
    bot.script = (method, params) => {
      if (method === "sendMessage" && /Recharge successful/.test(String(params.text)))
        return pushesTried++ === 0 ? "reset" : undefined; // the first never carried out
      return undefined;
    };
    if (receiptIs === "already showing the outcome") {
      // The receipt says what the final edit would: that edit is "message is not modified".
      const shown = await orders.get(o.reference);
      const final = { ...shown!, status: "success" as const };
      const text = englishRender(
        { kind: "status", reference: o.reference, status: "success", chatId: user, at: 5 },
        final,
      ).text;
      await api.editMessageText(user, receiptId, text);
    }
    await orders.apply({ reference: o.reference, source: "webhook", status: "success", at: 5 });
    await drain("the outcome told");

    const results = () =>
      bot.chat(user).filter((m) => m.id !== receiptId && /Recharge successful/.test(m.text));
    expect(results()).toHaveLength(newPushes); // before (deleted): 0, the customer told nothing
    expect(pushesTried).toBe(1 + newPushes);
    expect(await queue.isSent(`status:${o.reference}:success`)).toBe(true);
    expect(await queue.listDead(5)).toEqual([]);

    // The entry comes again (a replay, a redelivery): the sent marker keeps it from a second push.
    await queue.enqueue([
      { kind: "status", reference: o.reference, status: "success", chatId: user, at: 5 },
    ]);
    await drain("the redelivery handled");
    expect(results()).toHaveLength(newPushes);
    expect(pushesTried).toBe(1 + newPushes);
    bot.script = () => undefined;
    await Promise.all(notifiers.map((n) => n.stop()));
  });
});

describe("the 'receipt gone' mark, while another claim holds the push's record", () => {
  it("is tried again in the lane, not left to a reclaim that edits the gone receipt again", async () => {
    // Before: the mark's refusal (a lock held now) went unnoticed, the entry was let go unmarked,
    // and its reclaim took the lock, edited the gone receipt again and marked then: one more
    // reclaim per refusal (3 claims here), unbounded if the lock was held each time.
    const api = createNotifierApi("123:gone-held", {
      apiRoot: bot.apiRoot,
      maxRetryAttempts: 0,
      timeoutMs: 2_000,
    });
    const real = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
    const elsewhere = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
    let claims = 0;
    let contended = false;
    const queue: NotificationQueue = {
      ...real,
      async lockSending(key, ttlMs) {
        if (key.endsWith(":success")) claims++;
        return real.lockSending(key, ttlMs);
      },
      async markReceiptGone(key) {
        if (contended) return real.markReceiptGone(key);
        // Another instance's claim holds the record just when the lane marks it.
        contended = true;
        await elsewhere.lockSending(key, 60_000);
        const marked = await real.markReceiptGone(key);
        await elsewhere.unlockSending(key);
        return marked;
      },
    };
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
      provider: noProvider,
    });
    const notifier = createNotifier({
      queue,
      orders,
      api,
      consumerName: "gone-held",
      pacer: false,
      claimIdleMs: 200,
      sleep: () => new Promise((done) => setTimeout(done, 1)),
    });
    const user = ++nextUser;
    const o = await orders.place(mobileInput({ userId: user, chatId: user }));
    const receiptId = (await api.sendMessage(user, `Order ${o.reference}: processing`)).message_id;
    await attachReceipt(orders, o.reference, receiptId);
    await orders.submit(o.reference);
    const drain = (what: string) =>
      waitUntil(
        async () => {
          await notifier.runOnce();
          return (await queue.backlog()) === 0;
        },
        what,
        { timeoutMs: 20_000 },
      );
    await drain("the receipt shows confirming");
    await api.deleteMessage(user, receiptId);
    let pushesTried = 0;
    bot.script = (method, params) => {
      if (method === "sendMessage" && /Recharge successful/.test(String(params.text)))
        return pushesTried++ === 0 ? "reset" : undefined;
      return undefined;
    };
    await orders.apply({ reference: o.reference, source: "webhook", status: "success", at: 5 });
    await drain("the outcome told");
    bot.script = () => undefined;

    expect(contended).toBe(true);
    const results = bot.chat(user).filter((m) => /Recharge successful/.test(m.text));
    expect(results).toHaveLength(1);
    expect(claims).toBe(2); // the lost push, then the new message; before: 3
    expect(await queue.isSent(`status:${o.reference}:success`)).toBe(true);
    expect(await queue.listDead(5)).toEqual([]);
    await notifier.stop();
  });
});
