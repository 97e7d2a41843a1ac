import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { z } from "zod";
import { account } from "../../ledger/index.ts";
import {
  type Order,
  referenceSchema,
  type SettleResult,
  type UnsureCause,
} from "../../orders/index.ts";
import {
  actionsOf,
  field,
  formOf,
  NOT_READ,
  notConfigured,
  outcome,
  reasons,
  recordAction,
} from "../actions/common.ts";
import type { ActionDeps } from "../actions/deps.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, facts, idLabel, page, path, time, type Viewer } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * Settling an order the aggregator never ended, from the order page (admins): the chat's /settle
 * (src/orders/settle.ts), the aggregator asked live first, then one void or post through the
 * orders' own door. Audited (`order_settle`) with the order's status and the customer's available
 * balance before and after, and what the aggregator said.
 */

type SettlePort = NonNullable<ActionDeps["settle"]>;

export const settlePortOf = (parts: DashboardParts): SettlePort | null =>
  actionsOf(parts)?.settle ?? null;

const settleSchema = z.object({
  ref: referenceSchema,
  outcome: z.enum(["failed", "success"], { error: "failed or success" }),
  reason: z
    .string()
    .transform((r) => r.trim().replace(/\s+/g, " "))
    .pipe(z.string().min(3, "a reason of 3 to 200 characters").max(200)),
  /** An approval: the admin whose proposal the page showed (absent: a new proposal). */
  approves: z.union([z.literal("").transform(() => undefined), z.coerce.number().int()]),
  /** An approval: when the proposal the page showed was made (its identity with `approves`). */
  proposedAt: z.union([z.literal("").transform(() => undefined), z.coerce.number().int()]),
});

/** The order page's part: who settled it, or (admins, when it may be settled now) the form. */
export function settleSection(o: Order, port: SettlePort | null, viewer: Viewer): Fragment | "" {
  const admin = viewer.role === "admin";
  if (o.settled) {
    const s = o.settled;
    return html`<h2>Settled by an admin</h2>${facts([
      [`By (${idLabel(s.by)})`, s.by],
      ["At", time(s.at)],
      ["As", o.status],
      ["Reason", s.reason],
      ["The aggregator said", s.aggregator],
      [
        "Contradicted later",
        s.contradictedAt === undefined
          ? "no"
          : `${time(s.contradictedAt)}: the aggregator said the opposite; no money moved`,
      ],
      [
        "Confirmed later",
        // The aggregator's own final word agreeing with the settlement (final-order.ts).
        s.confirmedAt === undefined
          ? "no"
          : `${time(s.confirmedAt)}: a final answer of the aggregator said the same`,
      ],
    ])}`;
  }
  if (!admin || !port?.settleable(o).ok) return "";
  const needs = port.needsApproval(port.adminIds(), viewer.userId);
  const p = needs ? o.settleProposal : undefined;
  if (p) return proposalSection(o, p, port.sameAdmin(p.by, viewer.userId));
  const approval = needs
    ? " With more than one admin, this is a proposal: another admin approves it before anything moves."
    : "";
  return html`<h2>Settle</h2>
<p>The aggregator has given no final answer for too long. It is asked once more first: a final
answer is applied as it is (one that does not match the order stops it; an answer that may hide
a "not found" refuses "as succeeded": not found, an answer about another order, a refused query,
an answer that cannot be read, a word the bot does not know). Otherwise: as failed, the customer is not charged
(a prepaid customer's held money goes back to their balance); as succeeded, they are charged and
the aggregator's debit is its answer's or inferred from the order. The customer and any other
admin are told.${approval}</p>
<form method="post" action="${path("/orders/settle")}">
<input type="hidden" name="ref" value="${o.reference}">
<label><input type="radio" name="outcome" value="failed" required> As failed (money back)</label>
<label><input type="radio" name="outcome" value="success"> As succeeded</label>
<label>Reason <input type="text" name="reason" minlength="3" maxlength="200" required></label>
<button type="submit">Settle order ${o.reference}</button>
</form>`;
}

/** Maker-checker: the proposal waiting on the order, to approve (another admin) or withdraw. */
function proposalSection(
  o: Order,
  p: NonNullable<Order["settleProposal"]>,
  /** The viewer is the proposer (any of their chats: ADMIN_IDS groups one person's ids). */
  mine: boolean,
): Fragment {
  const approve = mine
    ? html`<p>Your proposal waits for another admin's approval.</p>`
    : html`<form method="post" action="${path("/orders/settle")}">
<input type="hidden" name="ref" value="${o.reference}">
<input type="hidden" name="outcome" value="${p.outcome}">
<input type="hidden" name="reason" value="${p.reason}">
<input type="hidden" name="approves" value="${p.by}">
<input type="hidden" name="proposedAt" value="${p.at}">
<button type="submit">Approve: settle order ${o.reference} as ${p.outcome}</button>
</form>`;
  return html`<h2>Settlement proposed</h2>${facts([
    [`By (${idLabel(p.by)})`, p.by],
    ["At", time(p.at)],
    ["As", p.outcome],
    ["Reason", p.reason],
  ])}${approve}
<form method="post" action="${path("/orders/settle/withdraw")}">
<input type="hidden" name="ref" value="${o.reference}">
<input type="hidden" name="proposedBy" value="${p.by}">
<input type="hidden" name="proposedAt" value="${p.at}">
<button type="submit">${mine ? "Withdraw my proposal" : "Decline"}</button>
</form>`;
}

const REFUSED: Record<Exclude<SettleResult, { ok: true }>["code"], string> = {
  unknown: "No such order.",
  final: "The order is final already: nothing was settled.",
  disabled:
    "Settling by hand is off (SETTLE_ENABLED): turn it on once no older version runs; nothing was settled.",
  too_young: "Too recent to settle by hand (SETTLE_AFTER_MS): nothing was settled.",
  not_sent: "Never sent to the aggregator: the reconciler fails it by itself.",
  aggregator_final:
    "The aggregator has just answered final: its answer was applied; nothing was settled by hand.",
  aggregator_disagrees:
    "The aggregator has just answered final, but its answer does not match the order (another transaction id): nothing was settled; resolve it with the aggregator.",
  answer_unwritten:
    "The aggregator's answer could not be saved (a storage error): nothing was settled and nothing moved on your word. Try again in a moment.",
  aggregator_unsure:
    "The aggregator does not confirm a recharge: not settled as succeeded; settle it as failed, or resolve it with the aggregator.",
  own_proposal: "Your own proposal waits for another admin's approval: nothing was settled.",
  other_proposal:
    "Another proposal waits on this order: open the order again to approve or decline it.",
  no_proposal: "The proposal was withdrawn or declined meanwhile: nothing was settled.",
};

/** Why the aggregator's answer just asked leaves "as succeeded" unsure (settle.ts UnsureCause). */
const UNSURE: Record<UnsureCause, string> = {
  not_found: "it has no such order (not found)",
  other_order: "it answered about another order",
  refused: "it refused the status query in its own error answer, which may hide a not found",
  unreadable: "its answer could not be read, which may hide a not found",
  unknown_word: "it answered a status word the bot does not know",
};

/** The refusal's words; an unsure answer names its cause. */
export function refusalWords(r: Exclude<SettleResult, { ok: true }>): string {
  const said = "said" in r ? ` The aggregator said: ${r.said}.` : "";
  if (r.code !== "aggregator_unsure") return REFUSED[r.code] + said;
  return `The aggregator does not confirm a recharge: ${UNSURE[r.cause]}. Not settled as succeeded; settle it as failed, or resolve it with the aggregator.${said}`;
}

async function settle(c: Context<DashboardEnv>, parts: DashboardParts, port: SettlePort) {
  const viewer = c.get("viewer");
  const title = "Settle an order";
  const body = await formOf(c);
  const p = settleSchema.safeParse({
    ref: field(body, "ref").trim(),
    outcome: field(body, "outcome"),
    reason: field(body, "reason"),
    approves: field(body, "approves").trim(),
    proposedAt: field(body, "proposedAt").trim(),
  });
  const back = (ref: string) => html`<a href="${path(`/orders?ref=${ref}`)}">Back to the order</a>`;
  if (!p.success) {
    // The order's settle form again under the reason, when the order is known (review s32, 5).
    const given = referenceSchema.safeParse(field(body, "ref").trim());
    const order = given.success ? await parts.deps.orders.get(given.data) : null;
    const again = order ? settleSection(order, port, viewer) : "";
    const ref = order?.reference ?? "";
    const shown = html`${outcome(reasons(p.error), "error", back(ref))}${again}`;
    return c.html(page(title, shown, viewer), 400);
  }
  const { ref } = p.data;
  const current = await parts.deps.orders.get(ref);
  if (!current)
    return c.html(page(title, outcome(REFUSED.unknown, "error", back(ref)), viewer), 404);
  const customer = account.customer(current.userId);
  const available = async () => (await parts.deps.ledger.balance(customer)).availablePaisa;
  const before = { status: current.status, [customer]: await available() };
  const r = await port.settle({
    reference: ref,
    outcome: p.data.outcome,
    adminId: viewer.userId,
    reason: p.data.reason,
    admins: port.adminIds(),
    ...(p.data.approves === undefined
      ? {}
      : { approves: { by: p.data.approves, at: p.data.proposedAt ?? -1 } }),
  });
  if (!r.ok) {
    const status = r.code === "unknown" ? 404 : 409;
    return c.html(page(title, outcome(refusalWords(r), "error", back(ref)), viewer), status);
  }
  const proposed = r.done === "proposed";
  const by = r.order.settled?.approvedBy === undefined ? "" : `, proposed by ${r.order.settled.by}`;
  const detail = proposed
    ? `order ${ref} proposed as ${p.data.outcome}: ${p.data.reason} (the aggregator said: ${r.aggregator})`
    : `order ${ref} as ${r.order.status}${by}: ${r.order.settled?.reason ?? p.data.reason} (the aggregator said: ${r.aggregator})`;
  // Settled by now: a failed read must not turn it into a 500 with no audit entry (review s32, 1).
  const availableAfter = await available().catch((err: unknown) => {
    parts.deps.logger.error(
      { err: String(err), what: detail.slice(0, 300), account: customer },
      "an action was done but the balances after it were not read",
    );
    return NOT_READ;
  });
  const after = {
    status: proposed ? `${r.order.status}, proposed as ${p.data.outcome}` : r.order.status,
    [customer]: availableAfter,
  };
  await recordAction(parts, c, viewer, "order_settle", detail.slice(0, 300), before, after);
  const done = proposed
    ? `Order ${ref}: proposed as ${p.data.outcome}. Nothing moves until another admin approves it; they are told.`
    : `Order ${ref} settled as ${r.order.status}; the customer and any other admin are told.`;
  return c.html(page(title, outcome(done, "info", back(ref)), viewer));
}

/** A withdrawal or decline names the proposal the page showed (its admin and time). */
const withdrawSchema = z.object({
  ref: referenceSchema,
  proposedBy: z.coerce.number().int(),
  proposedAt: z.coerce.number().int(),
});

async function withdraw(c: Context<DashboardEnv>, parts: DashboardParts, port: SettlePort) {
  const viewer = c.get("viewer");
  const body = await formOf(c);
  const ref = referenceSchema.safeParse(field(body, "ref").trim());
  const back = html`<a href="${path(`/orders?ref=${ref.data ?? ""}`)}">Back to the order</a>`;
  if (!ref.success) {
    const why = outcome("A reference is 1 to 15 digits.", "error", back);
    return c.html(page("Settle an order", why, viewer), 400);
  }
  const shown = withdrawSchema.safeParse({
    ref: ref.data,
    proposedBy: field(body, "proposedBy").trim() || undefined,
    proposedAt: field(body, "proposedAt").trim() || undefined,
  });
  if (!shown.success) {
    const why = outcome("Open the order again: the form names no proposal.", "error", back);
    return c.html(page("Settle an order", why, viewer), 400);
  }
  const was = { by: shown.data.proposedBy, at: shown.data.proposedAt };
  const current = (await parts.deps.orders.get(ref.data))?.settleProposal;
  const done = await port.withdraw(ref.data, viewer.userId, was);
  if (!done) {
    const why =
      "The proposal shown is no longer waiting on this order (withdrawn, declined or proposed anew): nothing was changed. Open the order again.";
    return c.html(page("Settle an order", outcome(why, "error", back), viewer), 409);
  }
  const outcomeOf = current?.by === was.by && current.at === was.at ? current.outcome : "?";
  const before = { proposal: `${was.by} as ${outcomeOf}` };
  const detail = `order ${ref.data}: proposal of ${was.by} as ${outcomeOf} withdrawn`;
  await recordAction(parts, c, viewer, "order_settle", detail, before, { proposal: "none" });
  return c.html(
    page(
      "Settle an order",
      outcome("The proposal was withdrawn. Nothing moved.", "info", back),
      viewer,
    ),
  );
}

export function orderSettleRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.post("/orders/settle/withdraw", authenticate(parts), allow("admin"), async (c) => {
    const port = settlePortOf(parts);
    if (!port) return notConfigured(c, c.get("viewer"), "Settling orders");
    return withdraw(c, parts, port);
  });
  app.post("/orders/settle", authenticate(parts), allow("admin"), async (c) => {
    const port = settlePortOf(parts);
    if (!port) return notConfigured(c, c.get("viewer"), "Settling orders");
    return settle(c, parts, port);
  });
}
