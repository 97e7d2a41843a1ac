import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { statusLabel, statusText } from "../../src/bot/order-texts.ts";
import { asciiDigits } from "../../src/catalog/index.ts";
import { type Order, referenceSchema } from "../../src/orders/model.ts";
import type { Settleable, SettleResult } from "../../src/orders/service.ts";

/**
 * /settle [reference] (admins): an order the aggregator never ended (no final answer for longer
 * than SETTLE_AFTER_MS) is settled as failed (the hold voided, the customer told the money is
 * back) or as succeeded (posted, the debit inferred), with a reason kept on the order. The
 * aggregator is asked again right before (src/orders/settle.ts): a final answer wins. One
 * admin decides; the other admins are told at once, and every admin if the aggregator later
 * says the opposite (docs/books.md).
 */
export function settleConversation(deps: BotDeps) {
  return async function settle(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, {
      cancelled: "settle-cancelled",
      leaveQuestion: "settle-leave-question",
      again: "/settle",
    });
    const { t } = flow;
    if (flow.env.role !== "admin") {
      await flow.reply(t("settle-denied"));
      return;
    }
    const parse = (text: string): Parsed<string> => {
      // Digits as typed ("#1234 5678", Devanagari digits too), as /status reads them.
      const q = asciiDigits(text).replace(/[\s\-#.]/g, "");
      return referenceSchema.safeParse(q).success
        ? { ok: true, value: q }
        : { ok: false, error: t("status-invalid") };
    };
    const typed = typeof given === "string" && given.trim() !== "" ? parse(given) : null;
    const reference = typed?.ok ? typed.value : await flow.ask(t("settle-ask-ref"), parse);
    const found = await conversation.external(async () => {
      const o = await deps.orders.get(reference);
      return o ? { order: o, allowed: deps.orders.settleable(o) } : null;
    });
    if (!found) {
      await flow.reply(t("status-not-found"));
      return;
    }
    const { order } = found;
    if (!found.allowed.ok) {
      await flow.reply(refusalOf(t, order, found.allowed));
      return;
    }
    await flow.reply(statusText(t, order));
    const outcome = await flow.choose(
      t("settle-ask-outcome"),
      [
        { label: t("settle-as-failed"), value: "failed" },
        { label: t("settle-as-success"), value: "success" },
      ],
      { columns: 1 },
    );
    const reason = await flow.ask(t("settle-ask-reason"), (text) => {
      const r = text.trim().replace(/\s+/g, " ");
      return r.length >= 3 && r.length <= 200
        ? { ok: true, value: r }
        : { ok: false, error: t("reverse-bad-reason") };
    });
    const as = outcome === "failed" ? "failed" : "success";
    const question = as === "failed" ? "settle-confirm-failed" : "settle-confirm-success";
    await flow.choose(
      t(question, { ref: order.reference, reason }),
      [{ label: t("common-confirm"), value: "yes" }],
      { columns: 1 },
    );
    const r = await conversation.external(() =>
      deps.orders.settle({
        reference: order.reference,
        outcome: as,
        adminId: flow.env.userId,
        reason,
        admins: deps.settings.adminIds,
      }),
    );
    await flow.reply(resultText(t, r, order.reference));
  };
}

/** Why this order cannot be settled now. */
function refusalOf(t: Translate, order: Order, s: Exclude<Settleable, { ok: true }>): string {
  const ref = order.reference;
  if (s.code === "final") return t("settle-final", { ref, status: statusLabel(t, order.status) });
  if (s.code === "not_sent") return t("settle-not-sent", { ref });
  return t("settle-too-young", { ref, time: formatOrderTime(s.readyAt, "np", t.locale) });
}

function resultText(t: Translate, r: SettleResult, ref: string): string {
  if (r.ok) {
    return t(r.order.status === "failed" ? "settle-done-failed" : "settle-done-success", {
      ref,
      said: r.aggregator,
    });
  }
  if (r.code === "unknown") return t("status-not-found");
  if (r.code === "aggregator_final") {
    return t("settle-aggregator-final", { ref, status: statusLabel(t, r.order.status) });
  }
  return refusalOf(t, r.order, r);
}
