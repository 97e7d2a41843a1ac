import type { Hono } from "hono";
import { html } from "hono/html";
import { journalRangeSchema } from "../../http/journal-range.ts";
import { auditToCsv } from "../actions/audit-csv.ts";
import { reasons } from "../actions/common.ts";
import { allow, audit, authenticate } from "../auth.ts";
import { type Fragment, notice, page, path } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * The audit log as CSV for a date range (admins): the range is parsed with the journal export's
 * zod schema (ISO dates or times, `to` excluded, at most 400 days); a bad one gets the form again
 * with the reason. The export itself is audited, as the journal's is. The lists are read a page at
 * a time from their newest entry down to the range's start (audit.ts `between`), not whole.
 */

const TITLE = "The audit log as CSV";

function rangeForm(from = "", to = ""): Fragment {
  return html`<form method="get" action="${path("/audit.csv")}">
<label>From <input type="date" name="from" value="${from}" required></label>
<label>To (not included) <input type="date" name="to" value="${to}" required></label>
<button type="submit">Download CSV</button>
</form>`;
}

export function auditExportRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;

  app.get("/audit/export", ...admin, (c) => c.html(page(TITLE, rangeForm(), c.get("viewer"))));

  app.get("/audit.csv", ...admin, async (c) => {
    const viewer = c.get("viewer");
    const given = { from: c.req.query("from") ?? "", to: c.req.query("to") ?? "" };
    const range = journalRangeSchema.safeParse(given);
    if (!range.success) {
      const form = rangeForm(given.from.slice(0, 30), given.to.slice(0, 30));
      return c.html(
        page(TITLE, html`${notice(reasons(range.error), "error")}${form}`, viewer),
        400,
      );
    }
    const csv = auditToCsv(await parts.audit.between(range.data), range.data);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const span = `${day(range.data.from)}..${day(range.data.to)}`;
    await audit(parts, c, viewer, "export", `audit ${span}`);
    return c.body(csv, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${day(range.data.from)}.csv"`,
    });
  });
}
