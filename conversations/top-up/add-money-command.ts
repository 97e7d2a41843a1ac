import { Composer, InlineKeyboard } from "grammy";
import { addMoneyButtonData, flowButtons } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { ADD_MONEY_FLOW } from "../ids.ts";

/**
 * /addmoney and the "Add money" button: both enter the top-up flow (add-money.ts),
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
  // Continue under a credited notice whose order no longer waits (placed, cancelled, timed out):
  // said so rather than a silent "no longer active" (a waiting order takes it first). The button
  // names no order, so the words claim nothing about its money: it may have been placed and paid
  // with Continue under the question (review s33-rvtruth 1).
  priv.callbackQuery(flowButtons.resume.data, async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.reply(ctx.t("shortfall-gone"));
  });
  return composer;
}
