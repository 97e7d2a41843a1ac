import { InlineKeyboard } from "grammy";
import { accessOf } from "../../src/bot/access.ts";
import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type FlowWords } from "../../src/bot/flow/toolkit.ts";
import { formatMoney } from "../../src/money.ts";

/** A top-up is no order: Cancel and Leave speak of adding money (issue 30). */
const TOPUP_WORDS: FlowWords = {
  cancelled: "topup-flow-cancelled",
  leaveQuestion: "topup-leave-question",
  again: "/addmoney",
};

/**
 * /addmoney: the amount (quick buttons or typed, from Rs 10 up to the configured maximum and what
 * the daily cap still allows), then Khalti's checkout as a "Pay with Khalti" link button. Nothing
 * is credited here: the credit follows a lookup (src/payments/), and the push tells the customer.
 */
export function addMoneyConversation(deps: BotDeps) {
  return async function addmoney(conversation: FlowConversation, ctx: FlowContext) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, TOPUP_WORDS);
    const { t } = flow;
    const topUps = deps.topUps;
    if (!topUps) {
      await flow.reply(t("topup-not-offered"));
      return;
    }
    // A blocked customer adds no money either (the merchant's block, read now).
    const verdict = await conversation.external(() => accessOf(deps, flow.env.userId));
    if (verdict === "blocked") {
      await flow.reply(t("access-blocked"));
      return;
    }
    const money = (p: number) => formatMoney(p, { locale: t.locale });
    const remaining = await conversation.external(() => topUps.remainingToday(flow.env.userId));
    const maxPaisa = Math.min(topUps.maxPaisa, remaining);
    if (maxPaisa < topUps.minPaisa) {
      await flow.reply(t("topup-daily-cap", { remaining: money(remaining) }));
      return;
    }
    const amountPaisa = await flow.askAmount("topup-ask-amount", {
      minPaisa: topUps.minPaisa,
      maxPaisa,
    });
    const started = await conversation.external(() =>
      topUps.start({
        userId: flow.env.userId,
        chatId: flow.env.chatId,
        locale: flow.env.locale,
        amountPaisa,
      }),
    );
    if (!started.ok) {
      if (started.reason === "daily_cap")
        await flow.reply(t("topup-daily-cap", { remaining: money(started.remainingPaisa) }));
      else if (started.reason === "refused") await flow.reply(t("topup-refused"));
      else await flow.reply(t("topup-gateway-down"));
      return;
    }
    await flow.reply(t("topup-checkout", { amount: money(amountPaisa) }), {
      reply_markup: new InlineKeyboard().url(t("topup-pay-button"), started.topUp.paymentUrl),
    });
  };
}
