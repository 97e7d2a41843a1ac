import { isWhatsAppAccount } from "../whatsapp/chat-ids.ts";

/**
 * The messenger a push goes through, told by its chat id (whatsapp/chat-ids.ts: a WhatsApp chat, or
 * a fresh account whose messages the router carries to WhatsApp). Each has its own limits and its
 * own holds: Telegram's flood wait (a 429's retry_after) says nothing about WhatsApp, nor Meta's
 * refusals about Telegram, so the notifier pauses and paces each channel apart.
 */
export type Channel = "telegram" | "whatsapp";

export const CHANNELS: readonly Channel[] = ["telegram", "whatsapp"];

export const channelOf = (chatId: number): Channel =>
  isWhatsAppAccount(chatId) ? "whatsapp" : "telegram";
