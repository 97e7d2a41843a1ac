import { Composer, InlineKeyboard } from "grammy";
import { isProviderError } from "../provider/index.ts";
import type { BotContext } from "./context.ts";
import { type BotDeps, roleOf } from "./deps.ts";
import { formatRupees } from "./format.ts";
import type { Translate } from "./i18n.ts";
import { statusLabel } from "./render.ts";

/**
 * The order commands of private chats: /status (a conversation, so a lookup can offer Retry),
 * /history with a "repeat" button per order, the repeat button itself, and /balance for admins.
 * Groups are answered before this (orders are private-only).
 */

/** Conversation ids; conversations/index.ts registers the flows under these names. */
export const STATUS_FLOW = "status";
export const REPEAT_FLOW = "repeat";
/** Callback data of a history entry's repeat button; the toolkit lets it leave a running flow. */
export const REPEAT_CALLBACK = "rep:";
export const HISTORY_SIZE = 5;

export function orderCommands(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");

  priv.command("status", (ctx) => ctx.conversation.enter(STATUS_FLOW, ctx.match.trim()));

  priv.command("history", async (ctx) => {
    const orders = await deps.orders.listByUser(ctx.from.id, HISTORY_SIZE);
    if (orders.length === 0) {
      await ctx.reply(ctx.t("history-empty"));
      return;
    }
    const t: Translate = (key, params) => ctx.t(key, params);
    const lines = orders.map((o) =>
      t("history-item", {
        ref: o.reference,
        operator: o.operatorName,
        number: o.connectionNo,
        amount: formatRupees(o.amountPaisa, o.region),
        status: statusLabel(t, o.status),
      }),
    );
    const kb = new InlineKeyboard();
    for (const o of orders)
      kb.text(t("history-repeat", { ref: o.reference }), REPEAT_CALLBACK + o.reference).row();
    await ctx.reply([t("history-title"), ...lines].join("\n"), { reply_markup: kb });
  });

  // The reference is checked inside the flow: forged data for someone else's order answers "not found".
  priv.callbackQuery(new RegExp(`^${REPEAT_CALLBACK}(.{1,60})$`), async (ctx) => {
    await ctx.answerCallbackQuery();
    await ctx.conversation.enter(REPEAT_FLOW, ctx.match[1]);
  });

  priv.command("balance", async (ctx) => {
    if (roleOf(deps.settings, ctx.from.id) !== "admin") {
      await ctx.reply(ctx.t("balance-denied"));
      return;
    }
    try {
      const wallet = await deps.provider.walletBalance();
      await ctx.reply(
        ctx.t("balance-result", { amount: formatRupees(wallet.creditAvailablePaisa) }),
      );
    } catch (e) {
      if (!isProviderError(e)) throw e;
      deps.logger.warn({ kind: e.kind }, "wallet balance failed");
      await ctx.reply(ctx.t("balance-unavailable"));
    }
  });

  return composer;
}
