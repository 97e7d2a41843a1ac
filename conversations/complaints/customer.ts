import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type FlowWords } from "../../src/bot/flow/toolkit.ts";
import { COMPLAINT_REASONS, type ComplaintReason } from "../../src/complaints/index.ts";
import { formatMoney } from "../../src/money.ts";
import { referenceSchema } from "../../src/orders/model.ts";
import { alreadyOpenText, raisedText, reasonText } from "./texts.ts";

/**
 * A complaint is no order: Cancel, Leave and the idle end speak of the complaint, never "Nothing
 * was charged" to a customer complaining about a charged order (review s33-rvtruth 5).
 */
export const COMPLAINT_WORDS: FlowWords = {
  cancelled: "complaint-flow-cancelled",
  leaveQuestion: "complaint-leave-question",
  ended: "complaint-flow-ended",
};

/** How many recent orders /complain offers to choose from. */
const RECENT = 5;

/**
 * /complain [reference], or "Report a problem" under a receipt: which order (given, or chosen
 * among the customer's last five), what went wrong (the four BBPS-like reasons), then the
 * complaint's number and the time it will be answered by. An order that already has an open
 * complaint gets that one's number, before and (two instances at once) at the raise.
 */
export function complainConversation(deps: BotDeps) {
  return async function complain(
    conversation: FlowConversation,
    ctx: FlowContext,
    given?: unknown,
  ) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, COMPLAINT_WORDS);
    const { t } = flow;
    const complaints = deps.complaints;
    if (!complaints) {
      await flow.reply(t("complaint-not-offered"));
      return;
    }
    const { userId, chatId } = flow.env;
    const typed = referenceSchema.safeParse(typeof given === "string" ? given.trim() : "");
    const ref = typed.success ? typed.data : await chooseOrder(flow, conversation, deps);
    if (ref === null) return;
    const order = await conversation.external(() => deps.orders.get(ref));
    if (!order || order.userId !== userId) {
      await flow.reply(t("complaint-unknown-order", { ref }));
      return;
    }
    const open = await conversation.external(() => complaints.openOf(ref));
    if (open) {
      await flow.reply(alreadyOpenText(t, open));
      return;
    }
    const reason = (await flow.choose(
      t("complaint-ask-reason", { order: ref }),
      COMPLAINT_REASONS.map((r) => ({ label: reasonText(t, r), value: r })),
      { columns: 1 },
    )) as ComplaintReason;
    const r = await conversation.external(() =>
      complaints.raise({ userId, chatId, locale: t.locale, orderReference: ref, reason }),
    );
    if (!r.ok) {
      await flow.reply(t("complaint-unknown-order", { ref }));
      return;
    }
    await flow.reply(r.created ? raisedText(t, r.complaint) : alreadyOpenText(t, r.complaint));
  };
}

/** The customer's last orders as buttons; null (said why) when they have none. */
async function chooseOrder(
  flow: Flow,
  conversation: FlowConversation,
  deps: BotDeps,
): Promise<string | null> {
  const { t } = flow;
  const orders = await conversation.external(() => deps.orders.listByUser(flow.env.userId, RECENT));
  if (orders.length === 0) {
    await flow.reply(t("complaint-no-orders"));
    return null;
  }
  const choices = orders.map((o) => ({
    label: t("complaint-order-choice", {
      ref: o.reference,
      number: o.connectionNo,
      amount: formatMoney(o.amountPaisa, { region: o.region, locale: t.locale }),
    }),
    value: o.reference,
  }));
  return flow.choose(t("complaint-which-order"), choices, { columns: 1 });
}
