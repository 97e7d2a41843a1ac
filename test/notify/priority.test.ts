import type { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryNotificationQueue } from "../../src/notify/memory-queue.ts";
import { memoryPaceStore, type PacerLimitsInput } from "../../src/notify/pace-store.ts";
import { createSendPacer } from "../../src/notify/pacer.ts";
import type { NotificationQueue } from "../../src/notify/queue.ts";
import { redisPaceStore } from "../../src/notify/redis-pace-store.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { createNotifier, createNotifierApi, noProvider } from "../support/notify.ts";
import { attachReceipt, mobileInput, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Final pushes before receipt edits, under a budget the pushes fill: over the Bot API emulator
 * (HTTP) enforcing the same rate, on the memory queue and on Redis (queue and pacing budget).
 * The pushes never wait behind an edit; every receipt still ends showing its latest state, edited
 * once with only the newest text; no 429.
 */

/** 5 messages a second, burst 3: two of them kept for pushes (edits need an idle bucket). */
const PACING: PacerLimitsInput = {
  globalPerSecond: 5,
  globalBurst: 3,
  perChatPerSecond: 1,
  perChatBurst: 2,
  pushReserve: 2,
};

let em: RunningEmulator;
let api: Api;
let nextUser = 41_000;
/** Telegram's rules at the pacer's rate, so any message over the budget would be a 429. */
const LIMITS = { globalPerSecond: 5, globalBurst: 3, perChatPerSecond: 1, perChatBurst: 2 };

beforeAll(async () => {
  em = await startBotApiEmulatorServer({ limits: false });
  api = createNotifierApi("123:priority-test", { apiRoot: em.apiRoot, maxRetryAttempts: 0 });
});
afterAll(async () => {
  await em.close();
});

const redis = testRedis("notify-priority");
afterAll(async () => {
  await redis.cleanup();
});

interface Parts {
  queue: NotificationQueue;
  orders: ReturnType<typeof createOrders>;
  pacer: ReturnType<typeof createSendPacer>;
}

const setups: Array<[string, () => Parts]> = [
  [
    "memory",
    () => {
      const queue = createMemoryNotificationQueue();
      const store = createMemoryOrderStore({ outbox: queue });
      const pacer = createSendPacer({ store: memoryPaceStore(), limits: PACING });
      return {
        queue,
        orders: createOrders({
          categories: CATEGORY_MODULES,
          accessMode: "staff",
          store,
          provider: noProvider,
        }),
        pacer,
      };
    },
  ],
  [
    "redis",
    () => {
      const prefix = `${redis.prefix}${Math.random().toString(36).slice(2)}:`;
      const queue = createRedisNotificationQueue({ redis: redis.redis, prefix });
      const store = createRedisOrderStore({ redis: redis.redis, prefix });
      const pacer = createSendPacer({ store: redisPaceStore(redis.redis, prefix), limits: PACING });
      return {
        queue,
        orders: createOrders({
          categories: CATEGORY_MODULES,
          accessMode: "staff",
          store,
          provider: noProvider,
        }),
        pacer,
      };
    },
  ],
];

function newUser(): number {
  const id = ++nextUser;
  em.emulator.users.upsert(id, { first_name: `P${id}`, started: true });
  return id;
}

/** An order in "unknown" whose receipt the bot showed (set-up: the emulator's limits are off). */
async function withReceipt(orders: Parts["orders"], user: number) {
  const o = await orders.place(mobileInput({ userId: user, chatId: user }));
  const receipt = await api.sendMessage(user, `Order ${o.reference}: processing`);
  await attachReceipt(orders, o.reference, receipt.message_id);
  await orders.submit(o.reference); // -> unknown: an edit of the receipt is queued
  return { reference: o.reference, receiptId: receipt.message_id, user };
}

describe.each(setups)("pushes before receipt edits (%s)", (_name, make) => {
  it("sends every push before any edit, then all edits, the newest text once per receipt", async () => {
    const { queue, orders, pacer } = make();
    em.emulator.setLimits(false);
    // Receipts still to show "pending" (edits only), orders finishing (push + receipt edit), and
    // one order that finishes while its "pending" edit waits (the edit must be replaced).
    const editOnly = await Promise.all([1, 2, 3].map(() => withReceipt(orders, newUser())));
    const finishing = await Promise.all([1, 2, 3, 4].map(() => withReceipt(orders, newUser())));
    const late = await withReceipt(orders, newUser());
    const all = [...editOnly, ...finishing, late];
    // The receipts' "confirming" edits belong to the set-up (limits off).
    const setup = createNotifier({ queue, orders, api, consumerName: "setup", pacer: false });
    await waitUntil(async () => {
      await setup.runOnce();
      return (await queue.backlog()) === 0;
    }, "set-up drained");
    em.emulator.setLimits(LIMITS);
    const firstCall = em.emulator.calls().length;

    // The budget is busy (a burst just went out elsewhere), so every slot from now is contested.
    for (const chat of [1, 2, 3]) await pacer.acquire(chat);
    for (const o of [late, ...editOnly])
      await orders.apply({ reference: o.reference, source: "webhook", status: "pending", at: 5 });
    for (const o of finishing)
      await orders.apply({ reference: o.reference, source: "status", status: "success", at: 6 });

    const notifier = createNotifier({
      queue,
      orders,
      api,
      consumerName: "n",
      pacer,
      blockMs: 50,
    });
    notifier.start();
    try {
      // Once the first push is out, the late order finishes while its "pending" edit waits.
      await waitUntil(
        () =>
          em.emulator
            .calls()
            .slice(firstCall)
            .some((c) => c.method === "sendMessage" && c.ok),
        "the first push",
      );
      await orders.apply({ reference: late.reference, source: "status", status: "failed", at: 7 });
      await waitUntil(async () => (await queue.backlog()) === 0, "every notification done", {
        timeoutMs: 30_000,
      });
    } finally {
      await notifier.stop();
    }

    const chats = new Set(all.map((o) => o.user));
    const calls = em.emulator
      .calls()
      .slice(firstCall)
      .filter((c) => chats.has(Number(c.params.chat_id)));
    expect(calls.filter((c) => !c.ok).map((c) => c.description)).toEqual([]);
    expect(em.emulator.stats().tooManyRequests).toBe(0);
    const pushes = calls.filter((c) => c.method === "sendMessage");
    const edits = calls.filter((c) => c.method === "editMessageText");
    // Pushes first: the five finals went out before any receipt was edited.
    expect(pushes.map((c) => Number(c.params.chat_id)).sort()).toEqual(
      [...finishing, late].map((o) => o.user).sort(),
    );
    expect(calls.findIndex((c) => c.method === "editMessageText")).toBe(pushes.length);
    // Every receipt edited exactly once, to its newest state: the late order's "pending" never.
    const editsOf = (o: { user: number; receiptId: number }) =>
      edits
        .filter((c) => Number(c.params.chat_id) === o.user && c.params.message_id === o.receiptId)
        .map((c) => String(c.params.text));
    for (const o of editOnly)
      expect(editsOf(o)).toEqual([expect.stringMatching(/With the operator/)]);
    for (const o of finishing) expect(editsOf(o)).toEqual([expect.stringMatching(/Successful/)]);
    expect(editsOf(late)).toEqual([expect.stringMatching(/Failed/)]);
    expect(await queue.listDead(5)).toEqual([]);
  });
});

describe("an edit still waiting when its notifier stops (Redis)", () => {
  it("is made by the next consumer, and the push is not sent again", async () => {
    const prefix = `${redis.prefix}stop:`;
    const queue = createRedisNotificationQueue({ redis: redis.redis, prefix });
    const store = createRedisOrderStore({ redis: redis.redis, prefix });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: noProvider,
    });
    const pacer = createSendPacer({ store: redisPaceStore(redis.redis, prefix), limits: PACING });
    em.emulator.setLimits(false);
    const o = await withReceipt(orders, newUser());
    const setup = createNotifier({ queue, orders, api, consumerName: "setup", pacer: false });
    await waitUntil(async () => {
      await setup.runOnce();
      return (await queue.backlog()) === 0;
    }, "set-up drained");
    em.emulator.setLimits(LIMITS);
    const firstCall = em.emulator.calls().length;
    await orders.apply({ reference: o.reference, source: "status", status: "success", at: 6 });

    // Pushes of another process keep the budget full: the push goes, the edit cannot.
    const starve = { go: true };
    const other = (async () => {
      for (let chat = 1; starve.go; chat++) await pacer.acquire(chat);
    })();
    const first = createNotifier({ queue, orders, api, consumerName: "first", pacer });
    await first.runOnce();
    const pushed = () =>
      em.emulator
        .calls()
        .slice(firstCall)
        .filter((c) => c.method === "sendMessage" && Number(c.params.chat_id) === o.user);
    expect(pushed()).toHaveLength(1);
    expect(await queue.backlog()).toBe(1); // the entry waits for its receipt edit
    await first.stop(); // dies with the edit not made
    starve.go = false;
    await other;

    const second = createNotifier({ queue, orders, api, consumerName: "second", claimIdleMs: 0 });
    await waitUntil(async () => {
      await second.runOnce();
      return (await queue.backlog()) === 0;
    }, "second drained");
    const receipt = em.emulator.chat(o.user).find((m) => m.id === o.receiptId);
    expect(receipt?.text).toMatch(/Successful/);
    expect(pushed()).toHaveLength(1);
  });
});

describe("a push read while an earlier one waits", () => {
  it("is sent without waiting for the earlier one's batch", async () => {
    const queue = createMemoryNotificationQueue();
    const store = createMemoryOrderStore({ outbox: queue });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: noProvider,
    });
    em.emulator.setLimits(false);
    const slow = newUser();
    const quick = newUser();
    // The pacer holds the first chat's push until the test lets it go (a chat out of slots).
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let reached!: () => void;
    const atPacer = new Promise<void>((r) => {
      reached = r;
    });
    const pacer = createSendPacer({ limits: PACING });
    const gated = {
      limits: pacer.limits,
      async acquire(chatId: number, opts?: Parameters<typeof pacer.acquire>[1]) {
        if (chatId === slow && opts?.kind !== "edit") {
          reached();
          await held;
        }
        return pacer.acquire(chatId, opts);
      },
      hold: (until: number) => pacer.hold(until),
    };
    const notifier = createNotifier({ queue, orders, api, consumerName: "p", pacer: gated });
    const pushesTo = (chat: number) =>
      em.emulator.chat(chat).filter((m) => m.from === "bot" && /Recharge/.test(m.text));
    notifier.start();
    try {
      const a = await orders.place(mobileInput({ userId: slow, chatId: slow }));
      await orders.apply({ reference: a.reference, source: "execute", status: "success", at: 1 });
      await atPacer;
      const b = await orders.place(mobileInput({ userId: quick, chatId: quick }));
      await orders.apply({ reference: b.reference, source: "execute", status: "success", at: 1 });
      await waitUntil(() => pushesTo(quick).length === 1, "the second push");
      expect(pushesTo(slow)).toHaveLength(0);
      release();
      await waitUntil(() => pushesTo(slow).length === 1, "the first push, once let go");
      await waitUntil(async () => (await queue.backlog()) === 0, "all done");
    } finally {
      release();
      await notifier.stop();
    }
  });
});
