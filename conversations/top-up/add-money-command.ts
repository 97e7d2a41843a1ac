import { Composer, InlineKeyboard } from "grammy";
import { addMoneyButtonData } from "../callback-data.ts";
import type { BotContext } from "../context.ts";
import { ADD_MONEY_FLOW } from "../flows.ts";
import type { Translate } from "../i18n.ts";

/**
 * /addmoney and the "Add money" button: both enter the top-up flow (conversations/add-money.ts),
 * which asks the amount and answers with Khalti's "Pay with Khalti" link.
 */

/** The "Add money" button, for /balance and other messages about the balance. */
export function addMoneyButton(t: Translate): InlineKeyboard {
  return new InlineKeyboard().text(t("topup-button"), addMoneyButtonData.data);
}

export function addMoney(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  priv.command("addmoney", (ctx) => ctx.conversation.enter(ADD_MONEY_FLOW));
  priv.callbackQuery(addMoneyButtonData.data, async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter(ADD_MONEY_FLOW);
  });
  return composer;
}
