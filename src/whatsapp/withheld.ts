import type { Logger } from "../logger.ts";
import { accountOfCall } from "../telegram/call-account.ts";
import type { WaChatStore } from "./chat-store.ts";
import { answeredChat } from "./held.ts";

/** What `withholds` needs of the router's deps (router.ts RouterDeps). */
export interface WithheldDeps {
  store: Pick<WaChatStore, "nextMessageId">;
  logger: Logger;
  now: () => number;
  heldChat?: (chatId: number) => Promise<boolean>;
}

/**
 * Whether a call is kept from WhatsApp chat `chatId`: a message of `account` (the chat's own, or a
 * fresh account whose number is the chat's) that shows something, not an answer to the message
 * being handled from that chat (answeringIn, held.ts: the held sender's answer and the account's
 * own user id's flows go), while the account is held or released from the number (`heldChat`).
 * What then happens to it is chat-calls.ts's (`elsewhere`). A message that names the chat's own
 * account (`withAccount`) is checked even in an answer: the writer may be the number's next holder
 * (an admin's /reverse notice to the old holder, review s24-k 1), so `whose` decides. The cost:
 * nothing for an unnamed answer or a Telegram chat, else `heldChat`.
 */
export async function withholds(
  deps: WithheldDeps,
  method: string,
  chatId: number,
  account: number,
): Promise<boolean> {
  if (!deps.heldChat || !WITHHELD.has(method)) return false;
  if (answeredChat() === chatId && !(account === chatId && accountOfCall() === chatId))
    return false;
  return deps.heldChat(account);
}

/** The calls that show something in a chat: kept from a held account's chat (`withholds`). */
export const WITHHELD: ReadonlySet<string> = new Set([
  "sendMessage",
  "editMessageText",
  "editMessageReplyMarkup",
  "sendDocument",
  "answerCallbackQuery",
]);

/** A text message's Bot API shape. */
export const messageOf = (deps: WithheldDeps, chatId: number, messageId: number, text: string) => ({
  message_id: messageId,
  date: Math.floor(deps.now() / 1000),
  chat: { id: chatId, type: "private", first_name: "" },
  text,
});

/**
 * A call answered as if sent, nothing sent: a withheld message, or one for a fresh WhatsApp
 * account that holds no number now (router.ts: it has no chat).
 */
export async function answeredAsSent(
  deps: WithheldDeps,
  method: string,
  p: Record<string, unknown>,
  chatId: number,
  text: string,
): Promise<unknown> {
  if (!WITHHELD.has(method) || method === "answerCallbackQuery") return true;
  if (method === "sendDocument") {
    const file = p.document as { filename?: unknown } | undefined;
    const name = typeof file?.filename === "string" ? file.filename : "";
    return {
      ...messageOf(deps, chatId, await deps.store.nextMessageId(chatId), ""),
      caption: String(p.caption ?? ""),
      document: { file_id: "withheld", file_unique_id: "withheld", file_name: name },
    };
  }
  const messageId =
    method === "sendMessage" ? await deps.store.nextMessageId(chatId) : Number(p.message_id);
  return messageOf(deps, chatId, messageId, text);
}
