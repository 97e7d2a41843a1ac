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
  REFUSED,
  topUpFacts,
} from "../actions/topups.ts";
import { allow, authenticate } from "../auth.ts";
import { facts, notice, page, path, rs } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * Held top-ups from the browser (admins): the list, a confirm page per decision, and the POST that
 * decides through the top-up service (the credit's fresh gateway lookup included). Audited with the
 * customer's and the gateway's clearing balances and the top-up's status before and after.
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

export function topUpRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;

  app.get("/topups", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const held = await topUps.held(LIST_MAX);
    return c.html(page(TITLE, heldList(held), c.get("viewer")));
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
