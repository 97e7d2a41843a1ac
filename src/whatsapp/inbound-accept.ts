import { Counter, type Registry } from "prom-client";
import { type Phone, phoneSchema } from "../accounts/phone.ts";
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
 * words). A changed number's notice (`user_changed_number`: Meta signs it, so it proves the change)
 * is handed to `numberChanged` before the webhook answers: the new number's chat is another
 * account, and support moves the balance from the back office (docs/whatsapp.md). When that
 * fails the webhook answers 503 and Meta delivers the notice again.
 */
export function inboundAcceptor(deps: {
  queue: WaInboundQueue;
  registry: Registry;
  logger: Logger;
  numberChanged?: (c: { wamid: string; oldPhone: Phone; newPhone: Phone }) => Promise<void>;
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
        const oldPhone = phoneSchema.safeParse(m.waId);
        const newPhone = phoneSchema.safeParse(m.changedTo);
        if (m.systemType !== "user_changed_number" || !deps.numberChanged) continue;
        if (!oldPhone.success || !newPhone.success || oldPhone.data === newPhone.data) continue;
        await deps.numberChanged({
          wamid: m.wamid,
          oldPhone: oldPhone.data,
          newPhone: newPhone.data,
        });
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
