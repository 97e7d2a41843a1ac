import type { Hono } from "hono";
import { html } from "hono/html";
import { z } from "zod";
import { chartSvg, dailySeries } from "../actions/chart.ts";
import { reasons } from "../actions/common.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, notice, page, path, rs, table } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/** The float and daily sales over time (admins): inline SVG drawn on the server, and the table. */

const TITLE = "Float and daily sales";

const daysSchema = z.object({
  days: z
    .string()
    .regex(/^\d{1,2}$/, "a number of days, 1 to 90")
    .default("30")
    .transform(Number)
    .refine((d) => d >= 1 && d <= 90, "a number of days, 1 to 90"),
});

const daysForm = (
  days: number | string,
): Fragment => html`<form method="get" action="${path("/books/chart")}">
<label>Last <input name="days" value="${days}" inputmode="numeric" maxlength="2" size="3"> days</label>
<button type="submit">Show</button></form>`;

export function chartRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/books/chart", authenticate(parts), allow("admin"), async (c) => {
    const viewer = c.get("viewer");
    const given = c.req.query("days");
    const q = daysSchema.safeParse({ days: given || undefined });
    if (!q.success) {
      const body = html`${notice(reasons(q.error), "error")}${daysForm((given ?? "").slice(0, 2))}`;
      return c.html(page(TITLE, body, viewer), 400);
    }
    const { points, complete } = await dailySeries(
      parts.deps.ledger,
      parts.deps.now(),
      q.data.days,
    );
    const rows = [...points]
      .reverse()
      .map((p) => [new Date(p.day).toISOString().slice(0, 10), rs(p.salesPaisa), rs(p.floatPaisa)]);
    const partial = complete
      ? ""
      : notice(
          "Only the first 50,000 journal entries of the range were read: fewer days show all.",
          "error",
        );
    const body = html`${daysForm(q.data.days)}${partial}<figure>${chartSvg(points)}
<figcaption>Bars: sales of the day (orders that succeeded). Line: the float in the books at the end of the day. Days in UTC.</figcaption></figure>
${table(["Day", "Sales", "Float at the end of the day"], rows)}`;
    return c.html(page(TITLE, body, viewer));
  });
}
