/**
 * Which messenger a chat id is: a WhatsApp chat has an id of its own range (whatsapp/chat-ids.ts
 * explains it and builds the ids). Here so that accounts/ can tell the chats apart without
 * importing whatsapp/, which imports accounts/.
 */
export const WA_CHAT_BASE = 8_000_000_000_000_000;
export const WA_CHAT_END = 9_000_000_000_000_000;

export function isWhatsAppChat(chatId: number): boolean {
  return Number.isSafeInteger(chatId) && chatId >= WA_CHAT_BASE && chatId < WA_CHAT_END;
}
