import { Composer } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";

/** /cancel outside a conversation (inside one, the conversation handles it). */
export function cancel(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .chatType("private")
    .command("cancel", (ctx) => ctx.reply(ctx.t("common-nothing-to-cancel")));
  return composer;
}
