import { Composer } from "grammy";
import type { BotContext } from "./context.ts";

/**
 * Last: buttons of finished conversations, forged or malformed callback data (no codec parsed
 * it) and anything else nobody handled.
 */
export function fallbacks(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("callback_query", (ctx) =>
    ctx.answerCallbackQuery({ text: ctx.t("common-button-expired") }),
  );
  composer.chatType("private").on("message", (ctx) => ctx.reply(ctx.t("common-unknown-input")));
  return composer;
}
