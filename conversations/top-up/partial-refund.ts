import { InlineKeyboard } from "grammy";
import { formatPhone } from "../../src/accounts/index.ts";
import type { FlowContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { Flow, type FlowWords } from "../../src/bot/flow/toolkit.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { validateAmount } from "../../src/catalog/index.ts";
import { account } from "../../src/ledger/index.ts";
import { formatMoney } from "../../src/money.ts";
import type { RefundDecideResult, TopUp } from "../../src/payments/index.ts";

/**
 * A partial refund decided in the chat (/topups' "Enter the amount returned" and, before any
 * credit, "Reject"), so it can be decided where the back office is off (its production default).
 * The admin types what the gateway returned (its merchant dashboard shows it), reads what that
 * does to the customer's balance, and confirms; the top-up service then books it exactly as the
 * back office's form does (`decideRefund` / `rejectRefund`: version-checked, so a second admin or
 * a second tap gets "already decided"), and the admin reads the service's own figures.
 */

/** The buttons' data: `tup:a:<paymentId>` (enter the amount) or `tup:r:<paymentId>` (reject). */
export const partialRefundButton = {
  build: (action: "a" | "r", paymentId: string) => `tup:${action}:${paymentId}`,
  parse(data: string | undefined): { action: "a" | "r"; paymentId: string } | null {
    const m = /^tup:([ar]):([A-Za-z0-9_-]{6,56})$/.exec(data ?? "");
    return m ? { action: m[1] as "a" | "r", paymentId: m[2]! } : null;
  },
};

const money = (t: Translate, paisa: number) => formatMoney(paisa, { locale: t.locale });

/** Who paid, for the admin: their phone number when registered, and their user id. */
export async function customerOf(deps: BotDeps, userId: number): Promise<string> {
  const phone = await deps.accounts.phoneOf(userId).catch(() => null);
  return phone ? `${formatPhone(phone)} (${userId})` : String(userId);
}

/** A top-up waiting in partial_refund as /topups lists it: what was paid, credited, and said. */
export function partialRefundLine(t: Translate, x: TopUp, who: string): string {
  const p = x.partialRefund;
  const said = t(p?.mayBeWhole ? "topup-partial-said-maybe-whole" : "topup-partial-said-part", {
    gateway: x.gateway,
  });
  const base = { pid: x.paymentId, gateway: x.gateway, who, said };
  return p?.uncredited
    ? t("topup-partial-line-uncredited", { ...base, paid: money(t, p.uncredited.reportedPaisa) })
    : t("topup-partial-line-credited", {
        ...base,
        paid: money(t, x.amountPaisa),
        credited: money(t, x.creditedPaisa ?? 0),
      });
}

/** Its buttons: the amount always; Reject only before any credit (after one, money is owed back). */
export function partialRefundButtons(t: Translate, x: TopUp): InlineKeyboard {
  const kb = new InlineKeyboard().text(
    t("topup-partial-enter-button"),
    partialRefundButton.build("a", x.paymentId),
  );
  if (x.partialRefund?.uncredited)
    kb.row().text(t("topup-partial-reject-button"), partialRefundButton.build("r", x.paymentId));
  return kb;
}

/**
 * A partial refund's decision is no order: Leave and the idle end say nothing was decided, never
 * "Nothing was charged" (review s33-rvtruth 11). It is booked only at its Confirm, the last step.
 */
export const PARTIAL_REFUND_WORDS: FlowWords = {
  cancelled: "topup-partial-cancelled",
  leaveQuestion: "topup-partial-leave-question",
  again: "/topups",
  ended: "topup-partial-flow-ended",
};

export function partialRefundConversation(deps: BotDeps) {
  return async function partialrefund(
    conversation: FlowConversation,
    ctx: FlowContext,
    given?: unknown,
  ) {
    const flow = await Flow.start(conversation, ctx, deps, undefined, PARTIAL_REFUND_WORDS);
    const { t } = flow;
    const topUps = deps.topUps;
    if (flow.env.role !== "admin" || !topUps) {
      await flow.reply(t("balance-denied"));
      return;
    }
    const asked = partialRefundButton.parse(typeof given === "string" ? given : undefined);
    if (!asked) return;
    const pid = asked.paymentId;
    const x = await conversation.external(() => topUps.get(pid));
    // A stale button (decided since it was listed) says so and does nothing.
    if (x?.status !== "partial_refund" || !x.partialRefund) {
      await flow.reply(refusal(t, pid, x ? "not_partial" : "unknown"));
      return;
    }
    const who = await conversation.external(() => customerOf(deps, x.userId));
    const u = x.partialRefund.uncredited;
    if (asked.action === "r") {
      if (!u) {
        await flow.reply(refusal(t, pid, "credited"));
        return;
      }
      await confirm(
        flow,
        t("topup-partial-confirm-reject", { pid, who, paid: money(t, u.reportedPaisa) }),
      );
      const r = await conversation.external(() => topUps.rejectRefund(pid, flow.env.userId));
      await flow.reply(r.ok ? t("topup-partial-rejected", { pid }) : refusal(t, pid, r.reason));
      return;
    }
    // The bound the service enforces: what was paid before any credit, else what was credited.
    const most = u ? u.reportedPaisa : (x.creditedPaisa ?? 0);
    const bounds = { minPaisa: 1, maxPaisa: most };
    const returned = await flow.ask(
      t("topup-partial-ask-amount", {
        pid,
        gateway: x.gateway,
        min: money(t, bounds.minPaisa),
        max: money(t, bounds.maxPaisa),
      }),
      (text) => flow.rule(validateAmount(text, bounds)),
    );
    await confirm(flow, await consequence(flow, conversation, x, who, returned));
    const r = await conversation.external(() =>
      topUps.decideRefund(pid, returned, flow.env.userId),
    );
    await flow.reply(r.ok ? decided(t, r.topUp, returned, who) : refusal(t, pid, r.reason));
  };
}

/** What confirming does to the customer's balance, in words. */
async function consequence(
  flow: Flow,
  conversation: FlowConversation,
  x: TopUp,
  who: string,
  returnedPaisa: number,
): Promise<string> {
  const { t } = flow;
  const base = { pid: x.paymentId, gateway: x.gateway, who, returned: money(t, returnedPaisa) };
  const u = x.partialRefund?.uncredited;
  if (u) {
    const rest = u.reportedPaisa - returnedPaisa;
    const paid = money(t, u.reportedPaisa);
    return rest === 0
      ? t("topup-partial-confirm-all", { ...base, paid })
      : t("topup-partial-confirm-rest", { ...base, paid, rest: money(t, rest) });
  }
  // The reversal is bounded by what the balance holds now (an order's hold is not taken).
  const available = await conversation.external(
    async () => (await flow.deps.accounts.balanceOf(account.customer(x.userId))).availablePaisa,
  );
  return t("topup-partial-confirm-take", { ...base, available: money(t, available) });
}

/** The outcome, in the service's own figures (a shortfall included). */
function decided(t: Translate, after: TopUp, returnedPaisa: number, who: string): string {
  const base = {
    pid: after.paymentId,
    gateway: after.gateway,
    who,
    returned: money(t, returnedPaisa),
  };
  if (after.partialRefund?.uncredited) {
    const credited = after.creditedPaisa ?? 0;
    return credited > 0
      ? t("topup-partial-credited", { ...base, credited: money(t, credited) })
      : t("topup-partial-none", base);
  }
  const reversed = after.reversedPaisa ?? 0;
  const short = returnedPaisa - reversed;
  return short > 0
    ? t("topup-partial-short", { ...base, reversed: money(t, reversed), short: money(t, short) })
    : t("topup-partial-took", { ...base, reversed: money(t, reversed) });
}

type Refused = Extract<RefundDecideResult, { ok: false }>["reason"];

const REFUSED: Record<Refused, string> = {
  unknown: "topup-partial-refused-unknown",
  not_partial: "topup-partial-refused-not-partial",
  amount: "topup-partial-refused-amount",
  ledger_refused: "topup-partial-refused-ledger-refused",
  above_cap: "topup-partial-refused-above-cap",
  credited: "topup-partial-refused-credited",
  gateway_disagrees: "topup-partial-refused-gateway-disagrees",
  gateway_unavailable: "topup-partial-refused-gateway-unavailable",
};

/** The service's refusal in words ("already decided" for a second admin or a second tap). */
function refusal(t: Translate, pid: string, reason: Refused): string {
  return t(REFUSED[reason], { pid });
}

/** Confirm (or Cancel, which the loop handles) as one button. */
async function confirm(flow: Flow, text: string): Promise<void> {
  await flow.choose(text, [{ label: flow.t("common-confirm"), value: "yes" }], { columns: 1 });
}
