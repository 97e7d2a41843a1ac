import { Writable } from "node:stream";
import { Api } from "grammy";
import { afterAll, beforeAll } from "vitest";
import { type RunningStandIn, startWhatsAppStandInServer } from "../../dev/whatsapp/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createLogger } from "../../src/logger.ts";
import { createMemoryNotificationQueue } from "../../src/notify/memory-queue.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { boundedRetry, DEFAULT_BOT_API_POLICY } from "../../src/telegram/api.ts";
import { chatIdOfWaId, isWhatsAppChat } from "../../src/whatsapp/chat-ids.ts";
import { createWhatsAppClient } from "../../src/whatsapp/client.ts";
import type { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { createNotifier, noProvider } from "./notify.ts";

/**
 * The notifier's final push into WhatsApp chats, as the notifier tests build it: the Graph API
 * (the stand-in, or a server of the test's own), the product's WhatsApp client over it, the chat
 * store and the router (whatsapp-router.ts), and the bot's Api through the router's fetch, with
 * the orders and the queue of one notifier. Each test file keeps what it is about: the faults,
 * the clock, what is counted.
 */

export const GRAPH_TOKEN = "EAAG-stand-in-token-0123456789";
export const GRAPH_PHONE_ID = "106540352242922";

/** The Graph API stand-in, started before the file's tests and closed after them. */
export function useGraphStandIn(): () => RunningStandIn {
  let graph: RunningStandIn | undefined;
  beforeAll(async () => {
    graph = await startWhatsAppStandInServer({
      appSecret: "stand-in-app-secret-0123",
      accessToken: GRAPH_TOKEN,
      phoneNumberId: GRAPH_PHONE_ID,
    });
  });
  afterAll(async () => {
    await graph?.close();
  });
  return () => {
    if (!graph) throw new Error("the Graph stand-in is not started yet");
    return graph;
  };
}

/**
 * The product's WhatsApp client over `apiRoot`, quiet. One attempt unless told: a refusal
 * reaches the router, not the client's own quick retries.
 */
export function graphClient(apiRoot: string, attempts = 1) {
  return createWhatsAppClient({
    apiRoot,
    apiVersion: "v24.0",
    phoneNumberId: GRAPH_PHONE_ID,
    accessToken: GRAPH_TOKEN,
    timeoutMs: 5_000,
    attempts,
    maxBackoffMs: 10,
    logger: createLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
  });
}

/**
 * The customers' 24-hour windows open: each just wrote `text` (on the stand-in, when given) and
 * the chat store took it in.
 */
export async function openWindows(
  chats: ReturnType<typeof createMemoryWaChatStore>,
  waIds: readonly string[],
  standIn?: RunningStandIn["standIn"],
  text = "hi",
): Promise<void> {
  for (const waId of waIds) {
    if (standIn) await standIn.userSends({ waId }, text);
    await chats.arrive(chatIdOfWaId(waId) as number, { at: Date.now(), wamid: "wamid.in" }, "none");
  }
}

type NotifierOpts = Parameters<typeof createNotifier>[0];

/**
 * A staff-mode order service and the notifier of its outbox, over the bot's Api calling `fetch`
 * (the router's), with the bounded Bot API policy (`policy` over the default). The notifier
 * reads at once (`claimIdleMs` 0), edits receipts in Telegram chats only, and takes `notifier`.
 */
export function notifierOver(
  fetch: typeof globalThis.fetch,
  opts: {
    /** Telegram's Bot API root, for the calls the router hands on to Telegram. */
    apiRoot?: string;
    policy?: Partial<typeof DEFAULT_BOT_API_POLICY>;
    notifier?: Partial<Omit<NotifierOpts, "queue" | "orders" | "api">>;
  } = {},
) {
  const api = new Api("1:x", { ...(opts.apiRoot ? { apiRoot: opts.apiRoot } : {}), fetch });
  api.config.use(boundedRetry({ ...DEFAULT_BOT_API_POLICY, ...opts.policy }));
  const queue = createMemoryNotificationQueue();
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createMemoryOrderStore({ outbox: queue }),
    provider: noProvider,
  });
  const notifier = createNotifier({
    queue,
    orders,
    api,
    consumerName: "wa",
    claimIdleMs: 0,
    editsReceipts: (id) => !isWhatsAppChat(id),
    ...opts.notifier,
  });
  return { api, queue, orders, notifier };
}
