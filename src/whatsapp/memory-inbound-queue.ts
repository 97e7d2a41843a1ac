import type { Logger } from "../logger.ts";
import {
  type InboundItem,
  SEEN_SECONDS,
  WA_UPDATE_BASE,
  type WaInboundQueue,
} from "./inbound-queue.ts";

/**
 * The queue in this process's memory (`npm start` without Redis). A wamid is remembered
 * SEEN_SECONDS as in Redis (its key's EX), then forgotten: the oldest first, as they expire.
 */
export function createMemoryInboundQueue(
  logger: Logger,
  now: () => number = Date.now,
): WaInboundQueue {
  /** wamid: when it is forgotten; in the order seen, so the expired ones are at the front. */
  const seen = new Map<string, number>();
  const forget = () => {
    const t = now();
    for (const [wamid, until] of seen) {
      if (until > t) break;
      seen.delete(wamid);
    }
  };
  const chains = new Map<number, Promise<void>>();
  const backlog: InboundItem[] = [];
  let seq = 0;
  let handler: ((item: InboundItem) => Promise<void>) | undefined;
  const run = (item: InboundItem) => {
    const h = handler;
    if (!h) return void backlog.push(item);
    const before = chains.get(item.chatId) ?? Promise.resolve();
    const next = before.then(() =>
      h(item).catch((err: unknown) =>
        logger.error({ err: String(err), chatId: item.chatId }, "whatsapp message not handled"),
      ),
    );
    chains.set(item.chatId, next);
    void next.then(() => {
      if (chains.get(item.chatId) === next) chains.delete(item.chatId);
    });
  };
  return {
    async enqueue(chatId, message) {
      forget();
      if (seen.has(message.wamid)) return false;
      seen.set(message.wamid, now() + SEEN_SECONDS * 1000);
      seq += 1;
      run({ updateId: WA_UPDATE_BASE + seq, chatId, message });
      return true;
    },
    start(handle) {
      handler = handle;
      for (const item of backlog.splice(0)) run(item);
    },
    async stop() {
      handler = undefined;
      await Promise.all([...chains.values()]);
    },
  };
}
