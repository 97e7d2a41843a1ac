import type { Api } from "grammy";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../dev/playground/emulator/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createSendPacer, type SendPacer } from "../../src/notify/pacer.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { createRedis, type RedisClient } from "../../src/redis/connection.ts";
import { type OwnRedis, startOwnRedis } from "../support/chaos/redis-server.ts";
import { createNotifier, noProvider, notifierEmulator } from "../support/notify.ts";
import { mobileInput, waitUntil } from "../support/orders.ts";

/**
 * Redis restarts between the notifier's read of a final status and its push, and the restart lost
 * that status (the order's last write was not yet on disk; under Sentinel, a failover loses the
 * writes the promoted replica never had in the same way). Seen once in CI: the Sentinel chaos test
 * told two customers one outcome and then the other. Before the fix the push went out for a
 * status the store no longer held; the order, settled again, was pushed a second time with the
 * other outcome. Now a push after a reconnect reads the order once more and is withheld.
 *
 * Deterministic: a redis-server of the test's own that keeps only what an explicit SAVE wrote, and
 * a pacer (the step right before the sending lock) that kills and restarts it during the push.
 */

let em: RunningEmulator;
let api: Api;
let own: OwnRedis;
let redis: RedisClient;

beforeAll(async () => {
  ({ em, api } = await notifierEmulator("123:lost-final", { timeoutMs: 2_000 }));
  own = await startOwnRedis({ snapshots: true });
  redis = createRedis(own.url);
  redis.on("error", () => undefined);
});
afterAll(async () => {
  redis?.disconnect();
  await own?.destroy();
  await em?.close();
});

/** A real pacer whose first slot once armed restarts Redis from its last snapshot (a crash). */
function restartingPacer(): SendPacer & { armed: boolean; restarts: number } {
  const real = createSendPacer();
  const pacer = {
    armed: false,
    restarts: 0,
    limits: real.limits,
    hold: (until: number) => real.hold(until),
    async acquire(...args: Parameters<SendPacer["acquire"]>) {
      if (pacer.armed && pacer.restarts === 0) {
        pacer.restarts++;
        await own.kill();
        await own.start();
        await waitUntil(async () => (await redis.ping().catch(() => "")) === "PONG", "reconnect");
      }
      return real.acquire(...args);
    },
  };
  return pacer;
}

const pushesOf = (chatId: number, reference: string) =>
  em.emulator
    .chat(chatId)
    .filter((m) => m.from === "bot" && m.text.includes(reference))
    .map((m) => (/Recharge (successful|failed)/.exec(m.text)?.[1] ?? m.text).slice(0, 40));

describe("a final status lost by a Redis restart between the notifier's read and its push", () => {
  it("is not pushed; the order's status once settled again is, once", async () => {
    const prefix = `lost-final:${Date.now()}`;
    const queue = createRedisNotificationQueue({ redis, prefix });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store: createRedisOrderStore({ redis, prefix }),
      provider: noProvider,
    });
    const registry = new Registry();
    const pacer = restartingPacer();
    const notifier = createNotifier({
      queue,
      orders,
      api,
      consumerName: "lost-final",
      claimIdleMs: 200,
      registry,
      pacer,
    });
    const chatId = 88_001;
    em.emulator.users.upsert(chatId, { first_name: "Lost", started: true });
    const placed = await orders.place(mobileInput({ userId: chatId, chatId }));
    await orders.submit(placed.reference); // "unknown": no provider answers
    await notifier.runOnce(); // the consumer group exists before the snapshot
    await redis.call("SAVE");
    pacer.armed = true;

    // Written after the snapshot: the restart in the push's pacer loses it.
    await orders.apply({
      reference: placed.reference,
      source: "webhook",
      status: "success",
      at: 5,
    });
    await notifier.runOnce();
    expect(pacer.restarts).toBe(1);
    expect((await orders.get(placed.reference))?.status).toBe("unknown");
    expect(pushesOf(chatId, placed.reference)).toEqual([]); // before the fix: ["successful"]

    // The order is settled again, this time failed: the chat hears that, once.
    await orders.apply({ reference: placed.reference, source: "webhook", status: "failed", at: 9 });
    await waitUntil(
      async () => {
        await notifier.runOnce();
        return (await queue.backlog()) === 0;
      },
      "queue drained",
      { timeoutMs: 10_000 },
    );
    expect(pushesOf(chatId, placed.reference)).toEqual(["failed"]); // before: successful, failed
    const withheld = registry.getSingleMetric("notify_push_withheld_total");
    expect((await withheld?.get())?.values.reduce((a, v) => a + v.value, 0)).toBe(1);
  });

  it("counts a reconnect of either connection, not the blocking reader's first connect", async () => {
    const prefix = `lost-final-unbroken:${Date.now()}`;
    const queue = createRedisNotificationQueue({ redis, prefix });
    const entry = { kind: "status", chatId: 1, status: "success", at: 1 } as const;
    await queue.enqueue([{ ...entry, reference: "1700000000001" }]);
    const consumer = queue.consumer("c");
    // A blocking read: the reader's own connection, made now (its first connect is no reconnect).
    const [d] = await consumer.read(10, 100);
    if (!d) throw new Error("no entry read");
    expect(d.connects).toBeTypeOf("number");
    expect(queue.unbroken(d)).toBe(true);
    // Every client connection dropped by the server (the reader's too), as at a restart.
    const admin = createRedis(own.url);
    await admin.call("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
    admin.disconnect();
    await waitUntil(async () => (await redis.ping().catch(() => "")) === "PONG", "reconnect");
    expect(queue.unbroken(d)).toBe(false);
    // Read after the reconnects: trusted again until the next one.
    await queue.enqueue([{ ...entry, reference: "1700000000002" }]);
    const [d2] = await consumer.read(10, 100);
    if (!d2) throw new Error("no second entry read");
    expect(queue.unbroken(d2)).toBe(true);
    await consumer.close();
  });
});
