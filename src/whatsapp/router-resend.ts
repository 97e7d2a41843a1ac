import { waIdOfChat } from "./chat-ids.ts";
import { NothingSent, WhatsAppApiError } from "./errors.ts";
import type { RouterDeps, WaSender } from "./router-types.ts";

/** The router's sending (router.ts `outbound`), as the resend uses it. */
interface Sending {
  asTemplate(to: string, locale: string, text: string): Promise<string>;
  show(chatId: number, text: string, rows: []): Promise<{ wamids: string[] }>;
}

/** `sent`, or why nothing was: not ours, delivered or read, its words gone, the chat withheld. */
export type ResendResult = "sent" | "unknown" | "delivered" | "gone" | "withheld";

/** What came of a resend, and the wamids it sent (router.ts WhatsAppRouter.resendFailed). */
export type ResendFailed = (
  chatId: number,
  wamid: string,
  opts: { template: boolean },
) => Promise<{ result: ResendResult; wamids: string[] }>;

/**
 * WhatsAppRouter.resendFailed: a failed message's words sent again. Nothing is sent for a wamid
 * not ours, one delivered or read (statuses come in any order: a late `failed` never undoes a
 * delivery), words no longer kept, or a chat withheld now (a held or released number).
 */
export function failedResender(
  deps: RouterDeps,
  outbound: (deps: RouterDeps) => Sending,
): ResendFailed {
  const { store, logger } = deps;
  /** What to send again, or why nothing is. */
  async function words(chatId: number, wamid: string) {
    const messageId = await store.messageOf(chatId, wamid);
    if (messageId === null) return "unknown";
    const statuses = await store.statuses(chatId, wamid);
    if (statuses.includes("delivered") || statuses.includes("read")) return "delivered";
    const shown = await store.shown(chatId, messageId);
    if (!shown) return "unknown";
    if (shown.text === null) {
      // Kept until delivered (and for 16 messages after): a message delivered once is not resent.
      logger.warn({ chatId, messageId }, "whatsapp failed message's words no longer kept");
      return "gone";
    }
    if (await deps.heldChat?.(chatId)) return "withheld";
    return { messageId, shown: { ...shown, text: shown.text } };
  }
  return async (chatId, wamid, opts) => {
    // Until a send is made, any failure sent nothing (a store read).
    let tried = false;
    const tracked: WaSender = {
      ...deps.client,
      send: (to, body, o) => {
        tried = true;
        return deps.client.send(to, body, o);
      },
    };
    const sending = outbound({ ...deps, client: tracked });
    let found: Awaited<ReturnType<typeof words>>;
    let sent: string[];
    try {
      found = await words(chatId, wamid);
      if (typeof found === "string") return { result: found, wamids: [] };
      const to = waIdOfChat(chatId) as string;
      const { locale } = await deps.localeOf(chatId);
      const text = found.shown.text;
      // Inside the window the same words go free-form (no buttons: only their hash is kept).
      sent = opts.template
        ? [await sending.asTemplate(to, locale, text)]
        : (await sending.show(chatId, text, [])).wamids;
    } catch (err) {
      throw tried || err instanceof WhatsAppApiError ? err : new NothingSent(err);
    }
    // Without buttons: the newest buttons stay where they are (a newer message's). A failure
    // here is logged only: the send went out, and sending it again would show it twice.
    const shown = { ...found.shown, buttons: "", choices: [] };
    await store.putShown(chatId, found.messageId, shown, sent).catch((err: unknown) => {
      logger.error({ chatId, wamids: sent, err: String(err) }, "whatsapp resend not recorded");
    });
    return { result: "sent", wamids: sent };
  };
}
