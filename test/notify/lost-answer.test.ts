import type { Api } from "grammy";
import { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LostAnswer } from "../../dev/playground/emulator/core.ts";
import type { RunningEmulator } from "../../dev/playground/emulator/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";

import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { RESEND_FIRST_MS } from "../../src/notify/retry-bound.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { createNotifier, noProvider, notifierEmulator } from "../support/notify.ts";
import { attachReceipt, mobileInput, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Telegram accepts a push and its answer is lost (connection reset after the message is in the
 * chat). sendMessage has no idempotency key, so a blind retry shows the push twice: before this
 * test, 6 lost answers gave 6 extra pushes. Now a push is not sent again by the Bot API client;
 * an order with a receipt gets the receipt edit instead (0 extra), one without is sent again and
 * every such resend is counted in notify_push_possible_duplicates_total. A request lost before
 * Telegram carried it out still reaches the chat. Real Redis, the emulator over HTTP, the
 * notifier's default Bot API policy (3 attempts).
 */

const LOST = 6;

let em: RunningEmulator;
let api: Api;
let nextUser = 77_000;

beforeAll(async () => {
  // The default policy's attempts (3): a blind retry of the lost send is what this test counts.
  ({ em, api } = await notifierEmulator("123:lost-answer", {
    timeoutMs: 2_000,
    maxDelaySeconds: 0.1,
  }));
});
afterAll(async () => {
  await em.close();
});

const r = testRedis("lost-answer");
afterEach(() => {
  em.emulator.loseAnswers("sendMessage", 0);
});
afterAll(async () => {
  await r.cleanup();
});

function setup() {
  const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
    provider: noProvider,
  });
  const registry = new Registry();
  // The notifier's clock, moved on a minute per round of drain(): a push sent again after a lost
  // answer waits that long (resendDelayMs) by this clock, not by the test's.
  const clock = { offset: 0 };
  // A short claim idle time: a failed push is retried within the test.
  const notifier = createNotifier({
    queue,
    orders,
    api,
    consumerName: "lost-answer",
    claimIdleMs: 200,
    registry,
    now: () => Date.now() + clock.offset,
  });
  return { queue, orders, notifier, registry, clock };
}

/** Places one order per new user (with a receipt in its chat when asked), each "unknown". */
async function placeOrders(orders: ReturnType<typeof createOrders>, receipts: boolean) {
  const placed: Array<{ user: number; reference: string; receiptId?: number }> = [];
  for (let i = 0; i < LOST; i++) {
    const user = ++nextUser;
    em.emulator.users.upsert(user, { first_name: `U${user}`, started: true });
    const o = await orders.place(mobileInput({ userId: user, chatId: user }));
    let receiptId: number | undefined;
    if (receipts) {
      receiptId = (await api.sendMessage(user, `Order ${o.reference}: processing`)).message_id;
      await attachReceipt(orders, o.reference, receiptId);
    }
    await orders.submit(o.reference);
    placed.push({ user, reference: o.reference, ...(receiptId ? { receiptId } : {}) });
  }
  return placed;
}

/** Runs the notifier until nothing is left to deliver (the edit lane included). */
async function drain(s: ReturnType<typeof setup>) {
  await waitUntil(
    async () => {
      await s.notifier.runOnce();
      s.clock.offset += RESEND_FIRST_MS;
      return (await s.queue.backlog()) === 0;
    },
    "queue drained",
    { timeoutMs: 30_000 },
  );
}

/** Final pushes in the chat (new bot messages saying the outcome; the receipt is not one). */
const pushesIn = (user: number, reference: string, receiptId?: number) =>
  em.emulator
    .chat(user)
    .filter(
      (m) =>
        m.from === "bot" &&
        m.id !== receiptId &&
        m.text.includes(`Reference: ${reference}`) &&
        /Recharge successful/.test(m.text),
    ).length;

async function counter(registry: Registry, name: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return Number.NaN;
  return (await metric.get()).values.reduce((a, v) => a + v.value, 0);
}

/** Every order made final, with the next LOST sendMessage answers lost the way `how` says. */
async function finalsWithLostAnswers(receipts: boolean, how: LostAnswer) {
  const s = setup();
  const placed = await placeOrders(s.orders, receipts);
  await drain(s); // the receipts show "confirming"
  const lostBefore = em.emulator.answersLost();
  em.emulator.loseAnswers("sendMessage", LOST, how);
  for (const p of placed)
    await s.orders.apply({ reference: p.reference, source: "webhook", status: "success", at: 5 });
  await drain(s);
  expect(em.emulator.answersLost() - lostBefore).toBe(LOST);
  const pushes = placed.map((p) => pushesIn(p.user, p.reference, p.receiptId));
  return { s, placed, pushes, extra: pushes.reduce((a, n) => a + Math.max(0, n - 1), 0) };
}

describe("a push whose answer Telegram lost", () => {
  it.each(["reset", "hang"] as const)(
    `is not pushed again where the receipt can show it: ${LOST} lost answers (%s), 0 extra pushes`,
    async (how) => {
      const { s, placed, pushes, extra } = await finalsWithLostAnswers(true, how);
      expect(pushes).toEqual(placed.map(() => 1)); // before: 2 each (6 extra)
      expect(extra).toBe(0);
      for (const p of placed) {
        const receipt = em.emulator.chat(p.user).find((m) => m.id === p.receiptId);
        expect(receipt?.text).toMatch(/Status: Successful/);
      }
      expect(await counter(s.registry, "notify_push_possible_duplicates_total")).toBe(0);
      expect(await counter(s.registry, "notify_push_outcome_unknown_total")).toBe(LOST);
    },
  );

  it("without a receipt is sent again, and every resend is counted as a possible duplicate", async () => {
    const { s, pushes, extra } = await finalsWithLostAnswers(false, "reset");
    // A lost result is worse than a duplicate: every chat has its push, sent once more after its
    // lost answer (at most one extra per lost answer), and each extra is counted.
    expect(pushes.every((n) => n === 2)).toBe(true);
    expect(extra).toBe(LOST);
    expect(await counter(s.registry, "notify_push_possible_duplicates_total")).toBe(extra);
  });

  it("that was lost before Telegram carried it out still reaches the chat", async () => {
    // The request dropped on its way: the same failure to the bot, nothing in the chat.
    const { s, pushes } = await finalsWithLostAnswers(false, "drop");
    expect(pushes.every((n) => n === 1)).toBe(true);
    expect(await counter(s.registry, "notify_push_possible_duplicates_total")).toBe(LOST);
  });

  it("whose sender died mid-send is sent again, even with a receipt, and counted", async () => {
    const s = setup();
    const [p] = await placeOrders(s.orders, true);
    await drain(s);
    await s.orders.apply({ reference: p!.reference, source: "webhook", status: "success", at: 5 });
    // What a sender killed between its lock and its marker leaves: the lock, run out.
    await s.queue.lockSending(`status:${p!.reference}:success`, 1);
    await new Promise((r) => setTimeout(r, 20));
    await drain(s);
    expect(pushesIn(p!.user, p!.reference, p!.receiptId)).toBe(1);
    expect(await counter(s.registry, "notify_push_possible_duplicates_total")).toBe(1);
  });
});
