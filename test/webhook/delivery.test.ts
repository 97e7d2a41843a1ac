import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";
import { createSandbox, type Sandbox } from "../../dev/sandbox/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import type { Notifier } from "../../src/notify/notifier.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { isFinal, type Order, STATUS_RANK } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { createProviderClient, type ProviderClient } from "../../src/provider/index.ts";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";
import { createWebhookRoutes, type WebhookRoutes } from "../../src/webhook/routes.ts";
import { createNotifier, createNotifierApi } from "../support/notify.ts";
import { attachReceipt, mobileInput, serveFetch, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Acceptance: duplicate, out-of-order and replayed webhooks, delivered alternately to two processes
 * (each with its own Redis connection, orders service and webhook routes), give exactly one push per
 * real transition. Sandbox -> webhook HTTP -> orders (Redis) -> outbox -> notifier -> Bot API emulator.
 */

const TOKEN = "wh-token";
const SECRET = "wh-secret-for-delivery-test";

describe("webhooks end to end", () => {
  const r = testRedis("webhooks");
  let sandbox: Sandbox;
  let provider: { url: string; close(): Promise<void> };
  let hook: { url: string; close(): Promise<void> };
  let em: RunningEmulator;
  let client: ProviderClient;
  let routes: WebhookRoutes[];
  let notifier: Notifier;

  beforeAll(async () => {
    em = await startBotApiEmulatorServer();
    // Two "processes" behind a round-robin balancer.
    routes = [r.redis, r.connect()].map((redis) =>
      createWebhookRoutes({
        secret: SECRET,
        orders: createOrders({
          categories: CATEGORY_MODULES,
          accessMode: "staff",
          store: createRedisOrderStore({ redis, prefix: r.prefix }),
          provider: {
            execute: () => Promise.reject(new Error("unused")),
            statusByReference: (...a) => client.statusByReference(...a),
          },
        }),
        provider: { statusByReference: (...a) => client.statusByReference(...a) },
      }),
    );
    const apps = routes.map((rt) => new Hono().route("/webhooks/provider", rt));
    let turn = 0;
    hook = await serveFetch((req, env) => apps[turn++ % apps.length]!.fetch(req, env));

    sandbox = createSandbox({
      accounts: [
        {
          token: TOKEN,
          balancePaisa: 10_000_000,
          webhook: { url: `${hook.url}/webhooks/provider`, secret: SECRET },
        },
      ],
      delays: { toPendingMs: 20, toFinalMs: 40 },
      faults: { [TOKEN]: { duplicateWebhooks: true, outOfOrderWebhooks: true } },
      rateLimitPerSecond: 0,
      webhook: { backoffMs: 50 },
    });
    provider = await serveFetch((req, env) => sandbox.app.fetch(req, env));
    client = createProviderClient({ baseUrl: provider.url, token: TOKEN, maxRetries: 1 });

    const api = createNotifierApi("42:delivery", {
      apiRoot: em.apiRoot,
      maxRetryAttempts: 1,
      maxDelaySeconds: 1,
    });
    notifier = createNotifier({
      queue: createRedisNotificationQueue({ redis: r.connect(), prefix: r.prefix }),
      orders: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
      api,
      consumerName: "delivery-test",
      blockMs: 50,
    });
    notifier.start();
  });

  afterAll(async () => {
    await notifier.stop();
    await client.close();
    sandbox.close();
    await provider.close();
    await hook.close();
    await em.close();
    await r.cleanup();
  });

  it("gives exactly one push per real transition", async () => {
    const store = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: client,
    });
    const api = createNotifierApi("42:delivery", { apiRoot: em.apiRoot });
    const users = [701, 702, 703, 704, 705, 706];
    const placed: Order[] = [];
    for (const [i, user] of users.entries()) {
      em.emulator.users.upsert(user, { first_name: `U${user}`, started: true });
      const o = await orders.place(
        mobileInput({
          userId: user,
          chatId: user,
          connectionNo: i % 3 === 0 ? `984${user}0000` : `9841${user}123`,
        }),
      );
      const receipt = await api.sendMessage(user, `Order ${o.reference}: processing`);
      await attachReceipt(orders, o.reference, receipt.message_id);
      placed.push(await orders.submit(o.reference));
    }

    const allFinal = async () => {
      const now = await Promise.all(placed.map((o) => store.get(o.reference)));
      return now.every((o) => o && isFinal(o.status));
    };
    await waitUntil(allFinal, "orders final via webhooks", { timeoutMs: 15_000 });

    // Replay every event ever sent ("an hour later"), to both processes.
    const deliveries = sandbox.deliveries(TOKEN).filter((d) => d.kind === "event");
    expect(deliveries.some((d) => d.duplicate)).toBe(true);
    for (const d of deliveries) {
      const res = await fetch(`${hook.url}/webhooks/provider`, {
        method: "POST",
        headers: { "X-Signature": signature(SECRET), "Content-Type": "application/json" },
        body: JSON.stringify({ data: encryptPayload(SECRET, d.payload) }),
      });
      expect(res.status).toBe(200);
    }
    await Promise.all(routes.map((rt) => rt.settled()));

    const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
    await waitUntil(async () => (await queue.backlog()) === 0, "notifications delivered");

    for (const o of placed) {
      const final = (await store.get(o.reference))!;
      const expected = final.connectionNo.endsWith("0000") ? "failed" : "success";
      expect(final.status).toBe(expected);
      // The outcome came from the webhook's claim, confirmed by a status query.
      expect(final.history.at(-1)).toMatchObject({
        source: "status",
        status: expected,
        note: `confirms webhook ${expected}`,
      });

      // Real transitions after the receipt: those whose status moved (from the order's history).
      let rank = STATUS_RANK.submitting;
      let transitions = 0;
      for (const h of final.history) {
        if (h.status !== null && STATUS_RANK[h.status] > rank) {
          rank = STATUS_RANK[h.status];
          transitions++;
        }
      }

      const sends = em.emulator
        .calls("sendMessage")
        .filter((c) => c.ok && c.params.chat_id === o.chatId);
      const edits = em.emulator
        .calls("editMessageText")
        .filter((c) => c.ok && c.params.chat_id === o.chatId);
      // The receipt, then exactly one new message: the final outcome.
      expect(sends).toHaveLength(2);
      expect(String(sends[1]?.params.text)).toMatch(
        expected === "success" ? /Recharge successful/ : /Recharge failed/,
      );
      // Each edit shows a different state, never one twice, never more edits than transitions.
      const editTexts = edits.map((e) => String(e.params.text));
      expect(new Set(editTexts).size).toBe(editTexts.length);
      expect(edits.length).toBeLessThanOrEqual(transitions);
      expect(editTexts.at(-1)).toBe(String(sends[1]?.params.text));
      // The chat shows the final state on the receipt.
      const chat = em.emulator.chat(o.chatId).filter((m) => m.from === "bot");
      expect(chat).toHaveLength(2);
      expect(chat[0]?.text).toBe(chat[1]?.text);
    }
  });
});
