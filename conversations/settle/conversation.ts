import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type FlowWords, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { statusLabel, statusText } from "../../src/bot/order-texts.ts";
import { asciiDigits } from "../../src/catalog/index.ts";
import { type Order, referenceSchema } from "../../src/orders/model.ts";
import type { Settleable, SettleResult, UnsureCause } from "../../src/orders/service.ts";

/**
 * /settle [reference] (admins): an order the aggregator never ended (no final answer for longer
 * than SETTLE_AFTER_MS) is settled as failed (the hold voided, the customer told the money is
 * back) or as succeeded (posted, the debit inferred), with a reason kept on the order. The
 * aggregator is asked again right before (src/orders/settle.ts): a final answer wins. With more
 * than one admin, the first admin's decision is a proposal that another admin approves or
 * declines (maker-checker); alone, the admin decides. The other admins are told, and every admin
 * if the aggregator later says the opposite (docs/books.md).
 */
/**
 * A settlement is no order: Leave and the idle end say nothing was settled, never "Nothing was
 * charged" (review s33-rvtruth 11). The flow writes only at its Confirm, after its last question.
 */
export const SETTLE_WORDS: FlowWords = {
  cancelled: "settle-cancelled",
  leaveQuestion: "settle-leave-question",
  again: "/settle",
  ended: "settle-flow-ended",
};

export function settleConversation(deps: BotDeps) {
  return async function settle(conversation: FlowConversation, ctx: FlowContext, given?: unknown) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, SETTLE_WORDS);
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
    const reference = typed?.ok
      ? typed.value
      : await flow.ask(
          typed ? `${t("status-invalid")}\n${t("settle-ask-ref")}` : t("settle-ask-ref"),
          parse,
        );
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
    await flow.reply(statusText(t, order, "staff"));
    const me = flow.env.userId;
    const admins = deps.settings.adminIds;
    const approves = deps.orders.settleNeedsApproval(admins, me);
    const p = approves ? order.settleProposal : undefined;
    if (p) {
      await decideProposal(flow, conversation, deps, order, p);
      return;
    }
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
    const approval = approves ? `\n${t("settle-confirm-approval")}` : "";
    await flow.choose(
      `${t(question, { ref: order.reference, reason })}${approval}`,
      [{ label: t("common-confirm"), value: "yes" }],
      { columns: 1 },
    );
    // Removed from ADMIN_IDS while the flow waited: the role read at its start is not enough.
    if ((await flow.roleNow()) !== "admin") {
      await flow.reply(t("role-gone", { command: "/settle" }));
      return;
    }
    const r = await conversation.external(() =>
      deps.orders.settle({ reference: order.reference, outcome: as, adminId: me, reason, admins }),
    );
    await flow.reply(resultText(t, r, order.reference, toldOthers(deps, r, me)));
  };
}

type Proposal = NonNullable<Order["settleProposal"]>;

/**
 * Withdraws (or declines) the proposal shown (its admin and time), and says whether it was still
 * there to withdraw: one withdrawn and proposed anew meanwhile is another, left alone.
 */
async function withdraw(
  flow: Flow,
  conversation: FlowConversation,
  deps: BotDeps,
  ref: string,
  p: Proposal,
) {
  const me = flow.env.userId;
  const shown = { by: p.by, at: p.at };
  const done = await conversation.external(async () => {
    return (await deps.orders.withdrawSettle(ref, me, shown)) !== null;
  });
  await flow.reply(flow.t(done ? "settle-withdrawn" : "settle-no-proposal", { ref }));
}

/**
 * Maker-checker: a proposal waits on the order. Its admin may withdraw it; another admin approves
 * it (settled as proposed, the aggregator asked once more) or declines it (withdrawn).
 */
async function decideProposal(
  flow: Flow,
  conversation: FlowConversation,
  deps: BotDeps,
  order: Order,
  p: Proposal,
): Promise<void> {
  const { t } = flow;
  const ref = order.reference;
  const me = flow.env.userId;
  const outcome = statusLabel(t, p.outcome);
  // Any of the proposer's own chats (ADMIN_IDS groups one person's ids) may only withdraw it.
  if (deps.orders.sameAdmin(p.by, me)) {
    await flow.choose(t("settle-own-proposal", { ref, outcome, reason: p.reason }), [
      { label: t("settle-withdraw"), value: "withdraw" },
    ]);
    await withdraw(flow, conversation, deps, ref, p);
    return;
  }
  const choice = await flow.choose(
    t("settle-proposal", { admin: String(p.by), ref, outcome, reason: p.reason }),
    [
      { label: t("settle-approve"), value: "approve" },
      { label: t("settle-decline"), value: "decline" },
    ],
  );
  // Removed from ADMIN_IDS while the flow waited: the role read at its start is not enough.
  if ((await flow.roleNow()) !== "admin") {
    await flow.reply(t("role-gone", { command: "/settle" }));
    return;
  }
  if (choice !== "approve") {
    await withdraw(flow, conversation, deps, ref, p);
    return;
  }
  const r = await conversation.external(() =>
    deps.orders.settle({
      reference: ref,
      outcome: p.outcome,
      adminId: me,
      reason: p.reason,
      admins: deps.settings.adminIds,
      approves: { by: p.by, at: p.at },
    }),
  );
  await flow.reply(resultText(t, r, ref, toldOthers(deps, r, me)));
}

/** Whether a settlement was told to another person (with one admin, nobody else is told). */
function toldOthers(deps: BotDeps, r: SettleResult, me: number): boolean {
  const admins = r.ok ? (r.order.settled?.admins ?? []) : [];
  return admins.some((a) => !deps.orders.sameAdmin(a, me));
}

/** Why this order cannot be settled now. */
function refusalOf(t: Translate, order: Order, s: Exclude<Settleable, { ok: true }>): string {
  const ref = order.reference;
  if (s.code === "final") return t("settle-final", { ref, status: statusLabel(t, order.status) });
  if (s.code === "not_sent") return t("settle-not-sent", { ref });
  if (s.code === "disabled") return t("settle-disabled");
  return t("settle-too-young", { ref, time: formatOrderTime(s.readyAt, "np", t.locale) });
}

/** Why the aggregator's answer leaves "as succeeded" unsure, in the admin's words. */
const UNSURE_KEYS: Record<UnsureCause, string> = {
  not_found: "settle-unsure-not-found",
  other_order: "settle-unsure-other-order",
  refused: "settle-unsure-refused",
  unreadable: "settle-unsure-unreadable",
  unknown_word: "settle-unsure-unknown-word",
};

export function resultText(t: Translate, r: SettleResult, ref: string, told: boolean): string {
  if (r.ok && r.done === "proposed") {
    return t("settle-proposed", {
      ref,
      outcome: statusLabel(t, r.order.settleProposal?.outcome ?? "failed"),
      said: r.aggregator,
    });
  }
  if (r.ok) {
    const done = t(r.order.status === "failed" ? "settle-done-failed" : "settle-done-success", {
      ref,
      said: r.aggregator,
    });
    return told ? `${done} ${t("settle-done-told")}` : done;
  }
  if (r.code === "unknown") return t("status-not-found");
  if (r.code === "aggregator_final") {
    return t("settle-aggregator-final", { ref, status: statusLabel(t, r.order.status) });
  }
  if (r.code === "aggregator_disagrees")
    return t("settle-aggregator-disagrees", { ref, said: r.said });
  if (r.code === "answer_unwritten") return t("settle-answer-unwritten", { ref, said: r.said });
  if (r.code === "aggregator_unsure") {
    const cause = t(UNSURE_KEYS[r.cause]);
    return t("settle-aggregator-unsure", { ref, said: r.said, cause });
  }
  if (r.code === "own_proposal") return t("settle-own-proposal-waits", { ref });
  if (r.code === "other_proposal") return t("settle-other-proposal", { ref });
  if (r.code === "no_proposal") return t("settle-no-proposal", { ref });
  return refusalOf(t, r.order, r);
}
