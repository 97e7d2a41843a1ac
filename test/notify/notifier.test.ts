import type { Api } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../dev/playground/emulator/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryNotificationQueue } from "../../src/notify/memory-queue.ts";
import type { NotifierApi } from "../../src/notify/options.ts";
import type { NotificationQueue } from "../../src/notify/queue.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import { notificationKey } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import { createNotifier, englishRender, noProvider, notifierEmulator } from "../support/notify.ts";
import { attachReceipt, mobileInput, testRedis, waitUntil } from "../support/orders.ts";

/** The notifier against the Bot API emulator over HTTP (and fakes where a failure must be exact). */

let em: RunningEmulator;
let api: Api;
let nextUser = 500;

beforeAll(async () => {
  ({ em, api } = await notifierEmulator("123:notifier-test", {
    maxRetryAttempts: 1,
    maxDelaySeconds: 1,
  }));
});
afterAll(async () => {
  await em.close();
});

function newUser(): number {
  const id = ++nextUser;
  em.emulator.users.upsert(id, { first_name: `U${id}`, started: true });
  return id;
}

function memoryParts() {
  const queue = createMemoryNotificationQueue();
  const store = createMemoryOrderStore({ outbox: queue });
  return {
    queue,
    store,
    orders: createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: noProvider,
    }),
  };
}

/** Runs the notifier until the queue is empty. */
async function drain(notifier: { runOnce(): Promise<unknown> }, queue: NotificationQueue) {
  await waitUntil(async () => {
    await notifier.runOnce();
    return (await queue.backlog()) === 0;
  }, "queue drained");
}

/** Places an order for `user` and shows its receipt as the bot would. */
async function withReceipt(orders: ReturnType<typeof createOrders>, user: number) {
  const o = await orders.place(mobileInput({ userId: user, chatId: user }));
  const receipt = await api.sendMessage(user, `Order ${o.reference}: processing`);
  await attachReceipt(orders, o.reference, receipt.message_id);
  await orders.submit(o.reference); // -> unknown
  return { reference: o.reference, receiptId: receipt.message_id };
}

const botMessages = (chatId: number) => em.emulator.chat(chatId).filter((m) => m.from === "bot");

describe("notifier", () => {
  it("edits the receipt for every transition and sends a new message for the final outcome", async () => {
    const { queue, orders } = memoryParts();
    const user = newUser();
    const { reference, receiptId } = await withReceipt(orders, user);
    const notifier = createNotifier({ queue, orders, api, consumerName: "n1" });
    await drain(notifier, queue);
    expect(botMessages(user).find((m) => m.id === receiptId)?.text).toMatch(/confirming/);

    await orders.apply({ reference, source: "webhook", status: "pending", at: Date.now() });
    await drain(notifier, queue);
    expect(botMessages(user).find((m) => m.id === receiptId)?.text).toMatch(
      /Status: With the operator/,
    );

    await orders.apply({
      reference,
      source: "status",
      status: "success",
      at: Date.now(),
      transactionId: "TX77",
    });
    await drain(notifier, queue);
    const msgs = botMessages(user);
    expect(msgs).toHaveLength(2); // the receipt (edited) and one final message
    expect(msgs[0]?.text).toMatch(/Status: Successful/);
    expect(msgs[1]?.text).toContain(`Reference: ${reference}`);
    expect(msgs[1]?.text).toContain("Operator: NTC Prepaid");
    expect(msgs[1]?.text).toContain("Number: 9841234567");
    // The one display format of src/money.ts: paisa only when there are some.
    expect(msgs[1]?.text).toMatch(/^Amount: Rs 100$/m);
    expect(msgs[1]?.text).toContain("Status: Successful");
  });

  it("shows the provider's reason on failure", async () => {
    const { queue, orders } = memoryParts();
    const user = newUser();
    const { reference } = await withReceipt(orders, user);
    await orders.apply({
      reference,
      source: "status",
      status: "failed",
      at: Date.now(),
      providerMessage: "Invalid subscriber",
    });
    await drain(createNotifier({ queue, orders, api, consumerName: "n2" }), queue);
    const last = botMessages(user).at(-1);
    expect(last?.text).toMatch(/Recharge failed/);
    expect(last?.text).toContain("Reason: Invalid subscriber");
  });

  it("sends a duplicated queue entry once", async () => {
    const { queue, orders, store } = memoryParts();
    const user = newUser();
    const { reference } = await withReceipt(orders, user);
    const applied = await orders.apply({ reference, source: "webhook", status: "success", at: 5 });
    await queue.enqueue(applied.notifications); // a redelivery of the same entry
    await drain(createNotifier({ queue, orders: store, api, consumerName: "n3" }), queue);
    const finals = botMessages(user).filter((m) => !m.edited && /successful/i.test(m.text));
    expect(finals).toHaveLength(1);
  });

  it("skips an intermediate status already overtaken, so the receipt never goes backwards", async () => {
    const { queue, orders } = memoryParts();
    const user = newUser();
    const { reference, receiptId } = await withReceipt(orders, user);
    await orders.apply({ reference, source: "webhook", status: "pending", at: 5 });
    await orders.apply({ reference, source: "status", status: "success", at: 6 });
    await drain(createNotifier({ queue, orders, api, consumerName: "n4" }), queue);
    expect(botMessages(user).find((m) => m.id === receiptId)?.text).toMatch(/Successful/);
    expect(
      em.emulator
        .calls("editMessageText")
        .filter(
          (c) => c.params.chat_id === user && /With the operator/.test(String(c.params.text)),
        ),
    ).toHaveLength(0);
  });

  it("treats 'message is not modified' as delivered", async () => {
    const { queue, orders } = memoryParts();
    const user = newUser();
    const o = await orders.place(mobileInput({ userId: user, chatId: user }));
    await orders.submit(o.reference); // unknown
    const current = (await orders.get(o.reference))!;
    const text = englishRender(
      { kind: "status", reference: o.reference, status: "unknown", chatId: user, at: 1 },
      current,
    ).text;
    const receipt = await api.sendMessage(user, text);
    await attachReceipt(orders, o.reference, receipt.message_id);
    await drain(createNotifier({ queue, orders, api, consumerName: "n5" }), queue);
    // Acknowledged, not retried and not dead-lettered. An edit leaves no "sent" marker: repeating
    // it changes nothing, so only new messages carry one.
    expect(await queue.backlog()).toBe(0);
    expect(await queue.listDead(5)).toEqual([]);
    expect(await queue.isSent(`status:${o.reference}:unknown`)).toBe(false);
  });

  it("marks a chat that blocked the bot inactive and drops its notifications", async () => {
    const { queue, orders } = memoryParts();
    const user = newUser();
    const { reference } = await withReceipt(orders, user);
    em.emulator.users.block(user, true);
    const before = botMessages(user).length;
    await orders.apply({ reference, source: "webhook", status: "success", at: 5 });
    const notifier = createNotifier({ queue, orders, api, consumerName: "n6" });
    await drain(notifier, queue);
    expect(await queue.isChatInactive(user)).toBe(true);
    expect(botMessages(user)).toHaveLength(before);
    expect(await queue.backlog()).toBe(0);
  });
});

/** A scripted Api: each call answers with the next scripted failure, or succeeds. */
function scriptedApi(failures: unknown[]) {
  const sent: Array<{ chatId: number; text: string }> = [];
  let nextId = 1;
  const take = () => {
    const f = failures.shift();
    if (f !== undefined) throw f;
  };
  const fake: NotifierApi = {
    async sendMessage(chatId, text) {
      take();
      sent.push({ chatId, text });
      return { message_id: nextId++ };
    },
    async editMessageText() {
      take();
      return true;
    },
  };
  return { fake, sent };
}

describe("success hook", () => {
  it("asks finalButtons before each final push and puts its buttons under the push", async () => {
    const { queue, orders } = memoryParts();
    const ok = await orders.place(mobileInput());
    await orders.apply({ reference: ok.reference, source: "execute", status: "success", at: 1 });
    const bad = await orders.place(mobileInput());
    await orders.apply({ reference: bad.reference, source: "execute", status: "failed", at: 1 });
    const sent: Array<{ text: string; markup: unknown }> = [];
    const asked: string[] = [];
    const fake: NotifierApi = {
      async sendMessage(_chatId, text, other) {
        sent.push({ text, markup: other?.reply_markup });
        return { message_id: sent.length };
      },
      async editMessageText() {
        return true;
      },
    };
    const markup = { inline_keyboard: [[{ text: "Save as…", callback_data: "sn:1" }]] };
    const notifier = createNotifier({
      queue,
      orders,
      api: fake,
      consumerName: "hook",
      finalButtons: async (order, status) => {
        asked.push(`${order.reference}:${status}`);
        return status === "success" ? markup : undefined;
      },
    });
    await drain(notifier, queue);
    expect(asked).toEqual([`${ok.reference}:success`, `${bad.reference}:failed`]);
    expect(sent).toHaveLength(2);
    expect(sent.find((m) => m.markup !== undefined)?.markup).toEqual(markup);
    expect(sent.filter((m) => m.markup === undefined)).toHaveLength(1);
  });
});

describe("final buttons' side effects", () => {
  it("are not made for a push that is withheld or already sent (only once the lock says go)", async () => {
    const { queue, orders } = memoryParts();
    const asked: string[] = [];
    const { fake, sent } = scriptedApi([]);
    const finalButtons = async (order: { reference: string }, status: string) => {
      asked.push(`${order.reference}:${status}`); // saves the number, records a reminder
      return undefined;
    };
    // Withheld: after a reconnect the store no longer holds the success (a failover lost it).
    const lost = await orders.place(mobileInput());
    await orders.apply({ reference: lost.reference, source: "execute", status: "success", at: 1 });
    const afterFailover: NotificationQueue = Object.assign(Object.create(queue), {
      unbroken: () => false,
    });
    const rolledBack = {
      async get(reference: string) {
        const order = await orders.get(reference);
        return order && { ...order, status: "failed" as const };
      },
    };
    const a = createNotifier({
      queue: afterFailover,
      orders: rolledBack,
      api: fake,
      consumerName: "fb1",
      finalButtons,
    });
    expect(await a.runOnce()).toEqual(["dropped"]);
    // Already sent by another consumer: its lock answers "sent".
    const done = await orders.place(mobileInput());
    await orders.apply({ reference: done.reference, source: "execute", status: "success", at: 1 });
    await queue.markSent(`status:${done.reference}:success`);
    const b = createNotifier({ queue, orders, api: fake, consumerName: "fb2", finalButtons });
    expect(await b.runOnce()).toEqual(["duplicate"]);
    expect(sent).toEqual([]);
    expect(asked).toEqual([]); // before: both asked, before the lock
  });
});

describe("notifier failures", () => {
  it("after a 429, runs the push again once retry_after has passed, not after the claim idle time", async () => {
    const { queue, orders } = memoryParts();
    const o = await orders.place(mobileInput());
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
    const { fake, sent } = scriptedApi([
      {
        error_code: 429,
        description: "Too Many Requests: retry after 1",
        parameters: { retry_after: 1 },
      },
    ]);
    // The default claim idle time (30 s): before, the push waited for the reclaim.
    const notifier = createNotifier({ queue, orders, api: fake, consumerName: "f0", blockMs: 50 });
    const t0 = Date.now();
    notifier.start();
    try {
      await waitUntil(() => sent.length === 1, "the push after the pause", { timeoutMs: 6_000 });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    } finally {
      await notifier.stop();
    }
    expect(await queue.backlog()).toBe(0);
  });

  it("waits out a 429 and then delivers once", async () => {
    const { queue, orders } = memoryParts();
    const o = await orders.place(mobileInput());
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
    const { fake, sent } = scriptedApi([
      {
        error_code: 429,
        description: "Too Many Requests: retry after 0",
        parameters: { retry_after: 0 },
      },
    ]);
    const notifier = createNotifier({
      queue,
      orders,
      api: fake,
      consumerName: "f1",
      claimIdleMs: 0,
    });
    const first = await notifier.runOnce();
    expect(first).toEqual(["retry"]);
    await drain(notifier, queue);
    expect(sent).toHaveLength(1);
  });

  it("retries a passing failure past the attempt limit while the entry is young (test/notify/outage.test.ts: the age bound)", async () => {
    const { queue, orders } = memoryParts();
    const o = await orders.place(mobileInput());
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
    const boom = { error_code: 500, description: "Internal Server Error" };
    const { fake, sent } = scriptedApi([boom, boom, boom, boom]);
    const notifier = createNotifier({
      queue,
      orders,
      api: fake,
      consumerName: "f2",
      claimIdleMs: 0,
      maxAttempts: 3,
    });
    await drain(notifier, queue);
    // Before: dead-lettered after 3 tries. A 5xx says nothing about the message: retried.
    expect(sent).toHaveLength(1);
    expect(await queue.listDead(5)).toEqual([]);
  });

  it("two consumers racing on one entry send it once", async () => {
    const { queue, orders } = memoryParts();
    const o = await orders.place(mobileInput());
    const applied = await orders.apply({
      reference: o.reference,
      source: "execute",
      status: "failed",
      at: 1,
    });
    await queue.enqueue(applied.notifications);
    const { fake, sent } = scriptedApi([]);
    const a = createNotifier({ queue, orders, api: fake, consumerName: "a", claimIdleMs: 0 });
    const b = createNotifier({ queue, orders, api: fake, consumerName: "b", claimIdleMs: 0 });
    await waitUntil(async () => {
      await Promise.all([a.runOnce(), b.runOnce()]);
      return (await queue.backlog()) === 0;
    }, "both drained");
    expect(sent).toHaveLength(1);
    expect(await queue.isSent(notificationKey(applied.notifications[0]!))).toBe(true);
  });

  it("a consumer that saw 'not sent' just before another finished does not send it again", async () => {
    const { queue, orders } = memoryParts();
    const o = await orders.place(mobileInput());
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
    const sent: string[] = [];
    let releaseSend!: () => void;
    const sendGate = new Promise<void>((r) => {
      releaseSend = r;
    });
    let sendReached!: () => void;
    const sending = new Promise<void>((r) => {
      sendReached = r;
    });
    const slowApi: NotifierApi = {
      async sendMessage(_chatId, text) {
        sendReached();
        await sendGate;
        sent.push(text);
        return { message_id: sent.length };
      },
      async editMessageText() {
        return true;
      },
    };
    // B's first look at the sent marker answers before A sends, and B acts on it only after A
    // has sent, marked and let go of the lock: the window between a check and a lock.
    let releaseLook!: () => void;
    const lookGate = new Promise<void>((r) => {
      releaseLook = r;
    });
    let looked!: () => void;
    const bLooked = new Promise<void>((r) => {
      looked = r;
    });
    let firstLook = true;
    const bQueue: NotificationQueue = Object.assign(Object.create(queue), {
      async isSent(key: string) {
        const answer = await queue.isSent(key);
        if (firstLook) {
          firstLook = false;
          looked();
          await lookGate;
        }
        return answer;
      },
    });
    const a = createNotifier({ queue, orders, api: slowApi, consumerName: "a" });
    const b = createNotifier({
      queue: bQueue,
      orders,
      api: slowApi,
      consumerName: "b",
      claimIdleMs: 0,
    });
    const aRun = a.runOnce();
    await sending;
    const bRun = b.runOnce();
    await bLooked;
    releaseSend();
    await aRun;
    releaseLook();
    await bRun;
    expect(sent).toEqual([expect.stringContaining(o.reference)]);
  });
});

describe("kill and restart (Redis)", () => {
  const r = testRedis("notifier");
  afterEach(async () => {
    await r.cleanup();
  });

  it("delivers what was queued while the notifier was down, once, to a new consumer", async () => {
    const queueFor = (redis = r.redis) => createRedisNotificationQueue({ redis, prefix: r.prefix });
    const storeFor = (redis = r.redis): OrderStore =>
      createRedisOrderStore({ redis, prefix: r.prefix });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store: storeFor(),
      provider: noProvider,
    });
    const users = [newUser(), newUser(), newUser()];

    // Process 1 runs a notifier, then dies.
    const q1 = queueFor(r.connect());
    const first = createNotifier({
      queue: q1,
      orders: storeFor(),
      api,
      consumerName: "proc-1",
      blockMs: 50,
    });
    first.start();
    const placed = [];
    for (const u of users) placed.push(await withReceipt(orders, u));
    await waitUntil(async () => (await q1.backlog()) === 0, "first notifier drained");
    await first.stop();

    // While it is down: every order reaches its final state (pending + final per order).
    for (const [i, p] of placed.entries()) {
      await orders.apply({ reference: p.reference, source: "webhook", status: "pending", at: 10 });
      await orders.apply({
        reference: p.reference,
        source: "status",
        status: i === 0 ? "failed" : "success",
        at: 11,
      });
    }
    // A consumer that read some entries and crashed before acknowledging them.
    const crashed = q1.consumer("proc-1-crashed");
    expect((await crashed.read(2, 0)).length).toBe(2);

    // Process 2 starts with a new consumer name: it gets the new entries and claims the stale ones.
    const q2 = queueFor(r.connect());
    const second = createNotifier({
      queue: q2,
      orders: storeFor(r.connect()),
      api,
      consumerName: "proc-2",
      blockMs: 50,
      claimIdleMs: 0,
    });
    second.start();
    await waitUntil(async () => (await q2.backlog()) === 0, "second notifier drained");
    await second.stop();

    for (const [i, u] of users.entries()) {
      const msgs = botMessages(u);
      const finals = msgs.filter((m) => !m.edited && /Recharge (successful|failed)/.test(m.text));
      expect(finals).toHaveLength(1);
      expect(finals[0]?.text).toMatch(i === 0 ? /failed/ : /successful/);
      expect(msgs).toHaveLength(2);
    }

    // A third start finds nothing left to send.
    const third = createNotifier({
      queue: queueFor(),
      orders: storeFor(),
      api,
      consumerName: "proc-3",
      claimIdleMs: 0,
    });
    expect(await third.runOnce()).toEqual([]);
    await crashed.close();
  });
});

describe("the final push renders the order its queue entry carries (Redis)", () => {
  let r: ReturnType<typeof testRedis>;
  afterEach(async () => {
    await r.cleanup();
  });

  const setup = () => {
    r = testRedis("notifier-written");
    const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
    const store = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: noProvider,
    });
    const reads: string[] = [];
    const counting = {
      async get(reference: string) {
        reads.push(reference);
        return store.get(reference);
      },
    };
    return { queue, orders, reads, counting };
  };

  it("reads no order for fresh entries", async () => {
    const { queue, orders, reads, counting } = setup();
    const user = newUser();
    const { reference } = await withReceipt(orders, user);
    await orders.apply({ reference, source: "status", status: "success", at: 11 });
    const notifier = createNotifier({ queue, orders: counting, api, consumerName: "w1" });
    await drain(notifier, queue);
    const msgs = botMessages(user);
    expect(msgs.filter((m) => !m.edited && /Recharge successful/.test(m.text))).toHaveLength(1);
    // Neither the "unknown" edit nor the final push and its edit read the order.
    expect(reads).toEqual([]);
  });

  it("never edits a receipt backwards from entries it did not read the order for", async () => {
    const { queue, orders, counting } = setup();
    const user = newUser();
    const { reference, receiptId } = await withReceipt(orders, user);
    await orders.apply({ reference, source: "webhook", status: "queued", at: 10 });
    await orders.apply({ reference, source: "webhook", status: "pending", at: 11 });
    const notifier = createNotifier({ queue, orders: counting, api, consumerName: "w3" });
    await drain(notifier, queue);
    const receipt = botMessages(user).find((m) => m.id === receiptId);
    expect(receipt?.text).toMatch(/Status: With the operator/);
  });

  it("edits the receipt from a queued entry read after the order reached pending (pending is not sent)", async () => {
    const { queue, orders, reads, counting } = setup();
    const user = newUser();
    const { reference, receiptId } = await withReceipt(orders, user);
    await orders.apply({ reference, source: "webhook", status: "queued", at: 10 });
    await orders.apply({ reference, source: "webhook", status: "pending", at: 11 });
    // Old entries by the notifier's clock: the order is read, and it is pending by then.
    const notifier = createNotifier({
      queue,
      orders: counting,
      api,
      consumerName: "w5",
      now: () => Date.now() + 5_000,
    });
    await drain(notifier, queue);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    const receipt = botMessages(user).find((m) => m.id === receiptId);
    expect(receipt?.text).toMatch(/Status: With the operator/);
  });

  it("takes a chat that ordered within the last minute as active, without a look at the inactive set", async () => {
    const { queue, orders } = setup();
    const user = newUser();
    const { reference } = await withReceipt(orders, user);
    await queue.markChatInactive(user); // e.g. blocked once, never sent /start again
    await orders.apply({ reference, source: "status", status: "success", at: 11 });
    await drain(createNotifier({ queue, orders, api, consumerName: "w6" }), queue);
    const pushes = botMessages(user).filter((m) => !m.edited && /Recharge successful/.test(m.text));
    expect(pushes).toHaveLength(1);
  });

  it("drops the push to an inactive chat whose order is older than a minute", async () => {
    const { queue, orders } = setup();
    const user = newUser();
    const { reference } = await withReceipt(orders, user);
    await queue.markChatInactive(user);
    await orders.apply({ reference, source: "status", status: "success", at: 11 });
    const before = botMessages(user).length;
    const notifier = createNotifier({
      queue,
      orders,
      api,
      consumerName: "w7",
      now: () => Date.now() + 120_000,
    });
    await drain(notifier, queue);
    expect(botMessages(user)).toHaveLength(before);
  });

  it("drops a stale intermediate entry whose order moved on, and reads when the entry is old", async () => {
    const { queue, orders, reads, counting } = setup();
    const user = newUser();
    const { reference, receiptId } = await withReceipt(orders, user);
    await orders.apply({ reference, source: "webhook", status: "pending", at: 11 });
    // The "unknown" entry is old by the notifier's clock: the order is read and shows pending.
    const notifier = createNotifier({
      queue,
      orders: counting,
      api,
      consumerName: "w4",
      now: () => Date.now() + 5_000,
    });
    await drain(notifier, queue);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    const receipt = botMessages(user).find((m) => m.id === receiptId);
    expect(receipt?.text).toMatch(/Status: With the operator/);
  });

  it("reads the order when the entry is older than a read may be", async () => {
    const { queue, orders, reads, counting } = setup();
    const user = newUser();
    const { reference } = await withReceipt(orders, user);
    await orders.apply({ reference, source: "status", status: "success", at: 11 });
    const notifier = createNotifier({
      queue,
      orders: counting,
      api,
      consumerName: "w2",
      now: () => Date.now() + 5_000,
    });
    await drain(notifier, queue);
    expect(botMessages(user).filter((m) => /Recharge successful/.test(m.text))).not.toHaveLength(0);
    expect(reads.filter((x) => x === reference).length).toBeGreaterThanOrEqual(2);
  });
});
