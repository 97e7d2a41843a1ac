import type { Hono } from "hono";
import { html } from "hono/html";
import { z } from "zod";
import {
  CHART_MAX_ENTRIES,
  chartSvg,
  DAY_MS,
  type DayPoint,
  dailySeries,
} from "../actions/chart.ts";
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

/** Which older days are not shown: the read stops at its cap, newest first (actions/chart.ts). */
function leftOut(points: readonly DayPoint[], days: number): Fragment | string {
  if (days === 0) return "";
  const cap = CHART_MAX_ENTRIES.toLocaleString("en");
  const oldest = points[0];
  if (!oldest) {
    return notice(
      `Today alone has more than ${cap} journal entries, more than one drawing reads: no day is shown.`,
      "error",
    );
  }
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const last = day(oldest.day - DAY_MS);
  const first = day(oldest.day - days * DAY_MS);
  const span = days === 1 ? last : `${first} to ${last}`;
  return notice(
    `Left out: ${span} (${days} ${days === 1 ? "day" : "days"}). The days are read newest first, at most ${cap} journal entries, and the read stopped before them. Every day shown was read whole.`,
    "error",
  );
}

export function chartRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/books/chart", authenticate(parts), allow("admin"), async (c) => {
    const viewer = c.get("viewer");
    const given = c.req.query("days");
    const q = daysSchema.safeParse({ days: given || undefined });
    if (!q.success) {
      const body = html`${notice(reasons(q.error), "error")}${daysForm((given ?? "").slice(0, 2))}`;
      return c.html(page(TITLE, body, viewer), 400);
    }
    const { points, leftOutDays } = await dailySeries(
      parts.deps.ledger,
      parts.deps.now(),
      q.data.days,
    );
    const rows = [...points]
      .reverse()
      .map((p) => [new Date(p.day).toISOString().slice(0, 10), rs(p.salesPaisa), rs(p.floatPaisa)]);
    const body = html`${daysForm(q.data.days)}${leftOut(points, leftOutDays)}${
      points.length === 0
        ? ""
        : html`<figure>${chartSvg(points)}
<figcaption>Bars: sales of the day (orders that succeeded). Line: the float in the books at the end of the day. Days in UTC.</figcaption></figure>
${table(["Day", "Sales", "Float at the end of the day"], rows)}`
    }`;
    return c.html(page(TITLE, body, viewer));
  });
}
