import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import type { MenuKeyboard } from "./menu.ts";

/** /start: a chat that had blocked the bot is active again, and gets the welcome and the menu. */
export function start(deps: BotDeps, menu: MenuKeyboard): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("start", async (ctx) => {
    await deps.reactivateChat(ctx.chat.id);
    await ctx.reply(ctx.t("start-welcome", { name: ctx.from.first_name }), {
      reply_markup: menu(ctx),
    });
  });
  return composer;
}
