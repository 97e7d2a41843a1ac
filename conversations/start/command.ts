import { Composer, type InlineKeyboard } from "grammy";
import { isWhatsAppChat } from "../../src/accounts/chat-kind.ts";
import { accessOf, deniedReply } from "../../src/bot/access.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { TYPED_WORDS } from "../../src/bot/typed-words.ts";

/** /start: a chat that had blocked the bot is active again, and gets the welcome and the menu. */
export function start(
  deps: BotDeps,
  /** The category menu (menu/), as the composition root built it. */
  menu: (ctx: BotContext) => InlineKeyboard,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("start", async (ctx) => {
    await deps.reactivateChat(ctx.chat.id, ctx.from.id);
    const welcome = ctx.t("start-welcome", { name: ctx.from.first_name });
    // Someone who may not order yet is told how (register) or why not (a private bot) instead
    // of being shown a menu that would refuse them.
    const verdict = await accessOf(deps, ctx.from.id);
    if (verdict !== "ok") {
      const t = translator(deps.i18n, await ctx.i18n.getLocale());
      const denied = deniedReply(t, verdict);
      const why = verdict === "register" ? t("register-prompt") : denied.text;
      await ctx.reply(`${welcome}\n\n${why}`, denied.other);
      return;
    }
    // Only the menu shown below is offered ("Choose…"), never to someone told to register first.
    // WhatsApp has no command menu: the word to type is named there, not "/help".
    const choose = isWhatsAppChat(ctx.chat.id) ? "start-choose-whatsapp" : "start-choose";
    await ctx.reply(`${welcome}\n${ctx.t(choose, TYPED_WORDS)}`, { reply_markup: menu(ctx) });
  });
  return composer;
}
