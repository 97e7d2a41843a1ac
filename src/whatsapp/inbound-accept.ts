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
 *
 * A reaction (put on or taken off) and a system notice are not words to the bot, and are not
 * queued: handed to the chat engine they read as an empty text, answered "I did not understand"
 * (at a confirmation, the whole confirmation again), a system notice to the number the customer
 * just left (review s32-whatsapp, 1 and 3). A notice is logged with its type and both chats (no
 * words): a customer who changed number finds a new, empty account on it, and support needs the
 * old one to move the balance.
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
      if (m.kind === "reaction") continue;
      if (m.kind === "system") {
        const to = m.changedTo ? chatIdOfWaId(m.changedTo) : null;
        deps.logger.warn(
          { chatId, systemType: m.systemType, toChatId: to, wamid: m.wamid },
          "whatsapp system notice (a changed number or identity): not answered",
        );
        continue;
      }
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
