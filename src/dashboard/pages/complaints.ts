import type { Context, Hono } from "hono";
import { html } from "hono/html";
import type { Complaint } from "../../complaints/index.ts";
import { account } from "../../ledger/index.ts";
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
import {
  ACTIONS,
  type Act,
  actForm,
  actFormSchema,
  actSchema,
  complaintFacts,
  LIST_MAX,
  openList,
  REFUSED,
  reversedNotice,
} from "../actions/complaints.ts";
import type { ActionDeps } from "../actions/deps.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, facts, notice, POSTED, page, path, rs } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * Complaints from the browser (admins): the open ones with their clocks, a confirm page per
 * action (take, resolve with a refund, resolve, reject), and the POST that runs the complaints
 * service's own operation. Audited with the customer's and sales' balances and the status before
 * and after; a repeated POST finds the complaint closed and books nothing.
 */

const TITLE = "Complaints";
const back = html`<a href="${path("/complaints")}">Back to the complaints</a>`;

type Port = NonNullable<ActionDeps["complaints"]>;

const portOf = (parts: DashboardParts): Port | null => actionsOf(parts)?.complaints ?? null;

const balanceOf = (parts: DashboardParts, c: Complaint) =>
  parts.deps.ledger.balance(account.customer(c.userId));

async function confirmPage(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  port: Port,
  q: { ref: string; a: Act },
  error?: { text: string; given: string },
) {
  const viewer = c.get("viewer");
  const title = `${ACTIONS[q.a]}: ${q.ref}`;
  const found = await port.get(q.ref);
  if (!found) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  const now = parts.deps.now();
  const shown = complaintFacts(found, now, await balanceOf(parts, found));
  if (found.status === "resolved" || found.status === "rejected") {
    const body = html`${notice(`Already ${found.status}: nothing to do.`)}${shown}<p>${back}</p>`;
    return c.html(page(title, body, viewer), 409);
  }
  let refundPaisa: number | null = null;
  let reversed: Fragment = html``;
  if (q.a === "refund") {
    const can = await port.refundableOf(found.reference);
    if (!can.ok) {
      const body = html`${notice(REFUSED[can.code] ?? "No refund.", "error")}${shown}<p>${back}</p>`;
      return c.html(page(title, body, viewer), 409);
    }
    refundPaisa = can.paisa;
    reversed = reversedNotice(can.reversed);
  }
  const form = actForm(found, q.a, refundPaisa, error?.given ?? "");
  const body = html`${error ? notice(error.text, "error") : ""}${shown}${reversed}${form}`;
  return c.html(page(title, body, viewer), error ? 400 : 200);
}

async function act(
  c: Context<DashboardEnv>,
  parts: DashboardParts,
  port: Port,
  f: { ref: string; a: Act; text: string },
) {
  const viewer = c.get("viewer");
  const title = `${ACTIONS[f.a]}: ${f.ref}`;
  const current = await port.get(f.ref);
  if (!current) return c.html(page(title, outcome(REFUSED.unknown!, "error", back), viewer), 404);
  const accounts = [account.customer(current.userId), account.merchant.sales];
  const before: Record<string, number | string> = {
    ...(await postedOf(parts.deps.ledger, accounts)),
    status: current.status,
  };
  let r: Awaited<ReturnType<Port["take"]>>;
  if (f.a === "take") r = await port.take(f.ref, viewer.userId);
  else if (f.a === "reject") r = await port.reject(f.ref, viewer.userId, f.text);
  else if (f.a === "resolve") r = await port.resolve(f.ref, viewer.userId, { text: f.text });
  else {
    const can = await port.refundableOf(f.ref);
    r = can.ok
      ? await port.resolve(f.ref, viewer.userId, { text: f.text, refundPaisa: can.paisa })
      : { ok: false, code: can.code, complaint: current };
  }
  if (!r.ok) {
    const shown =
      "complaint" in r
        ? complaintFacts(r.complaint, parts.deps.now(), await balanceOf(parts, r.complaint))
        : "";
    const body = html`${notice(REFUSED[r.code] ?? "Refused: nothing was done.", "error")}${shown}<p>${back}</p>`;
    return c.html(page(title, body, viewer), 409);
  }
  const refund = r.complaint.closing?.refund;
  const detail = `${f.ref} on order ${current.orderReference}: ${f.a}${refund ? ` ${rs(refund.amountPaisa)} (${refund.transferId})` : ""}${f.text ? `: ${f.text}` : ""}`;
  const after: Record<string, number | string> = {
    ...(await postedAfter(parts, accounts, detail.slice(0, 300))),
    status: r.complaint.status,
  };
  const action =
    f.a === "take" ? "complaint_take" : f.a === "reject" ? "complaint_reject" : "complaint_resolve";
  await recordAction(parts, c, viewer, action, detail.slice(0, 300), before, after);
  const rows = accounts.map(
    (a) => [`${a} (${POSTED})`, `${figure(before[a])} → ${figure(after[a])}`] as [string, string],
  );
  // The notice is queued in the complaint's own step and sent by the notifier, which retries it:
  // neither "told" nor "not delivered" is known yet (review s24-a, N2; review s24-c, 5).
  const onItsWay = "the notice to the customer is on its way.";
  const done = refund
    ? `Resolved with a refund of ${rs(refund.amountPaisa)}; ${onItsWay}`
    : `${r.complaint.status[0]!.toUpperCase()}${r.complaint.status.slice(1)}; ${onItsWay}`;
  const body = html`${notice(done)}${facts([["Status", `${before.status} → ${after.status}`], ...rows])}<p>${back}</p>`;
  return c.html(page(title, body, viewer));
}

export function complaintRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;

  app.get("/complaints", ...admin, async (c) => {
    const port = portOf(parts);
    if (!port) return notConfigured(c, c.get("viewer"), TITLE);
    const open = await port.listOpen(LIST_MAX);
    return c.html(page(TITLE, openList(open, parts.deps.now()), c.get("viewer")));
  });

  app.get("/complaints/act", ...admin, async (c) => {
    const port = portOf(parts);
    if (!port) return notConfigured(c, c.get("viewer"), TITLE);
    const q = actSchema.safeParse({ ref: c.req.query("ref") ?? "", a: c.req.query("a") ?? "" });
    if (!q.success) {
      return c.html(page(TITLE, outcome(reasons(q.error), "error", back), c.get("viewer")), 400);
    }
    return confirmPage(c, parts, port, q.data);
  });

  app.post("/complaints/act", ...admin, async (c) => {
    const port = portOf(parts);
    if (!port) return notConfigured(c, c.get("viewer"), TITLE);
    const body = await formOf(c);
    const given = { ref: field(body, "ref"), a: field(body, "a"), text: field(body, "text") };
    const f = actFormSchema.safeParse(given);
    if (!f.success) {
      const q = actSchema.safeParse(given);
      if (!q.success) {
        return c.html(page(TITLE, outcome(reasons(f.error), "error", back), c.get("viewer")), 400);
      }
      const error = { text: reasons(f.error), given: given.text.slice(0, 200) };
      return confirmPage(c, parts, port, q.data, error);
    }
    return act(c, parts, port, f.data);
  });
}
