import type { Api } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../dev/playground/emulator/index.ts";
import { noteToAdmins } from "../../src/books/admin-note.ts";
import { createMemoryCrossings, createRedisCrossings } from "../../src/books/crossing.ts";
import { createMemoryNotificationQueue } from "../../src/notify/memory-queue.ts";
import type { NotificationQueue } from "../../src/notify/queue.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { adminAlerts } from "../../src/system/dashboard.ts";
import { createNotifier, notifierEmulator } from "../support/notify.ts";
import { testRedis, waitUntil } from "../support/orders.ts";

/**
 * Admin alerts about no order, to one admin in the same millisecond (review of session 28): their
 * send key was (topic, no reference, time, chat), so the second was taken for a duplicate of the
 * first and never sent. Now the key carries a digest of what the alert says (src/notify/
 * send-key.ts): two alerts are two messages, and one alert queued twice is still one. Through the
 * product's path: the back office's admin alerts (a crossing each, queued in the step that marks
 * it), the notifier, the Bot API emulator over HTTP; real Redis and the memory stores.
 */

/** Each test's admin chat (the emulator keeps every chat's messages). */
let admin = 7_000;
/** The one millisecond both alerts are made in (a fixed clock). */
const AT = 1_790_000_000_000;

let em: RunningEmulator;
let api: Api;
beforeAll(async () => {
  ({ em, api } = await notifierEmulator("123:admin-alert-key", { maxRetryAttempts: 0 }));
});
afterAll(async () => {
  await em.close();
});

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

type Rig = { queue: NotificationQueue; crossings: ReturnType<typeof createMemoryCrossings> };

/** A new admin chat for the test, started with the bot. */
function newAdmin(): number {
  admin++;
  em.emulator.users.upsert(admin, { first_name: "Admin", started: true });
  return admin;
}

function memoryRig(): Rig {
  const queue = createMemoryNotificationQueue();
  return { queue, crossings: createMemoryCrossings(queue) };
}

function redisRig(): Rig {
  const r = testRedis("admin-alert-key");
  cleanup = r.cleanup;
  return {
    queue: createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix }),
    crossings: createRedisCrossings(r.redis, r.prefix),
  };
}

const told = (chatId: number) =>
  em.emulator
    .chat(chatId)
    .filter((m) => m.from === "bot")
    .map((m) => m.text);

/** Runs a notifier until the outbox is empty. */
async function drain(rig: Rig) {
  const orders = { get: async () => null };
  const notifier = createNotifier({ queue: rig.queue, orders, api, consumerName: "n1" });
  await waitUntil(async () => {
    await notifier.runOnce();
    return (await rig.queue.backlog()) === 0;
  }, "outbox drained");
}

describe.each([
  ["memory", memoryRig],
  ["redis", redisRig],
])("admin alerts about no order (%s)", (_name, rigOf) => {
  it("two made in the same millisecond for one admin both reach them", async () => {
    const rig = rigOf();
    const to = newAdmin();
    const alert = adminAlerts({ crossings: rig.crossings }, () => AT);
    await alert("float-move:aaaaaaaaaaaaaaaa", [to], "Admin 1 proposes a refill of Rs 500.");
    await alert("float-move:bbbbbbbbbbbbbbbb", [to], "Admin 2 proposes a refill of Rs 900.");
    await drain(rig);
    const texts = told(to);
    expect(texts).toHaveLength(2);
    expect(texts.some((t) => t?.includes("Rs 500"))).toBe(true);
    expect(texts.some((t) => t?.includes("Rs 900"))).toBe(true);
  });

  it("one queued twice is sent once", async () => {
    const rig = rigOf();
    const to = newAdmin();
    const [alert] = noteToAdmins([to], AT, "Admin 1 proposes a correction up of Rs 75.");
    if (!alert) throw new Error("no alert");
    // The same alert twice in the outbox (a producer's retry, a replay of the dead list).
    await rig.queue.enqueue([alert]);
    await rig.queue.enqueue([structuredClone(alert)]);
    await drain(rig);
    expect(told(to)).toHaveLength(1);
  });
});
