import { Counter, type Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import { chatIdOfWaId } from "./chat-ids.ts";
import type { WaInboundQueue } from "./inbound-queue.ts";
import type { WaInboundMessage } from "./types.ts";

/**
 * The webhook's messages into the inbound queue. A sender whose phone WhatsApp withholds (a
 * username: the business-scoped `user_id` only, whatsapp-notes.md §4) has no chat here: the
 * chats, accounts and sends all key on the phone. Such a message is not queued, but logged (its
 * user id and wamid, never its words) and counted, so operators see how many customers it hits.
 * A redelivery by Meta is logged and counted again (no wamid is remembered for it).
 */
export function inboundAcceptor(deps: {
  queue: WaInboundQueue;
  registry: Registry;
  logger: Logger;
}) {
  const name = "whatsapp_inbound_unanswerable_total";
  const unanswerable =
    (deps.registry.getSingleMetric(name) as Counter | undefined) ??
    new Counter({
      name,
      help: "WhatsApp messages not answered: the sender's phone number withheld (user id only)",
      registers: [deps.registry],
    });
  return async (messages: readonly WaInboundMessage[]) => {
    for (const m of messages) {
      const chatId = m.waId ? chatIdOfWaId(m.waId) : null;
      if (chatId !== null) {
        await deps.queue.enqueue(chatId, m);
        continue;
      }
      unanswerable.inc();
      deps.logger.warn(
        { userId: m.userId, wamid: m.wamid },
        "whatsapp message without a phone number: not answered",
      );
    }
  };
}
