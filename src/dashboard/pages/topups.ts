import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { account } from "../../ledger/index.ts";
import type { HeldDecision } from "../../payments/index.ts";
import {
  actionsOf,
  field,
  formOf,
  notConfigured,
  outcome,
  postedOf,
  reasons,
  recordAction,
} from "../actions/common.ts";
import type { ActionDeps } from "../actions/deps.ts";
import {
  DECISIONS,
  decideForm,
  decideSchema,
  heldList,
  LIST_MAX,
  partialFacts,
  partialList,
  REFUND_REFUSED,
  REFUSED,
  refundForm,
  refundSchema,
  topUpFacts,
} from "../actions/topups.ts";
import { allow, authenticate } from "../auth.ts";
import { facts, notice, page, path, rs } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * Held top-ups from the browser (admins): the list, a confirm page per decision, and the POST that
 * decides through the top-up service (the credit's fresh gateway lookup included). Audited with the
 * customer's and the gateway's clearing balances and the top-up's status before and after. Also
 * the partial refunds Khalti reported without a figure: the admin enters the amount returned, and
 * the top-up service reverses exactly that, or (seen before any credit) credits the rest of the
 * payment; or the admin rejects an uncredited one (audited the same way).
 */

const TITLE = "Held top-ups";
const back = html`<a href="${path("/topups")}">Back to the held top-ups</a>`;

type TopUpsPort = NonNullable<ActionDeps["topUps"]>;

function topUpsOf(parts: DashboardParts): TopUpsPort | null {
  return actionsOf(parts)?.topUps ?? null;
}

async function confirmPage(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
  d: HeldDecision,
) {
  const viewer = c.get("viewer");
  const title = `${DECISIONS[d]}: ${paymentId}`;
  const t = await topUps.get(paymentId);
  if (!t) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  const balance = (await parts.deps.ledger.balance(account.customer(t.userId))).postedPaisa;
  if (t.status !== "held") {
    const body = html`${notice(`Not held: it is ${t.status}. Nothing to decide.`)}${topUpFacts(t, balance)}<p>${back}</p>`;
    return c.html(page(title, body, viewer), 409);
  }
  return c.html(page(title, html`${topUpFacts(t, balance)}${decideForm(t, d)}`, viewer));
}

async function decide(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
  d: HeldDecision,
) {
  const viewer = c.get("viewer");
  const title = `${DECISIONS[d]}: ${paymentId}`;
  const current = await topUps.get(paymentId);
  if (!current) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  const accounts = [account.customer(current.userId), account.merchant.gateway(current.gateway)];
  const before: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: current.status,
  };
  const r = await topUps.decide(paymentId, d, viewer.userId);
  if (!r.ok) {
    const text = REFUSED[r.reason] ?? "Refused: nothing was done.";
    return c.html(page(title, outcome(text, "error", back), viewer), 409);
  }
  const after: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: r.topUp.status,
  };
  const credited = r.topUp.creditedPaisa ?? 0;
  const detail =
    d === "reject"
      ? `${paymentId} (${current.gateway}) of user ${current.userId} rejected`
      : `${paymentId} (${current.gateway}) of user ${current.userId}: ${rs(credited)} credited (${d})`;
  await recordAction(
    parts,
    c,
    viewer,
    d === "reject" ? "topup_reject" : "topup_credit",
    detail,
    before,
    after,
  );
  const done =
    d === "reject"
      ? `Rejected: nothing credited. Refund it in ${current.gateway}'s merchant dashboard; the customer's notice is on its way to the chat.`
      : `Credited ${rs(credited)}; the customer's notice is on its way to the chat.`;
  const paisa = (v: number | string | undefined) => (typeof v === "number" ? rs(v) : "—");
  const rows = accounts.map(
    (a) => [a, `${paisa(before[a])} → ${paisa(after[a])}`] as [string, string],
  );
  const body = html`${notice(done)}${facts([["Status", `${before.status} → ${after.status}`], ...rows])}<p>${back}</p>`;
  return c.html(page(title, body, viewer));
}

const REFUND_TITLE = "Partial refund";

async function refundPage(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
) {
  const viewer = c.get("viewer");
  const title = `${REFUND_TITLE}: ${paymentId}`;
  const t = await topUps.get(paymentId);
  if (!t) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  // Available and held, not posted: a reversal takes back at most what is available.
  const balance = await parts.deps.ledger.balance(account.customer(t.userId));
  if (t.status !== "partial_refund") {
    const body = html`${notice(`Not waiting for a partial refund's amount: it is ${t.status}. Nothing to enter.`)}${partialFacts(t, balance)}<p>${back}</p>`;
    return c.html(page(title, body, viewer), 409);
  }
  return c.html(page(title, html`${partialFacts(t, balance)}${refundForm(t)}`, viewer));
}

/** The admin's figure of a partial refund: exactly that is reversed, once; audited. */
async function enterRefund(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
  returnedPaisa: number,
) {
  const viewer = c.get("viewer");
  const title = `${REFUND_TITLE}: ${paymentId}`;
  const current = await topUps.get(paymentId);
  if (!current) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  const accounts = [account.customer(current.userId), account.merchant.gateway(current.gateway)];
  const before: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: current.status,
  };
  const r = await topUps.decideRefund(paymentId, returnedPaisa, viewer.userId);
  if (!r.ok) {
    const text = REFUND_REFUSED[r.reason] ?? "Refused: nothing was done.";
    return c.html(
      page(title, outcome(text, "error", back), viewer),
      r.reason === "amount" ? 400 : 409,
    );
  }
  const after: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: r.topUp.status,
  };
  const reversed = r.topUp.reversedPaisa ?? 0;
  // Before any credit the figure credits the rest of the payment (nothing, if all was returned).
  const uncredited = current.partialRefund?.uncredited !== undefined;
  const credited = r.topUp.creditedPaisa ?? 0;
  const booked = uncredited ? `${rs(credited)} credited (the rest)` : `${rs(reversed)} taken back`;
  await recordAction(
    parts,
    c,
    viewer,
    "topup_refund",
    `${paymentId} (${current.gateway}) of user ${current.userId}: ${rs(returnedPaisa)} returned by ${current.gateway}, ${booked}`,
    before,
    after,
  );
  const short = returnedPaisa - reversed;
  const done = uncredited
    ? `Credited ${rs(credited)}, the rest of the payment after the ${rs(returnedPaisa)} ${current.gateway} returned. The customer's notice is on its way to the chat.`
    : `Took back ${rs(reversed)} of the ${rs(returnedPaisa)} ${current.gateway} returned${short > 0 ? `; the balance was short by ${rs(short)}: recover it by hand` : ""}. The customer's notice is on its way to the chat.`;
  const paisa = (v: number | string | undefined) => (typeof v === "number" ? rs(v) : "—");
  const rows = accounts.map(
    (a) => [a, `${paisa(before[a])} → ${paisa(after[a])}`] as [string, string],
  );
  const body = html`${notice(done)}${facts([["Status", `${before.status} → ${after.status}`], ...rows])}<p>${back}</p>`;
  return c.html(page(title, body, viewer));
}

/** The rejection of a partial refund seen before any credit: nothing credited, once; audited. */
async function rejectRefund(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
) {
  const viewer = c.get("viewer");
  const title = `${REFUND_TITLE}: ${paymentId}`;
  const current = await topUps.get(paymentId);
  if (!current) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  const accounts = [account.customer(current.userId), account.merchant.gateway(current.gateway)];
  const before: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: current.status,
  };
  const r = await topUps.rejectRefund(paymentId, viewer.userId);
  if (!r.ok) {
    const text = REFUND_REFUSED[r.reason] ?? "Refused: nothing was done.";
    return c.html(page(title, outcome(text, "error", back), viewer), 409);
  }
  const after: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: r.topUp.status,
  };
  await recordAction(
    parts,
    c,
    viewer,
    "topup_reject",
    `${paymentId} (${current.gateway}) of user ${current.userId} rejected: refunded in part before any credit, nothing credited`,
    before,
    after,
  );
  const done = `Rejected: nothing credited. Refund what ${current.gateway} kept in its merchant dashboard; the customer's notice is on its way to the chat.`;
  const body = html`${notice(done)}${facts([["Status", `${before.status} → ${after.status}`]])}<p>${back}</p>`;
  return c.html(page(title, body, viewer));
}

export function topUpRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;

  app.get("/topups", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const held = await topUps.held(LIST_MAX);
    const partial = await topUps.partialRefunds(LIST_MAX);
    return c.html(page(TITLE, html`${partialList(partial)}${heldList(held)}`, c.get("viewer")));
  });

  app.get("/topups/refund", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const id = refundSchema.shape.id.safeParse(c.req.query("id") ?? "");
    if (!id.success) {
      return c.html(page(TITLE, outcome(reasons(id.error), "error", back), c.get("viewer")), 400);
    }
    return refundPage(c, parts, topUps, id.data);
  });

  app.post("/topups/refund", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const body = await formOf(c);
    const q = refundSchema.safeParse({ id: field(body, "id"), amount: field(body, "amount") });
    if (!q.success) {
      return c.html(page(TITLE, outcome(reasons(q.error), "error", back), c.get("viewer")), 400);
    }
    return enterRefund(c, parts, topUps, q.data.id, q.data.amount);
  });

  app.post("/topups/refund/reject", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const id = refundSchema.shape.id.safeParse(field(await formOf(c), "id"));
    if (!id.success) {
      return c.html(page(TITLE, outcome(reasons(id.error), "error", back), c.get("viewer")), 400);
    }
    return rejectRefund(c, parts, topUps, id.data);
  });

  app.get("/topups/decide", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const q = decideSchema.safeParse({ id: c.req.query("id") ?? "", d: c.req.query("d") ?? "" });
    if (!q.success) {
      return c.html(page(TITLE, outcome(reasons(q.error), "error", back), c.get("viewer")), 400);
    }
    return confirmPage(c, parts, topUps, q.data.id, q.data.d);
  });

  app.post("/topups/decide", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const body = await formOf(c);
    const q = decideSchema.safeParse({ id: field(body, "id"), d: field(body, "d") });
    if (!q.success) {
      return c.html(page(TITLE, outcome(reasons(q.error), "error", back), c.get("viewer")), 400);
    }
    return decide(c, parts, topUps, q.data.id, q.data.d);
  });
}
