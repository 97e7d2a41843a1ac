import { html } from "hono/html";
import { z } from "zod";
import {
  BBPS_DISPOSITION,
  type Complaint,
  type ComplaintReason,
  clockOf,
  complaintRefSchema,
  type Reversed,
  spanText,
} from "../../complaints/index.ts";
import { availableText, type Fragment, facts, notice, path, rs, table, time } from "../html.ts";

/**
 * Complaints in the back office: the open list with each one's clock, the confirm form of an
 * action, and the words of a refusal. The actions are the complaints service's own (what
 * /complaints runs in the chat): a refund is booked once, under the complaint's number.
 */

export const LIST_MAX = 100;

export const ACTIONS = {
  take: "Take",
  refund: "Resolve with a refund",
  resolve: "Resolve without a refund",
  reject: "Reject",
} as const;
export type Act = keyof typeof ACTIONS;

export const actSchema = z.object({
  ref: complaintRefSchema,
  a: z.enum(["take", "refund", "resolve", "reject"], { error: "take, refund, resolve or reject" }),
});

/** The POST: an action and, except for take, what the customer reads (3 to 200 characters). */
export const actFormSchema = actSchema
  .extend({ text: z.string().trim().max(200) })
  .refine((f) => f.a === "take" || f.text.length >= 3, {
    path: ["text"],
    message: "3 to 200 characters: the customer reads it",
  });

export const REASONS: Readonly<Record<ComplaintReason, string>> = {
  not_received: "paid but not received",
  wrong_number: "wrong number",
  wrong_amount: "wrong amount",
  duplicate: "duplicate",
};

export const REFUSED: Record<string, string> = {
  unknown: "No such complaint.",
  closed: "Already closed: nothing more was done (no second refund).",
  already_taken: "Already taken: nothing more was done.",
  not_paid_by_customer: "No refund: the order was not paid from the customer's balance.",
  failed_returned: "No refund: the order failed and its money already went back to the balance.",
  not_final: "No refund yet: the order is not final (its hold may still be released).",
  already_refunded: "No refund: another complaint on this order was already refunded.",
  too_much: "No refund: more than the customer paid.",
  ledger_refused: "The books refused the refund: nothing was written.",
};

const actLink = (c: Complaint, a: Act) =>
  html`<a href="${path(`/complaints/act?ref=${c.reference}&a=${a}`)}">${ACTIONS[a]}…</a>`;

const clockText = (c: Complaint, now: number) => {
  const k = clockOf(c, now);
  return k.overdue ? `OVERDUE by ${spanText(k.leftMs)}` : `${spanText(k.leftMs)} left`;
};

export function openList(open: readonly Complaint[], now: number): Fragment {
  const rows = open.map((c) => [
    c.reference,
    c.orderReference,
    `user ${c.userId}`,
    `${REASONS[c.reason]} (${BBPS_DISPOSITION[c.reason]})`,
    c.status,
    spanText(clockOf(c, now).ageMs),
    time(c.dueAt),
    clockText(c, now),
    html`${c.status === "logged" ? html`${actLink(c, "take")}<br>` : ""}${actLink(c, "refund")}<br>${actLink(c, "resolve")}<br>${actLink(c, "reject")}`,
  ]);
  return html`<p>Open complaints, the soonest due first. The customer is told of every change in their chat.</p>
${table(["Complaint", "Order", "Customer", "Reason", "Status", "Age", "Due", "Clock", "Answer"], rows)}`;
}

export function complaintFacts(
  c: Complaint,
  now: number,
  balance: { availablePaisa: number; heldPaisa: number },
): Fragment {
  return facts([
    ["Complaint", c.reference],
    ["Order", c.orderReference],
    ["Customer", `user ${c.userId}, ${availableText(balance)} now`],
    ["Reason", `${REASONS[c.reason]} (${BBPS_DISPOSITION[c.reason]})`],
    ["Status", c.status],
    ["Raised", time(c.createdAt)],
    ["Due", `${time(c.dueAt)} (${clockText(c, now)})`],
    ["Taken", c.taken ? `by ${c.taken.by} at ${time(c.taken.at)}` : "—"],
    ["Closed", c.closing ? `by ${c.closing.by} at ${time(c.closing.at)}: ${c.closing.text}` : "—"],
    [
      "Refund",
      c.closing?.refund
        ? `${rs(c.closing.refund.amountPaisa)} (${c.closing.refund.transferId})`
        : "—",
    ],
  ]);
}

/** What the action does, and the form that confirms it. */
/**
 * The aggregator's word against the order's success, shown above a refund's form (review
 * s33-rvcomp 5): its admins' alert said the customer may be owed a refund, so another admin may
 * already have returned the money another way (a /credit).
 */
export function reversedNotice(r: Reversed | undefined): Fragment {
  if (!r) return html``;
  return notice(
    `The aggregator answered "${r.word}" for this order at ${time(r.at)}: it reversed the recharge after its success. Check that the customer was not already given the money back another way (a /credit) before refunding.`,
    "error",
  );
}

export function actForm(c: Complaint, a: Act, refundPaisa: number | null, text = ""): Fragment {
  const what: Record<Act, Fragment> = {
    take: html`The complaint is marked as being looked into; the customer is told.`,
    refund: html`Books one transfer <strong>complaint:${c.reference}:refund</strong> of
${rs(refundPaisa)} from merchant:sales back to the customer's balance, resolves the complaint with
your words and tells the customer. Repeating it books nothing more.`,
    resolve: html`Resolves the complaint with your words (no money moves) and tells the customer.`,
    reject: html`Rejects the complaint with your reason and tells the customer.`,
  };
  const words =
    a === "take"
      ? html``
      : html`<label>${a === "reject" ? "Why (the customer reads it)" : "What was done (the customer reads it)"}
<textarea name="text" minlength="3" maxlength="200" required>${text}</textarea></label>`;
  return html`<p>${what[a]}</p>
<form method="post" action="${path("/complaints/act")}">
<input type="hidden" name="ref" value="${c.reference}">
<input type="hidden" name="a" value="${a}">
${words}
<button type="submit">${ACTIONS[a]}${a === "refund" ? ` ${rs(refundPaisa)}` : ""}</button>
</form>`;
}
