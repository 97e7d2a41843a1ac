import { Composer, InlineKeyboard } from "grammy";
import { menuButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";

/** A button of the category menu: the conversation it enters and the locale key of its label. */
export interface MenuEntry {
  conversation: string;
  labelKey: string;
}

/** The category menu, two buttons a row, in the order the composition root gives. */
export type MenuKeyboard = (ctx: BotContext) => InlineKeyboard;

/** Whether an entry is offered now; every entry when the composition root gives no rule. */
export type MenuOffer = (conversation: string) => boolean;
const everything: MenuOffer = () => true;

export function menuKeyboard(
  entries: readonly MenuEntry[],
  offered: MenuOffer = everything,
): MenuKeyboard {
  // Built once: an id no button can carry fails the start, not a /start.
  const buttons = entries.map((e) => ({
    conversation: e.conversation,
    labelKey: e.labelKey,
    data: menuButton.build(e.conversation),
  }));
  return (ctx) => {
    const kb = new InlineKeyboard();
    // A category whose operators the provider all withdrew has no button (until it lists one again).
    buttons
      .filter((b) => offered(b.conversation))
      .forEach((b, i) => {
        if (i > 0 && i % 2 === 0) kb.row();
        kb.text(ctx.t(b.labelKey), b.data);
      });
    return kb;
  };
}

/**
 * Whether this user may order at all; when not, it has told them (register first, or a private
 * bot). The checkout asks again before any order: this only spares them a flow they cannot finish.
 */
export type OrderGate = (ctx: BotContext) => Promise<boolean>;

/** /recharge shows the menu; a menu button enters its category's conversation. */
export function categoryMenu(
  entries: readonly MenuEntry[],
  keyboard: MenuKeyboard,
  offered: MenuOffer = everything,
  gate: OrderGate = async () => true,
): Composer<BotContext> {
  const ids = new Set(entries.map((e) => e.conversation));
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  priv.command("recharge", async (ctx) => {
    if (!(await gate(ctx))) return;
    await ctx.reply(ctx.t("menu-prompt"), { reply_markup: keyboard(ctx) });
  });
  priv.on("callback_query:data", async (ctx, next) => {
    const category = menuButton.parse(ctx.callbackQuery.data);
    // Not a menu button, or one of a category no longer offered: answered as expired further on.
    if (category === null || !ids.has(category) || !offered(category)) return next();
    await ctx.answerCallbackQuery();
    if (!(await gate(ctx))) return;
    await ctx.conversation.enter(category);
  });
  return composer;
}
