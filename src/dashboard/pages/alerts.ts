import type { Hono } from "hono";
import { html } from "hono/html";
import { type Ack, type Alert, ackStore, alertIdSchema, currentAlerts } from "../actions/alerts.ts";
import {
  actionsOf,
  field,
  formOf,
  notConfigured,
  outcome,
  reasons,
  recordAction,
} from "../actions/common.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, page, path, table, time } from "../html.ts";
import { dashboardKeys } from "../keys.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * The alerts page (admins): what needs attention now (actions/alerts.ts), open or acknowledged.
 * Acknowledging is a form POST that records who and when, once (a second POST changes nothing),
 * and is audited. It moves no money and silences nothing else: the chat's alerts go out as before.
 */

const TITLE = "Alerts";
const KIND: Record<Alert["kind"], string> = {
  low_float: "Low float",
  float_unknown: "Float unknown",
  drift: "Drift",
  unbalanced: "Books",
  stuck_order: "Stuck order",
  gateway_mismatch: "Gateway mismatch",
  unmatched_event: "Unmatched event",
  books_unreadable: "Books",
};

const what = (a: Alert): Fragment =>
  a.href ? html`${a.text} <a href="${path(a.href)}">Look</a>` : html`${a.text}`;

const ackButton = (
  id: string,
): Fragment => html`<form method="post" action="${path("/alerts/ack")}">
<input type="hidden" name="id" value="${id}"><button type="submit">Acknowledge</button></form>`;

function alertsView(rows: ReadonlyArray<{ a: Alert; ack: Ack | null }>): Fragment {
  const open = rows.filter((r) => !r.ack);
  const acked = rows.filter((r) => r.ack);
  return html`<h2>Open (${open.length})</h2>
${table(
  ["Kind", "Since", "What", ""],
  open.map(({ a }) => [KIND[a.kind], time(a.since), what(a), ackButton(a.id)]),
)}
<h2>Acknowledged (${acked.length})</h2>
${table(
  ["Kind", "Since", "What", "Acknowledged"],
  acked.map(({ a, ack }) => [
    KIND[a.kind],
    time(a.since),
    what(a),
    `${ack?.role} ${ack?.by}, ${time(ack?.at)}`,
  ]),
)}`;
}

export function alertRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;
  const acks = ackStore(parts.deps.kv, dashboardKeys(parts.deps.prefix));

  app.get("/alerts", ...admin, async (c) => {
    const viewer = c.get("viewer");
    const actions = actionsOf(parts);
    if (!actions) return notConfigured(c, viewer, TITLE);
    const alerts = await currentAlerts(actions, parts.deps.books, parts.deps.now());
    await acks.clearCleared(alerts);
    const rows = [];
    for (const a of alerts) rows.push({ a, ack: await acks.get(a.id) });
    return c.html(page(TITLE, alertsView(rows), viewer));
  });

  app.post("/alerts/ack", ...admin, async (c) => {
    const viewer = c.get("viewer");
    const actions = actionsOf(parts);
    if (!actions) return notConfigured(c, viewer, TITLE);
    const back = html`<a href="${path("/alerts")}">Back to the alerts</a>`;
    const id = alertIdSchema.safeParse(field(await formOf(c), "id"));
    if (!id.success) {
      return c.html(page(TITLE, outcome(`id: ${reasons(id.error)}`, "error", back), viewer), 400);
    }
    const alerts = await currentAlerts(actions, parts.deps.books, parts.deps.now());
    const alert = alerts.find((a) => a.id === id.data);
    if (!alert) {
      const text = "No such alert is open now (it may have cleared).";
      return c.html(page(TITLE, outcome(text, "error", back), viewer), 404);
    }
    const at = parts.deps.now();
    if (await acks.acknowledge(alert.id, { by: viewer.userId, role: viewer.role, at })) {
      const detail = `${alert.id}: ${alert.text}`;
      const after = { state: "acknowledged", at };
      await recordAction(parts, c, viewer, "acknowledge", detail, { state: "open" }, after);
    }
    return c.redirect(path("/alerts"), 303);
  });
}
