import { html } from "hono/html";
import { z } from "zod";
import { parseTypedAmount, toDecimalString } from "../../money.ts";
import { ageText, type HeldDecision, TOPUP_CURRENCY, type TopUp } from "../../payments/index.ts";
import { availableText, type Fragment, facts, path, rs, table, time } from "../html.ts";

/**
 * Top-ups held for an admin's decision (the gateway's lookup did not match what was initiated):
 * the list, and the confirm form of one decision. The decision is the top-up service's own
 * (src/payments held-decision.ts, what /topups runs): a credit asks the gateway once more first.
 */

export const LIST_MAX = 50;

export const DECISIONS: Record<HeldDecision, string> = {
  credit_initiated: "Credit what was asked",
  credit_paid: "Credit what was paid",
  reject: "Reject (refund at the gateway)",
};

/**
 * The decision's label: on a hold for a status word the gateway does not document, nothing was
 * said paid, so its figure is "what the gateway reports".
 */
export const decisionLabel = (t: TopUp, d: HeldDecision) =>
  d === "credit_paid" && t.held?.reasons.includes("status")
    ? "Credit what the gateway reports"
    : DECISIONS[d];

export const decideSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "not a payment id"),
  d: z.enum(["credit_initiated", "credit_paid", "reject"], {
    error: "credit_initiated, credit_paid or reject",
  }),
});

/**
 * The posted decision: a credit carries the gateway's figure (paisa) its form showed, and goes
 * through only while the gateway still reports it (a re-posted or stale form is refused).
 */
export const decidePostSchema = decideSchema
  .extend({
    shown: z
      .string()
      .regex(/^(0|[1-9]\d{0,15})$/, "the figure the form showed (open the decision again)")
      .transform(Number)
      .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
      .optional(),
  })
  .refine((q) => q.d === "reject" || q.shown !== undefined, {
    path: ["shown"],
    message: "the figure the form showed (open the decision again)",
  });

/** A credit refused because the gateway's figure is not the one the form showed. */
export const figureChanged = (now: number, shown: number) =>
  `The gateway now reports ${rs(now)}, not the ${rs(shown)} this page showed: nothing was credited. Open the decision again to see the new figure.`;

/**
 * A status hold's credit refused because the gateway does not say Completed: what it says, named
 * (review s23-d, 2), as the chat's `topup-held-not-completed(-final)`.
 */
export const notCompleted = (gateway: string, said: string, final: boolean) =>
  final
    ? `${gateway} now says ${said}: it will not say Completed. Nothing was credited. Reject it, and refund in ${gateway}'s merchant dashboard any money it kept.`
    : `${gateway} does not report this payment as completed: it now says ${said}. Nothing was credited. Try again once it says Completed, or reject it.`;

/** Why the service refused, in words (the chat's, conversations/top-up/held-command.ts). */
export const REFUSED: Record<string, string> = {
  unknown: "No such top-up.",
  not_held: "Not held any more: another decision was taken. Nothing more was done.",
  paid_less: "Less was paid than asked: crediting what was asked would add money nobody paid.",
  above_cap: "Above TOPUP_MAX_AMOUNT or what TOPUP_DAILY_CAP leaves today: not credited.",
  currency: "Paid in another currency: credit what was asked or reject.",
  ledger_refused: "The books refused the credit (see the alert): nothing was written.",
  gateway_disagrees:
    "The gateway no longer reports this payment as completed with that amount (refunded or changed): not credited.",
  gateway_unavailable: "The gateway did not answer: nothing credited; try again later.",
};

const WHY: Record<string, string> = {
  amount: "the amount differs from what was initiated",
  cap: "above TOPUP_MAX_AMOUNT / TOPUP_DAILY_CAP",
  currency: "another currency",
  merchant: "another order id",
  status: "a status word the gateway does not document (paid or not is not known)",
};

export const whyHeld = (t: TopUp) =>
  (t.held?.reasons ?? [])
    .map((r) =>
      r === "status" && t.held?.statusWord ? `${WHY[r]}: "${t.held.statusWord}"` : (WHY[r] ?? r),
    )
    .join("; ");

/**
 * What the gateway reports paid: in Nepal rupees when it names no currency or NPR; in another
 * currency the bare figure with the code it gave ("140.00 USD", never "Rs 140.00 USD": review
 * s24-e, 9).
 */
export function reportedOf(t: TopUp): string {
  const h = t.held;
  if (!h) return "—";
  const code = h.currency?.trim().toUpperCase();
  if (code === undefined || code === TOPUP_CURRENCY) return rs(h.reportedPaisa);
  return `${toDecimalString(h.reportedPaisa)} ${code}`;
}

/**
 * What was credited and, once the gateway refunded it, what became of it: a credit since taken
 * back never reads as simply "credited" (review s24-e, 6).
 */
export function creditedText(t: TopUp): string {
  if (t.creditedPaisa === undefined) return "nothing";
  const credited = rs(t.creditedPaisa);
  if (t.status === "partial_refund")
    return `${credited}; refunded in part by the gateway since: nothing taken back yet (the amount returned is awaited)`;
  if (t.status !== "refunded") return credited;
  // Refunded in part before any credit: what was credited is the rest, nothing was taken back.
  if (t.partialRefund?.uncredited) return `${credited} (the rest after a refund in part)`;
  const back = t.reversedPaisa;
  return back === undefined
    ? `${credited}, since taken back (refunded)`
    : `${credited}, since taken back (refunded): ${rs(back)} taken from the balance`;
}

const decideLink = (t: TopUp, d: HeldDecision) =>
  html`<a href="${path(`/topups/decide?id=${encodeURIComponent(t.paymentId)}&d=${d}`)}">${decisionLabel(t, d)}…</a>`;

export function heldList(held: readonly TopUp[]): Fragment {
  const rows = held.map((t) => [
    time(t.held?.at ?? t.updatedAt),
    t.paymentId,
    `user ${t.userId}`,
    rs(t.amountPaisa),
    reportedOf(t),
    whyHeld(t),
    html`${decideLink(t, "credit_initiated")}<br>${decideLink(t, "credit_paid")}<br>${decideLink(t, "reject")}`,
  ]);
  return html`<p>Top-ups the gateway's lookup did not confirm as initiated: nothing was credited.
A credit asks the gateway once more; a rejection is refunded in the gateway's merchant dashboard.</p>
${table(["Held", "Payment", "Customer", "Asked", "The gateway reports", "Why", "Decide"], rows)}`;
}

/**
 * Open top-ups past the refund watch: the gateway has not ended them, they are looked up daily,
 * and a Completed would still credit them (the amount asked only). Listed so an admin can check
 * them in the gateway's merchant dashboard; nothing to decide here.
 */
export function pastWatchList(at: number, open: readonly TopUp[]): Fragment {
  const rows = open.map((t) => [
    time(t.createdAt),
    ageText(at - t.createdAt),
    t.paymentId,
    t.id,
    `user ${t.userId}`,
    rs(t.amountPaisa),
    t.status,
  ]);
  return html`<h2>Open past the refund watch</h2>
<p>Top-ups the gateway has not ended long after their link expired: nothing credited. They are looked up daily; a Completed still credits what was asked. Check them in the gateway's merchant dashboard.</p>
${table(["Created", "Age", "Payment", "Top-up", "Customer", "Amount", "Status"], rows)}`;
}

/** Top-up records that do not parse: counted and named, not hidden (review s23-d, 1). */
export function unreadableList(members: readonly string[]): Fragment {
  if (members.length === 0) return html``;
  return html`<h2>Records that could not be read</h2>
<p>${members.length} top-up record${members.length === 1 ? "" : "s"} could not be read (see the log): ${members.join(", ")}. They are no longer looked up, credited, reversed or alerted on: check each payment in the gateway's merchant dashboard and tell the developers.</p>`;
}

export function topUpFacts(
  t: TopUp,
  balance: { availablePaisa: number; heldPaisa: number },
): Fragment {
  return facts([
    ["Payment", `${t.paymentId} (${t.gateway})`],
    ["Top-up", t.id],
    ["Customer", `user ${t.userId}, ${availableText(balance)} now`],
    ["Asked", rs(t.amountPaisa)],
    ["The gateway reports", reportedOf(t)],
    ["Gateway transaction", t.held?.transactionId ?? "—"],
    ["Why held", whyHeld(t)],
    ["Held since", time(t.held?.at)],
    ["Status", t.status],
  ]);
}

/**
 * A decision refused because the top-up is not held any more: who decided and what it is now, so
 * an admin whose second click (or retried POST) is refused sees their own decision went through
 * (review s24-a, N1).
 */
export function decidedAlready(t: TopUp, viewerId: number): { text: string; shown: Fragment } {
  const d = t.decision;
  const mine = d?.adminId === viewerId;
  const text = !d
    ? `Not held any more: it is ${t.status} (no admin decided it). Nothing more was done.`
    : mine
      ? `Already decided by you (${time(d.at)}), perhaps a double click or a page that failed: it is ${t.status}. Nothing more was done.`
      : `Already decided by admin ${d.adminId} (${time(d.at)}): it is ${t.status}. Nothing more was done.`;
  const shown = facts([
    ["Payment", `${t.paymentId} (${t.gateway})`],
    ["Customer", `user ${t.userId}`],
    ["Status", t.status],
    ["Credited", creditedText(t)],
    ["Decided", d ? `${DECISIONS[d.kind]}, by admin ${d.adminId}, ${time(d.at)}` : "—"],
  ]);
  return { text, shown };
}

/** What the decision does, and the form that confirms it. */
export function decideForm(t: TopUp, d: HeldDecision): Fragment {
  const shown = t.held?.reportedPaisa ?? 0;
  // A status hold was never reported completed: "still" would be a false word.
  const still = t.held?.reasons.includes("status") ? "now" : "still";
  const what =
    d === "reject"
      ? html`Nothing is credited; the customer is told. Refund the payment in ${t.gateway}'s merchant dashboard.`
      : html`The gateway is asked once more; if it ${still} reports the payment completed with
${rs(shown)}, the customer is credited
${d === "credit_paid" ? rs(shown) : rs(t.amountPaisa)} (one transfer in the books) and told. If it
reports another figure, nothing is credited and this page names it.`;
  return html`<p>${what}</p>
<form method="post" action="${path("/topups/decide")}">
<input type="hidden" name="id" value="${t.paymentId}">
<input type="hidden" name="d" value="${d}">
<input type="hidden" name="shown" value="${String(shown)}">
<button type="submit">${decisionLabel(t, d)}</button>
</form>`;
}

// --- Partial refunds (s20-r2 finding 1): Khalti's lookup said Partially Refunded (or Completed
// with refunded: true) without saying how much; the admin enters the figure its merchant dashboard
// shows. After a credit exactly that is reversed; before any credit the rest is credited, or the
// admin rejects it.

/** The amount Khalti returned, typed in rupees ("250", "1,000.50"), as paisa through money.ts. */
export const refundSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "not a payment id"),
  amount: z.string().transform((v, ctx) => {
    const r = parseTypedAmount(v);
    if (!r.ok || r.value <= 0) {
      ctx.addIssue({ code: "custom", message: "the amount returned, in rupees, more than 0" });
      return z.NEVER;
    }
    return r.value;
  }),
});

export const REFUND_REFUSED: Record<string, string> = {
  unknown: "No such top-up.",
  not_partial:
    "Not waiting for a partial refund's amount any more: it was entered already (or the refund rejected). Nothing more was done.",
  amount:
    "The amount must be more than Rs 0 and at most what was credited (or, if nothing was, what was paid): nothing was done.",
  ledger_refused: "The books refused the transfer (see the alert): nothing was written.",
  above_cap:
    "The rest is above TOPUP_MAX_AMOUNT or what TOPUP_DAILY_CAP leaves today: not credited. Reject it and refund the rest in the gateway's merchant dashboard.",
  credited:
    "It was credited: only the amount returned ends it (that much is taken back). Nothing was done.",
  gateway_disagrees:
    "The gateway no longer reports this payment refunded in part with that amount paid (refunded in whole or changed): nothing credited. Check its merchant dashboard; enter the whole amount if all of it was returned, or reject.",
  gateway_unavailable: "The gateway did not answer: nothing credited; try again later.",
};

const refundLink = (t: TopUp) =>
  html`<a href="${path(`/topups/refund?id=${encodeURIComponent(t.paymentId)}`)}">Enter the amount returned…</a>`;

/** What was credited; for a refund seen before any credit, nothing, and what Khalti reports paid. */
const creditedOf = (t: TopUp) => {
  const u = t.partialRefund?.uncredited;
  return u ? `nothing (${rs(u.reportedPaisa)} paid)` : rs(t.creditedPaisa);
};

export function partialList(partial: readonly TopUp[]): Fragment {
  if (partial.length === 0) return html``;
  const rows = partial.map((t) => [
    time(t.partialRefund?.at ?? t.updatedAt),
    t.paymentId,
    `user ${t.userId}`,
    creditedOf(t),
    refundLink(t),
  ]);
  return html`<h2>Partial refunds</h2>
<p>Khalti reports these payments refunded (in part, or without saying how much) but not the amount:
no money was moved yet. Enter the amount Khalti returned (its merchant dashboard shows it). If it
was credited, exactly that is taken back from the balance; if nothing was credited, the rest of the
payment is credited (or reject it). The customer is told.</p>
${table(["Reported", "Payment", "Customer", "Credited", "Amount returned"], rows)}`;
}

export function partialFacts(
  t: TopUp,
  balance: { availablePaisa: number; heldPaisa: number },
): Fragment {
  const p = t.partialRefund;
  const held = balance.heldPaisa > 0 ? ` (and ${rs(balance.heldPaisa)} held for orders)` : "";
  // A reversal takes back at most what is available: said, so a shortfall is no surprise.
  const limit = p?.uncredited ? "" : "; at most that can be taken back";
  return facts([
    ["Payment", `${t.paymentId} (${t.gateway})`],
    ["Top-up", t.id],
    ["Customer", `user ${t.userId}, ${rs(balance.availablePaisa)} available now${held}${limit}`],
    ["Asked", rs(t.amountPaisa)],
    ["Credited", creditedOf(t)],
    ["Gateway transaction", t.transactionId ?? p?.uncredited?.transactionId ?? "—"],
    [
      "Khalti reported",
      p?.mayBeWhole ? "Completed, refunded: true (in whole or in part)" : "Partially Refunded",
    ],
    ["Partial refund reported", time(p?.at)],
    ["Status", t.status],
  ]);
}

/**
 * The form that enters the amount returned (and, before any credit, the one that rejects); `typed`
 * is the amount a refused POST gave, shown again with its reason.
 */
export function refundForm(t: TopUp, typed = ""): Fragment {
  const u = t.partialRefund?.uncredited;
  const amountForm = (
    button: string,
  ) => html`<form method="post" action="${path("/topups/refund")}">
<input type="hidden" name="id" value="${t.paymentId}">
<label>Amount returned (Rs) <input name="amount" value="${typed.slice(0, 20)}" inputmode="decimal" maxlength="20" required></label>
<button type="submit">${button}</button>
</form>`;
  if (!u)
    return html`<p>Enter the amount ${t.gateway} returned to the payer, as its merchant dashboard shows
it (more than Rs 0, at most ${rs(t.creditedPaisa)}${t.partialRefund?.mayBeWhole ? "; the whole credit if all of it was refunded" : ""}). Exactly that is taken back from the customer's
balance (as far as the balance holds it; any shortfall is named in the admins' alert), the top-up
becomes refunded, and the customer is told the amount.</p>
${amountForm("Take back this amount")}`;
  return html`<p>Nothing was credited: ${t.gateway} reported this payment refunded before we looked,
without saying how much. The payer paid ${rs(u.reportedPaisa)}; they may be owed what ${t.gateway}
kept.</p>
<p>Enter the amount ${t.gateway} returned to the payer, as its merchant dashboard shows it (more than
Rs 0, at most ${rs(u.reportedPaisa)}). ${t.gateway} is asked once more; the rest
(${rs(u.reportedPaisa)} less that) is then credited to the customer, within TOPUP_MAX_AMOUNT and the
daily cap (one transfer in the books), and the customer is told. All of it returned: nothing is
credited, and the customer is told so.</p>
${amountForm("Credit the rest")}
<p>Or reject it: nothing is credited and the customer is told; refund what ${t.gateway} kept in its
merchant dashboard.</p>
<form method="post" action="${path("/topups/refund/reject")}">
<input type="hidden" name="id" value="${t.paymentId}">
<button type="submit">Reject (refund the rest at the gateway)</button>
</form>`;
}
