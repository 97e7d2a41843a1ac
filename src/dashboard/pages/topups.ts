import type { Context, Hono } from "hono";
import { html } from "hono/html";
import { account } from "../../ledger/index.ts";
import type { HeldDecision, TopUp } from "../../payments/index.ts";
import {
  actionsOf,
  field,
  figure,
  formOf,
  notConfigured,
  outcome,
  postedAfter,
  postedOf,
  reasons,
  recordAction,
} from "../actions/common.ts";
import type { ActionDeps } from "../actions/deps.ts";
import {
  DECISIONS,
  decidedAlready,
  decideForm,
  decidePostSchema,
  decideSchema,
  decisionLabel,
  figureChanged,
  heldList,
  LIST_MAX,
  notCompleted,
  partialFacts,
  partialList,
  pastWatchList,
  REFUND_REFUSED,
  REFUSED,
  refundForm,
  refundSchema,
  topUpFacts,
  unreadableList,
} from "../actions/topups.ts";
import type { AuditAction } from "../audit.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, facts, notice, POSTED, page, path, rs } from "../html.ts";
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
  const t = await topUps.get(paymentId);
  const title = `${t ? decisionLabel(t, d) : DECISIONS[d]}: ${paymentId}`;
  if (!t) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  const balance = await parts.deps.ledger.balance(account.customer(t.userId));
  if (t.status !== "held") {
    const body = html`${notice(`Not held: it is ${t.status}. Nothing to decide.`)}${topUpFacts(t, balance)}<p>${back}</p>`;
    return c.html(page(title, body, viewer), 409);
  }
  return c.html(page(title, html`${topUpFacts(t, balance)}${decideForm(t, d)}`, viewer));
}

/** What a decision from the browser answered: the top-up after it, or why nothing was done. */
type Decided =
  | { ok: true; topUp: TopUp }
  | { ok: false; text: string; status: 400 | 409; shown?: Fragment };

/** What the audit and the page say of a decision that was done. */
interface Told {
  action: AuditAction;
  detail: string;
  done: string;
  /** The balances' rows beside the status (not for a rejection: nothing moved). */
  balances: boolean;
}

/**
 * One decision on a top-up from the browser: the balances before and after it, its audit entry
 * and the page saying what was done. `run` decides through the top-up service (once: a second
 * POST is refused there); `told` words what was done.
 */
async function auditedDecision(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
  title: string | ((current: TopUp) => string),
  run: () => Promise<Decided>,
  told: (current: TopUp, after: TopUp) => Told,
) {
  const viewer = c.get("viewer");
  const current = await topUps.get(paymentId);
  if (!current) {
    const named = typeof title === "string" ? title : paymentId;
    return c.html(page(named, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  }
  // Named as the page before it named it: "paid" is never said of a status hold (s23-d, 4).
  const heading = typeof title === "string" ? title : title(current);
  const accounts = [account.customer(current.userId), account.merchant.gateway(current.gateway)];
  const before: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: current.status,
  };
  const r = await run();
  if (!r.ok) {
    const body = html`${notice(r.text, "error")}${r.shown ?? ""}<p>${back}</p>`;
    return c.html(page(heading, body, viewer), r.status);
  }
  const t = told(current, r.topUp);
  const after: Record<string, number | string> = {
    ...(await postedAfter(parts, accounts, t.detail)),
    status: r.topUp.status,
  };
  await recordAction(parts, c, viewer, t.action, t.detail, before, after);
  const rows = t.balances
    ? accounts.map(
        (a) =>
          [`${a} (${POSTED})`, `${figure(before[a])} → ${figure(after[a])}`] as [string, string],
      )
    : [];
  const body = html`${notice(t.done)}${facts([["Status", `${before.status} → ${after.status}`], ...rows])}<p>${back}</p>`;
  return c.html(page(heading, body, viewer));
}

const NOTHING_DONE = "Refused: nothing was done.";

function decide(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
  d: HeldDecision,
  shownPaisa: number | undefined,
) {
  const adminId = c.get("viewer").userId;
  const run = async (): Promise<Decided> => {
    const r = await topUps.decide(paymentId, d, adminId, shownPaisa);
    if (r.ok) return r;
    const now = r.reason === "not_held" ? await topUps.get(paymentId) : null;
    if (now) return { ok: false, status: 409, ...decidedAlready(now, adminId) };
    const text =
      r.reason === "figure_changed"
        ? figureChanged(r.reportedPaisa, r.shownPaisa)
        : r.reason === "not_completed"
          ? notCompleted((await topUps.get(paymentId))?.gateway ?? "the gateway", r.said, r.final)
          : (REFUSED[r.reason] ?? NOTHING_DONE);
    return { ok: false, text, status: 409 };
  };
  return auditedDecision(
    c,
    parts,
    topUps,
    paymentId,
    (current) => `${decisionLabel(current, d)}: ${paymentId}`,
    run,
    (t, after) => {
      const who = `${paymentId} (${t.gateway}) of user ${t.userId}`;
      const credited = after.creditedPaisa ?? 0;
      return d === "reject"
        ? {
            action: "topup_reject",
            detail: `${who} rejected`,
            done: `Rejected: nothing credited. Refund it in ${t.gateway}'s merchant dashboard; the customer's notice is on its way to the chat.`,
            balances: true,
          }
        : {
            action: "topup_credit",
            detail: `${who}: ${rs(credited)} credited (${d})`,
            done: `Credited ${rs(credited)}; the customer's notice is on its way to the chat.`,
            balances: true,
          };
    },
  );
}

const REFUND_TITLE = "Partial refund";

/** The amount form's page; after a refused amount, with its reason and the amount as typed (400). */
async function refundPage(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
  refused?: { why: string; typed: string },
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
  const why = refused ? notice(refused.why, "error") : "";
  const body = html`${why}${partialFacts(t, balance)}${refundForm(t, refused?.typed)}`;
  return c.html(page(title, body, viewer), refused ? 400 : 200);
}

/** The admin's figure of a partial refund: exactly that is reversed, once; audited. */
function enterRefund(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
  returnedPaisa: number,
  typed: string,
) {
  const adminId = c.get("viewer").userId;
  const run = async (): Promise<Decided> => {
    const r = await topUps.decideRefund(paymentId, returnedPaisa, adminId);
    if (r.ok) return r;
    const text = REFUND_REFUSED[r.reason] ?? NOTHING_DONE;
    if (r.reason !== "amount") return { ok: false, text, status: 409 };
    // An amount out of range: the form again with the amount as typed (review s32-backoffice, 4).
    const t = await topUps.get(paymentId);
    return { ok: false, text, status: 400, ...(t ? { shown: refundForm(t, typed) } : {}) };
  };
  return auditedDecision(
    c,
    parts,
    topUps,
    paymentId,
    `${REFUND_TITLE}: ${paymentId}`,
    run,
    (t, after) => {
      const reversed = after.reversedPaisa ?? 0;
      // Before any credit the figure credits the rest of the payment (nothing, if all was returned).
      const uncredited = t.partialRefund?.uncredited !== undefined;
      const credited = after.creditedPaisa ?? 0;
      const booked = uncredited
        ? `${rs(credited)} credited (the rest)`
        : `${rs(reversed)} taken back`;
      const short = returnedPaisa - reversed;
      return {
        action: "topup_refund",
        detail: `${paymentId} (${t.gateway}) of user ${t.userId}: ${rs(returnedPaisa)} returned by ${t.gateway}, ${booked}`,
        done: uncredited
          ? `Credited ${rs(credited)}, the rest of the payment after the ${rs(returnedPaisa)} ${t.gateway} returned. The customer's notice is on its way to the chat.`
          : `Took back ${rs(reversed)} of the ${rs(returnedPaisa)} ${t.gateway} returned${short > 0 ? `; the balance was short by ${rs(short)}: recover it by hand` : ""}. The customer's notice is on its way to the chat.`,
        balances: true,
      };
    },
  );
}

/** The rejection of a partial refund seen before any credit: nothing credited, once; audited. */
function rejectRefund(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  topUps: TopUpsPort,
  paymentId: string,
) {
  const adminId = c.get("viewer").userId;
  const run = async (): Promise<Decided> => {
    const r = await topUps.rejectRefund(paymentId, adminId);
    return r.ok ? r : { ok: false, text: REFUND_REFUSED[r.reason] ?? NOTHING_DONE, status: 409 };
  };
  return auditedDecision(
    c,
    parts,
    topUps,
    paymentId,
    `${REFUND_TITLE}: ${paymentId}`,
    run,
    (t) => ({
      action: "topup_reject",
      detail: `${paymentId} (${t.gateway}) of user ${t.userId} rejected: refunded in part before any credit, nothing credited`,
      done: `Rejected: nothing credited. Refund what ${t.gateway} kept in its merchant dashboard; the customer's notice is on its way to the chat.`,
      balances: false,
    }),
  );
}

export function topUpRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;

  app.get("/topups", ...admin, async (c) => {
    const topUps = topUpsOf(parts);
    if (!topUps) return notConfigured(c, c.get("viewer"), TITLE);
    const held = await topUps.held(LIST_MAX);
    const partial = await topUps.partialRefunds(LIST_MAX);
    const past = await topUps.pastWatch(LIST_MAX);
    const body = html`${unreadableList(past.unreadable ?? [])}${partialList(partial)}${heldList(held)}${pastWatchList(past.at, past.topUps)}`;
    return c.html(page(TITLE, body, c.get("viewer")));
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
    const typed = field(body, "amount");
    const q = refundSchema.safeParse({ id: field(body, "id"), amount: typed });
    if (!q.success) {
      const id = refundSchema.shape.id.safeParse(field(body, "id"));
      // Only the amount is wrong: its form again, with the reason (review s32-backoffice, 4).
      if (id.success)
        return refundPage(c, parts, topUps, id.data, { why: reasons(q.error), typed });
      return c.html(page(TITLE, outcome(reasons(q.error), "error", back), c.get("viewer")), 400);
    }
    return enterRefund(c, parts, topUps, q.data.id, q.data.amount, typed);
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
    const shown = field(body, "shown");
    const q = decidePostSchema.safeParse({
      id: field(body, "id"),
      d: field(body, "d"),
      ...(shown === "" ? {} : { shown }),
    });
    if (!q.success) {
      return c.html(page(TITLE, outcome(reasons(q.error), "error", back), c.get("viewer")), 400);
    }
    return decide(c, parts, topUps, q.data.id, q.data.d, q.data.shown);
  });
}
