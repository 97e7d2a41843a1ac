import { createRequire } from "node:module";
import { Api } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createSendPacer } from "../../src/notify/pacer.ts";
import { redisPaceStore } from "../../src/notify/redis-pace-store.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { boundedRetry, DEFAULT_BOT_API_POLICY } from "../../src/telegram/api.ts";
import { chatIdOfWaId, isWhatsAppChat } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { type FakeBotApi, startFakeBotApi } from "../support/fake-bot-api.ts";
import { createNotifier, noProvider } from "../support/notify.ts";
import { mobileInput, testRedis } from "../support/orders.ts";
import { graphClient, openWindows, useGraphStandIn } from "../support/whatsapp-notifier.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * One notifier serves Telegram and WhatsApp chats (the bot's Api through the WhatsApp router, as
 * in production). Telegram's flood wait (a 429 with retry_after, up to an hour) is Telegram's:
 * it holds Telegram's sends, in every instance sharing the pace store, and nothing else. Before
 * (review s31, session 32), the hold paused the whole notifier: a WhatsApp customer's order result
 * waited the five minutes out too. Real Redis (queue, orders, pace store), the scriptable Bot API
 * over HTTP, the Graph API stand-in; the notifiers' clock only moves when the test moves it.
 */

/** grammY's own fetch, as production hands Telegram's calls on (src/system/whatsapp.ts). */
const grammyFetch = createRequire(import.meta.url)("node-fetch") as typeof fetch;

const graph = useGraphStandIn();
let telegram: FakeBotApi;
beforeAll(async () => {
  telegram = await startFakeBotApi();
});
afterAll(async () => {
  await telegram.close();
});
let r: ReturnType<typeof testRedis>;
afterEach(async () => {
  await r.cleanup();
});

const MINUTE = 60_000;
const TG_CHAT = 5_550_032;
const WA_ID = "9779843299001";
const WA_CHAT = chatIdOfWaId(WA_ID) as number;

/** `answer`: what the bot's Api hears for a call before the router (undefined: the router's). */
async function setup(answer?: (method: string, body: { chat_id?: number }) => unknown) {
  r = testRedis("channel-hold");
  let clock = Date.now();
  const now = () => clock;
  const chats = createMemoryWaChatStore();
  await openWindows(chats, [WA_ID], graph().standIn);
  const client = graphClient(graph().graphRoot);
  const router = testRouter({ store: chats, send: client.send, telegram: grammyFetch });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const method = String(input).split("/").at(-1) ?? "";
    const body = JSON.parse(String(init?.body ?? "{}")) as { chat_id?: number };
    const answered = answer?.(method, body);
    return answered === undefined ? router.fetch(input, init) : Response.json(answered);
  };
  const api = new Api("1:x", { apiRoot: telegram.apiRoot, fetch });
  // A wait the Bot API asks for beyond a second is handed to the notifier (its hold).
  api.config.use(boundedRetry({ ...DEFAULT_BOT_API_POLICY, maxDelayMs: 1_000 }));
  const queue = createRedisNotificationQueue({ redis: r.redis, prefix: r.prefix });
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
    provider: noProvider,
  });
  /** An instance: its own pacer over the shared Redis pace store, the shared clock. */
  const notifier = (consumerName: string) => {
    const n = createNotifier({
      queue,
      orders,
      api,
      consumerName,
      pacer: createSendPacer({ store: redisPaceStore(r.redis, r.prefix), now }),
      claimIdleMs: 0,
      editsReceipts: (id) => !isWhatsAppChat(id),
      now,
    });
    onTestFinished(() => n.stop());
    return n;
  };
  const finalOrder = async (chatId: number) => {
    const o = await orders.place(mobileInput({ chatId, userId: chatId }));
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
    return o.reference;
  };
  const tick = (ms: number) => {
    clock += ms;
  };
  return { queue, notifier, finalOrder, tick };
}

/** Telegram answers sendMessage 429 retry_after 300 until `ok()`; the calls it was asked. */
function floodWait(ok: () => boolean) {
  let calls = 0;
  telegram.script = (method) => {
    if (method !== "sendMessage") return undefined;
    calls++;
    return ok()
      ? undefined
      : { error_code: 429, description: "Too Many Requests", retry_after: 300 };
  };
  return () => calls;
}

const toWhatsApp = (reference: string) =>
  graph()
    .standIn.messagesTo(WA_ID)
    .filter((m) => (m.text ?? "").includes(reference));

describe("Telegram's flood wait holds Telegram only", () => {
  it("a WhatsApp result queued after a Telegram 429 (retry_after 300) goes at once; Telegram's waits", async () => {
    const s = await setup();
    let over = false;
    const calls = floodWait(() => over);
    const a = s.notifier("a");
    const tgRef = await s.finalOrder(TG_CHAT);
    expect(await a.runOnce()).toEqual(["retry"]);
    expect(calls()).toBe(1);

    // Queued after the 429: a WhatsApp customer's order result.
    const waRef = await s.finalOrder(WA_CHAT);
    // Before: ["retry", "retry"]: the Telegram hold turned the WhatsApp push back unsent.
    expect(await a.runOnce()).toContain("sent");
    expect(toWhatsApp(waRef)).toHaveLength(1);
    expect(calls()).toBe(1);

    // Telegram's push waits out the five minutes, in this instance and in another one.
    const b = s.notifier("b");
    for (let i = 0; i < 9; i++) {
      s.tick(30_000);
      await a.runOnce();
      await b.runOnce();
    }
    expect(calls()).toBe(1);
    expect(telegram.chat(TG_CHAT).filter((m) => m.text.includes(tgRef))).toEqual([]);
    expect(await s.queue.backlog()).toBe(1);

    // The hold over: Telegram's push goes, once; nothing lost, nothing dead-lettered.
    over = true;
    s.tick(MINUTE);
    await a.runOnce();
    await b.runOnce();
    expect(telegram.chat(TG_CHAT).filter((m) => m.text.includes(tgRef))).toHaveLength(1);
    expect(toWhatsApp(waRef)).toHaveLength(1);
    expect(await s.queue.backlog()).toBe(0);
    expect(await s.queue.listDead(5)).toEqual([]);
  });

  it("a 429 answered in a WhatsApp chat holds neither Telegram's pushes nor the other instances", async () => {
    // The router answers Meta's rate limits as a 503 that sent nothing (bot-api-failure.ts); should
    // a 429 come back for a WhatsApp chat all the same, it is WhatsApp's. Before: it paused the
    // notifier's Telegram pushes and was written into Telegram's shared pace store.
    const s = await setup((method, body) =>
      method === "sendMessage" && body.chat_id === WA_CHAT
        ? {
            ok: false,
            error_code: 429,
            description: "Too Many Requests",
            parameters: { retry_after: 300 },
          }
        : undefined,
    );
    const calls = floodWait(() => true);
    const a = s.notifier("a");
    const waRef = await s.finalOrder(WA_CHAT);
    expect(await a.runOnce()).toEqual(["retry"]);
    const tgRef = await s.finalOrder(TG_CHAT);
    expect(await a.runOnce()).toContain("sent");
    const b = s.notifier("b");
    const tgLater = await s.finalOrder(TG_CHAT);
    expect(await b.runOnce()).toContain("sent");
    expect(calls()).toBe(2);
    const shown = telegram.chat(TG_CHAT).map((m) => m.text);
    expect(shown.filter((t) => t.includes(tgRef) || t.includes(tgLater))).toHaveLength(2);
    expect(toWhatsApp(waRef)).toEqual([]);
    expect(await s.queue.backlog()).toBe(1);
  });
});
