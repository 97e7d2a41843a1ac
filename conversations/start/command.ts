import { Composer, type InlineKeyboard } from "grammy";
import { isWhatsAppChat } from "../../src/accounts/chat-kind.ts";
import { accessOf, deniedReply } from "../../src/bot/access.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { TYPED_WORDS } from "../../src/bot/typed-words.ts";
import { opensWithGreeting } from "../../src/whatsapp/update.ts";

/** /start: a chat that had blocked the bot is active again, and gets the welcome and the menu. */
export function start(
  deps: BotDeps,
  /** The category menu (menu/), as the composition root built it. */
  menu: (ctx: BotContext) => InlineKeyboard,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("start", (ctx) => welcome(deps, menu, ctx));
  return composer;
}

/**
 * Last before the fallbacks, so only outside a flow: a WhatsApp sentence that opens with a greeting
 * ("Hi there", "Namaste ji") is greeted as "hi" is. At a question it stays the answer (the router
 * reads only a bare greeting as /start, left s33, 3), so here is where a first "Hi there" still
 * gets the menu instead of "I did not understand that".
 */
export function greetingSentence(
  deps: BotDeps,
  menu: (ctx: BotContext) => InlineKeyboard,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .chatType("private")
    .on("message:text", (ctx, next) =>
      isWhatsAppChat(ctx.chat.id) && opensWithGreeting(ctx.message.text)
        ? welcome(deps, menu, ctx)
        : next(),
    );
  return composer;
}

async function welcome(
  deps: BotDeps,
  menu: (ctx: BotContext) => InlineKeyboard,
  ctx: BotContext & { chat: { id: number }; from: { id: number; first_name: string } },
): Promise<void> {
  await deps.reactivateChat(ctx.chat.id, ctx.from.id);
  const hello = ctx.t("start-welcome", { name: ctx.from.first_name });
  // Someone who may not order yet is told how (register) or why not (a private bot) instead
  // of being shown a menu that would refuse them.
  const verdict = await accessOf(deps, ctx.from.id);
  if (verdict !== "ok") {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const denied = deniedReply(t, verdict);
    const why = verdict === "register" ? t("register-prompt") : denied.text;
    await ctx.reply(`${hello}\n\n${why}`, denied.other);
    return;
  }
  // Only the menu shown below is offered ("Choose…"), never to someone told to register first.
  // WhatsApp has no command menu: the word to type is named there, not "/help".
  const choose = isWhatsAppChat(ctx.chat.id) ? "start-choose-whatsapp" : "start-choose";
  await ctx.reply(`${hello}\n${ctx.t(choose, TYPED_WORDS)}`, { reply_markup: menu(ctx) });
}
