import { randomBytes } from "node:crypto";
import { html } from "hono/html";
import { z } from "zod";
import { formatRupees, parseTypedAmount } from "../../money.ts";
import {
  DIRECTION_WORDS,
  type FloatDecision,
  type FloatDirection,
  type FloatMove,
  type FloatMoveRecord,
  floatDirectionSchema,
  floatMoveIdSchema,
  transferIdOf,
} from "../float-moves.ts";
import { type Fragment, path, rs, table, time } from "../html.ts";

/**
 * The books page's float movements (h-float): the form that proposes one, the proposals waiting
 * for a second admin with their Approve and Reject buttons, and the recent decisions.
 */

/** What an admin types: rupees through money.ts, the chat's rule for a reason, an optional UTR. */
export const proposeSchema = z.object({
  key: floatMoveIdSchema,
  direction: z.enum(floatDirectionSchema.options, { error: "refill, up or down" }),
  amount: z.string().transform((v, ctx) => {
    const r = parseTypedAmount(v);
    if (!r.ok || r.value <= 0) {
      ctx.addIssue({ code: "custom", message: "an amount in rupees, more than 0 (e.g. 5000.50)" });
      return z.NEVER;
    }
    return r.value;
  }),
  reason: z
    .string()
    .transform((r) => r.trim().replace(/\s+/g, " "))
    .refine((r) => r.length >= 3 && r.length <= 200, "the reason takes 3 to 200 characters"),
  reference: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 _./:-]{0,64}$/, "at most 64 letters, digits, spaces and _ . / : -")
    .transform((r) => (r === "" ? undefined : r)),
});
export type ProposeForm = z.infer<typeof proposeSchema>;

/** An approval or rejection names the proposal by its id. */
export const decideSchema = z.object({ id: floatMoveIdSchema });

/** A fresh key for the form: the proposal's id, so its double submit is one proposal. */
export const freshKey = () => randomBytes(18).toString("base64url");

const LABELS: Record<FloatDirection, string> = {
  refill: "Refill: money put into the aggregator wallet (funding → float)",
  up: "Correction up: the books' float is too low (adjustments → float)",
  down: "Correction down: the books' float is too high (float → adjustments)",
};

/** The form as typed, to show again after a refusal. */
export interface ProposeValues {
  key: string;
  direction?: string;
  amount?: string;
  reason?: string;
  reference?: string;
}

export function proposeForm(v: ProposeValues): Fragment {
  const radios = floatDirectionSchema.options.map(
    (d) =>
      html`<p><label><input type="radio" name="direction" value="${d}" required${v.direction === d ? html` checked` : ""}> ${LABELS[d]}</label></p>`,
  );
  return html`<form method="post" action="${path("/books/float")}">
<input type="hidden" name="key" value="${v.key}">
<fieldset><legend>What moved</legend>${radios}</fieldset>
<p><label>Amount in rupees <input name="amount" value="${v.amount ?? ""}" inputmode="decimal" maxlength="20" required></label></p>
<p><label>Reason (required) <input type="text" name="reason" value="${v.reason ?? ""}" minlength="3" maxlength="200" size="60" required></label></p>
<p><label>Bank or aggregator reference, e.g. a UTR (optional) <input name="reference" value="${v.reference ?? ""}" maxlength="64"></label></p>
<button type="submit">Propose</button>
</form>`;
}

const button = (to: string, id: string, label: string) =>
  html`<form method="post" action="${path(to)}"><input type="hidden" name="id" value="${id}"><button type="submit">${label}</button></form>`;

export const LONE_ADMIN = "You are the only admin: you approve your own proposal.";

/** Approve (not the proposer's own, unless they are the only admin: said so) and Reject or Withdraw. */
function decideButtons(r: FloatMoveRecord, mine: boolean, mayApprove: boolean): Fragment {
  const approve = mayApprove
    ? button("/books/float/approve", r.move.id, `Approve: book ${rs(r.move.amountPaisa)}`)
    : html`<p>Waits for another admin's approval.</p>`;
  const lone = mine && mayApprove ? html`<p>${LONE_ADMIN}</p>` : "";
  return html`${approve}${lone}${button("/books/float/reject", r.move.id, mine ? "Withdraw my proposal" : "Reject")}`;
}

const moveCells = (r: FloatMoveRecord) => [
  time(r.move.at),
  `admin ${r.move.by}`,
  DIRECTION_WORDS[r.move.direction],
  rs(r.move.amountPaisa),
  r.move.reason,
  r.move.reference ?? "—",
];

/** What a decision did: rejected, or approved and booked (or not yet: a booking cut off). */
function decisionText(r: FloatMoveRecord, booked: ReadonlySet<string>): Fragment | string {
  const d = r.decision;
  if (!d) return "open";
  const who = `admin ${d.by}, ${time(d.at)}`;
  if (d.decision === "rejected") return `rejected by ${who}`;
  if (d.proposal !== r.digest) return `${d.decision} by ${who}, of another proposal under this id`;
  const id = transferIdOf(r.move.id);
  if (booked.has(id)) return `approved by ${who}; booked as ${id}`;
  // The approval stands but its booking was cut off (a crash): any approval books the same transfer.
  return html`approved by ${who}; not in the books yet${button("/books/float/approve", r.move.id, "Book it now")}`;
}

export const RECENT_DECISIONS = 20;

/** The decisions shown: the recent ones, and every approval not yet booked however old. */
export function shownDecisions(
  records: readonly FloatMoveRecord[],
  unbooked: ReadonlySet<string>,
): FloatMoveRecord[] {
  const decided = records.filter((r) => r.decision);
  return decided.filter((r, i) => i < RECENT_DECISIONS || unbooked.has(r.move.id));
}

/** The section of the books page: the form, the open proposals and the recent decisions. */
export function floatMovesView(p: {
  records: readonly FloatMoveRecord[];
  decided: readonly FloatMoveRecord[];
  booked: ReadonlySet<string>;
  mayApprove: (r: FloatMoveRecord) => boolean;
  /** Whether the viewer is the proposer (one person: ADMIN_IDS `=` groups). */
  mine: (r: FloatMoveRecord) => boolean;
  form: ProposeValues;
}): Fragment {
  const open = p.records.filter((r) => !r.decision);
  const head = ["Proposed", "By", "What", "Amount", "Reason", "Reference"];
  return html`<h2 id="float-moves">Float movements</h2>
<p>The books see the float's own movements only (orders' debits, the opening). A refill of the
aggregator wallet (a bank deposit) or a correction is booked here: one admin proposes it, another
approves it, and only the approval books it, once, as an adjustment with its reason. Until then
nothing moves. An admin who is the only admin (ADMIN_IDS) approves their own, as with /settle.</p>
${proposeForm(p.form)}
<h3>Waiting for approval</h3>
${table(
  [...head, ""],
  open.map((r) => [...moveCells(r), decideButtons(r, p.mine(r), p.mayApprove(r))]),
)}
<h3>Recent decisions</h3>
${table(
  [...head, "Decision"],
  p.decided.map((r) => [...moveCells(r), decisionText(r, p.booked)]),
)}`;
}

// --- The admins told in the chat (an admin alert, in English as the others).

const what = (m: FloatMove) =>
  `${DIRECTION_WORDS[m.direction]} of ${formatRupees(m.amountPaisa)} (${m.reason}${m.reference ? `; ref ${m.reference}` : ""})`;

// Each note names its proposal: two proposals alike (two tabs) are two alerts, never one
// taken for a repeat of the other (the notifier's send key digests the words, src/notify/send-key.ts).
export const proposedNote = (m: FloatMove) =>
  `Admin ${m.by} proposes a ${what(m)}, to be booked as ${transferIdOf(m.id)}. Nothing is booked until another admin approves it on the back office's books page (/dashboard).`;

export const decidedNote = (m: FloatMove, d: FloatDecision) =>
  d.decision === "approved"
    ? `Admin ${d.by} approved your ${what(m)}: booked as ${transferIdOf(m.id)}.`
    : `Admin ${d.by} rejected your ${what(m)} (${transferIdOf(m.id)}): nothing was booked.`;
