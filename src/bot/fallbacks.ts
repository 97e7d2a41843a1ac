import { Composer } from "grammy";
import { isWhatsAppChat } from "../accounts/chat-kind.ts";
import type { BotContext } from "./context.ts";
import { TYPED_WORDS } from "./typed-words.ts";

/**
 * What a message nobody handled is answered. On WhatsApp the words a customer can type are named
 * ("recharge", "help": a slash is a Telegram habit there), and a message without words (a photo,
 * a voice note, a sticker: its file is never read) is told the bot reads only text and buttons
 * (review s32-whatsapp, 4 and 7). Telegram's answer is as it was.
 */
function unknownInputKey(ctx: BotContext): string {
  if (ctx.chat === undefined || !isWhatsAppChat(ctx.chat.id)) return "common-unknown-input";
  return ctx.message?.text === undefined
    ? "common-media-whatsapp"
    : "common-unknown-input-whatsapp";
}

/**
 * Last: buttons of finished conversations, forged or malformed callback data (no codec parsed
 * it) and anything else nobody handled.
 */
export function fallbacks(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("callback_query", (ctx) =>
    ctx.answerCallbackQuery({ text: ctx.t("common-button-expired") }),
  );
  composer
    .chatType("private")
    .on("message", (ctx) => ctx.reply(ctx.t(unknownInputKey(ctx), TYPED_WORDS)));
  return composer;
}
