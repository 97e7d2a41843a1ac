import type { Hono } from "hono";
import { html } from "hono/html";
import { account } from "../../ledger/index.ts";
import type { AuditEntry } from "../audit.ts";
import { allow, authenticate } from "../auth.ts";
import { balanceFacts, type Fragment, facts, orderForm, page, path, table, time } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * The first page after login: the order lookup for everyone, an agent's own float, and for admins
 * the way to the books and the audit log (who logged in and out, and what was exported).
 */

async function agentFloat(parts: DashboardParts, userId: number): Promise<Fragment> {
  const b = await parts.deps.ledger.balance(account.agent(userId));
  return html`<h2>Your float</h2>${facts(balanceFacts(b))}`;
}

const adminLinks = html`<h2>The books</h2>
<p><a href="${path("/books")}">Trial balance and float</a> ·
<a href="${path("/books/journal")}">Journal as CSV</a> ·
<a href="${path("/audit")}">Audit log</a></p>`;

/** A money action's state before and after (h-actions), "account: 100 → 0" per key. */
function changeOf(e: AuditEntry): string {
  if (!e.before && !e.after) return "";
  const keys = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])];
  return keys.map((k) => `${k}: ${e.before?.[k] ?? "—"} → ${e.after?.[k] ?? "—"}`).join("; ");
}

export function homeRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/", authenticate(parts), async (c) => {
    const viewer = c.get("viewer");
    const mine = viewer.role === "agent" ? await agentFloat(parts, viewer.userId) : adminLinks;
    return c.html(page("Back office", html`<h2>Find an order</h2>${orderForm()}${mine}`, viewer));
  });

  app.get("/audit", authenticate(parts), allow("admin"), async (c) => {
    const entries = await parts.audit.list(200);
    const rows = entries.map((e) => [
      time(e.at),
      `${e.role} ${e.userId}`,
      e.action,
      e.detail ?? "",
      e.forwardedFor ? `${e.ip} (for ${e.forwardedFor})` : e.ip,
      e.userAgent,
      changeOf(e),
    ]);
    const body = html`<p><a href="${path("/audit/export")}">Export as CSV</a></p>${table(
      ["Time", "Who", "What", "Detail", "From", "Browser", "Before → after"],
      rows,
    )}`;
    return c.html(page("Audit log", body, c.get("viewer")));
  });
}
