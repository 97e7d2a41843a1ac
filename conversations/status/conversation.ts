import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type FlowWords, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { canShareReceipt, shareReceiptKeyboard } from "../../src/bot/receipt-document.ts";
import { ordersOfPhone, phoneOfQuery, phoneOrdersText } from "./by-phone.ts";
import {
  askProvider,
  findVisibleOrder,
  orderStatusText,
  parseOrderQuery,
  providerStatusText,
} from "./status-text.ts";

/**
 * A look-up is no order: its Cancel, Leave and idle end must not say "Nothing was charged" about
 * an order the customer may be asking after because it was charged (review s33-rvtruth 4).
 */
const LOOKUP_WORDS: FlowWords = {
  cancelled: "lookup-cancelled",
  leaveQuestion: "lookup-leave-question",
  ended: "lookup-ended",
};

/**
 * /status: the reference (or transaction id) comes with the command or is asked for; then the order
 * as the store has it. Customers get only their own orders; staff may also ask the aggregator about a
 * number the bot never stored (transient provider errors offer Retry, like every lookup); an admin
 * may give a customer's phone number instead, for their recent orders.
 */
export function statusConversation(deps: BotDeps) {
  return async function status(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, LOOKUP_WORDS);
    const { t } = flow;
    const parse = (text: string): Parsed<string> => {
      const q = parseOrderQuery(text);
      return q === null ? { ok: false, error: t("status-invalid") } : { ok: true, value: q };
    };

    const typed = typeof given === "string" && given.trim() !== "" ? parse(given) : null;
    const query = typed?.ok
      ? typed.value
      : await flow.ask(
          typed ? `${t("status-invalid")}\n${t("status-prompt")}` : t("status-prompt"),
          parse,
        );

    const viewer = { userId: flow.env.userId, role: flow.env.role };
    const found = await conversation.external(async () => {
      const o = await findVisibleOrder(deps.orders, viewer, query);
      return { order: o, settleable: o !== null && deps.orders.settleable(o).ok };
    });
    const { order } = found;
    if (order) {
      // A final order's receipt can be had as a document (issue 30).
      const share = canShareReceipt(order) ? { reply_markup: shareReceiptKeyboard(t, order) } : {};
      const settleable = viewer.role === "admin" && found.settleable;
      await flow.reply(orderStatusText(t, order, viewer.role, settleable), share);
      return;
    }
    // An admin's phone number: the orders of the customer registered with it (issue 30).
    const phone = viewer.role === "admin" ? phoneOfQuery(query) : null;
    if (phone !== null) {
      const found = await conversation.external(() => ordersOfPhone(deps, phone));
      await flow.reply(phoneOrdersText(t, found));
      return;
    }
    if (viewer.role === "customer") {
      await flow.reply(t("status-not-found"));
      return;
    }
    const asked = await flow.lookup(() => askProvider(deps.provider, query));
    if (!asked.ok) {
      await flow.reply(asked.message);
      return;
    }
    await flow.reply(asked.value ? providerStatusText(t, asked.value) : t("status-not-found"));
  };
}
