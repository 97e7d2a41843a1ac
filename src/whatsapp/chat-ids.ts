/**
 * A WhatsApp customer as the chat engine sees them: a chat id of its own range. The flows, the
 * sessions, the conversations and the pushes all key on a numeric chat id (Telegram's); a WhatsApp
 * chat gets `WA_CHAT_BASE + the phone's digits`. Telegram's ids have at most 52 significant bits
 * (below 4.6e15) and a phone at most 15 digits (below 1e15), so the range [8e15, 9e15) is nobody
 * else's, stays a safe integer, and needs no table: the id names the phone and back.
 */
import { isWhatsAppChat, WA_CHAT_BASE, WA_CHAT_END } from "../accounts/chat-kind.ts";

export { isWhatsAppChat, WA_CHAT_BASE };

const PHONE = /^[1-9][0-9]{7,14}$/;

/** The chat id of a WhatsApp phone (`wa_id`, international digits); null for anything else. */
export function chatIdOfWaId(waId: string): number | null {
  if (!PHONE.test(waId)) return null;
  return WA_CHAT_BASE + Number(waId);
}

/** The phone (`wa_id`) a WhatsApp chat id stands for; null for a Telegram chat. */
export function waIdOfChat(chatId: number): string | null {
  return isWhatsAppChat(chatId) ? String(chatId - WA_CHAT_BASE) : null;
}

/**
 * A WhatsApp account opened for the next holder of a number an admin released from its account
 * (/waid release: whatsapp/inbound.ts): that chat's id is the old account's, which keeps its money,
 * so the new one gets an id of its own, `WA_FRESH_BASE + n` from a counter: above every chat id,
 * still a safe integer. Its messages go to the WhatsApp chat of the number it holds now (the
 * router reads it: `RouterDeps.chatOfAccount`), to nobody when it holds none.
 */
export const WA_FRESH_BASE = WA_CHAT_END;
const WA_FRESH_END = Number.MAX_SAFE_INTEGER;

export const freshWaAccount = (n: number): number => WA_FRESH_BASE + n;

export function isFreshWaAccount(id: number): boolean {
  return Number.isSafeInteger(id) && id > WA_FRESH_BASE && id < WA_FRESH_END;
}

/** An account whose messages go to WhatsApp: a WhatsApp chat's own, or a fresh one. */
export const isWhatsAppAccount = (id: number): boolean =>
  isWhatsAppChat(id) || isFreshWaAccount(id);

/**
 * The chat a flow's orders, top-ups and complaints push to: the chat itself, but for a WhatsApp
 * chat acting as a fresh account (a released number's next holder: whatsapp/chat-ids.ts) that
 * account, whose messages the router carries to the chat of the number it holds now. The chat's
 * own id is the old account's, whose messages never reach the number again.
 */
export const pushChatOf = (chatId: number, userId: number): number =>
  isWhatsAppChat(chatId) && isFreshWaAccount(userId) ? userId : chatId;
