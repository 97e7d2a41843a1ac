import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type Parsed } from "../../src/bot/flow/toolkit.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import { type Complaints, isClosed } from "../../src/complaints/index.ts";
import { COMPLAINT_WORDS } from "./customer.ts";
import { adminButton, money, reasonText, refundWhy, refusalText } from "./texts.ts";

/**
 * An admin answers a complaint in the chat (Resolve or Reject under /complaints): resolve with a
 * refund of what the customer paid (when the order allows one) or with words alone, or reject;
 * either way they write what the customer reads, and confirm. The service books a refund once
 * (its id is the complaint's), tells the customer, and a second admin or tap finds it closed.
 */
export function complaintAnswerConversation(deps: BotDeps) {
  return async function complaintanswer(
    conversation: FlowConversation,
    ctx: FlowContext,
    given?: unknown,
  ) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, COMPLAINT_WORDS);
    const { t } = flow;
    const complaints = deps.complaints;
    if (flow.env.role !== "admin" || !complaints) {
      await flow.reply(t("complaint-denied"));
      return;
    }
    const asked = adminButton.parse(typeof given === "string" ? given : undefined);
    if (!asked || asked.action === "t") return;
    const c = await conversation.external(() => complaints.get(asked.ref));
    if (!c) {
      await flow.reply(t("complaint-unknown", { ref: asked.ref }));
      return;
    }
    // Closed already (an old list message's button): said now, before a refund is offered again.
    if (isClosed(c.status)) {
      await flow.reply(refusalText(t, "closed", c));
      return;
    }
    if (asked.action === "x") {
      const why = await flow.ask(t("complaint-admin-ask-why"), textAnswer(flow));
      await confirm(flow, t("complaint-admin-confirm-reject", { ref: c.reference, text: why }));
      const r = await conversation.external(() =>
        complaints.reject(c.reference, flow.env.userId, why),
      );
      await flow.reply(
        r.ok ? t("complaint-admin-rejected", { ref: c.reference }) : refusalText(t, r.code, c),
      );
      return;
    }
    await resolve(flow, conversation, complaints, c.reference);
  };
}

async function resolve(
  flow: Flow,
  conversation: FlowConversation,
  complaints: Complaints,
  ref: string,
): Promise<void> {
  const { t } = flow;
  const c = await conversation.external(() => complaints.get(ref));
  if (!c) return;
  const can = await conversation.external(() => complaints.refundableOf(ref));
  const head = t("complaint-admin-resolve-how", {
    ref,
    order: c.orderReference,
    reason: reasonText(t, c.reason),
  });
  const choices = [
    ...(can.ok
      ? [
          {
            label: t("complaint-admin-refund-button", { amount: money(t, can.paisa) }),
            value: "refund",
          },
        ]
      : []),
    { label: t("complaint-admin-no-refund-button"), value: "none" },
  ];
  // The aggregator's reversal of the order is shown beside the refund (review s33-rvcomp 5): its
  // alert said the customer may be owed one, which another admin may have paid another way.
  const why = can.ok
    ? can.reversed
      ? `\n${t("complaint-admin-reversed", {
          word: can.reversed.word,
          order: c.orderReference,
          time: formatOrderTime(can.reversed.at, "np", t.locale),
        })}`
      : ""
    : `\n${t("complaint-admin-no-refund-why", { why: refundWhy(t, can.code) })}`;
  const how = await flow.choose(`${head}${why}`, choices, { columns: 1 });
  const text = await flow.ask(t("complaint-admin-ask-done"), textAnswer(flow));
  const refundPaisa = how === "refund" && can.ok ? can.paisa : undefined;
  await confirm(
    flow,
    refundPaisa === undefined
      ? t("complaint-admin-confirm-resolve", { ref, text })
      : t("complaint-admin-confirm-refund", { ref, text, amount: money(t, refundPaisa) }),
  );
  const r = await conversation.external(() =>
    complaints.resolve(ref, flow.env.userId, {
      text,
      ...(refundPaisa === undefined ? {} : { refundPaisa }),
    }),
  );
  if (!r.ok) {
    await flow.reply(refusalText(t, r.code, "complaint" in r ? r.complaint : undefined));
    return;
  }
  const refund = r.complaint.closing?.refund;
  await flow.reply(
    refund
      ? t("complaint-admin-refunded", {
          ref,
          amount: money(t, refund.amountPaisa),
          transfer: refund.transferId,
        })
      : t("complaint-admin-resolved", { ref }),
  );
}

/** What the customer reads: 3 to 200 characters, spaces collapsed. */
function textAnswer(flow: Flow) {
  return (text: string): Parsed<string> => {
    const r = text.trim().replace(/\s+/g, " ");
    return r.length >= 3 && r.length <= 200
      ? { ok: true, value: r }
      : { ok: false, error: flow.t("complaint-admin-bad-text") };
  };
}

/** Confirm (or Cancel, which the loop handles) as one button. */
async function confirm(flow: Flow, text: string): Promise<void> {
  await flow.choose(text, [{ label: flow.t("common-confirm"), value: "yes" }], { columns: 1 });
}
