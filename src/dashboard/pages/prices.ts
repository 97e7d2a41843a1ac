import type { Hono } from "hono";
import { html } from "hono/html";
import { type Adjustment, type PriceRule, type PriceSchedule, quote } from "../../pricing/index.ts";
import { actionsOf, notConfigured } from "../actions/common.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, page, rs, table } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * The price schedule in force (admins, read only): the default fee and discount, each category's
 * and each operator's, as read at start from PRICE_SCHEDULE_FILE (no file: the face amount, no
 * fee, no discount). A worked example per row shows what a Rs 100 order costs under it, computed
 * by the same `quote` the chat uses.
 */

const TITLE = "Price schedule";
const EXAMPLE_PAISA = 10_000;

function adjustment(a: Adjustment | undefined): string {
  if (!a) return "—";
  if (a.kind === "flat") return rs(a.paisa);
  const pct = `${Math.floor(a.bps / 100)}${a.bps % 100 ? `.${String(a.bps % 100).padStart(2, "0")}` : ""}%`;
  const bounds = [
    a.minPaisa === undefined ? "" : `at least ${rs(a.minPaisa)}`,
    a.maxPaisa === undefined ? "" : `at most ${rs(a.maxPaisa)}`,
  ].filter(Boolean);
  return bounds.length ? `${pct} (${bounds.join(", ")})` : pct;
}

/** Rs 100 of this category (and operator) under the whole schedule, as the chat would quote it. */
function example(s: PriceSchedule, category: string, operatorId: number): string {
  const q = quote(s, { category, operatorId, amountPaisa: EXAMPLE_PAISA });
  return `${rs(q.totalPaisa)} (fee ${rs(q.feePaisa)}, discount ${rs(q.discountPaisa)})`;
}

function scheduleView(s: PriceSchedule): Fragment {
  const row = (what: string, r: PriceRule, ex: string) => [
    what,
    adjustment(r.fee),
    adjustment(r.discount),
    ex,
  ];
  const rows = [row("Default (every category)", s.default, "—")];
  for (const [category, rule] of Object.entries(s.categories)) {
    if (!rule) continue;
    rows.push(row(category, rule, example(s, category, 0)));
    for (const [op, opRule] of Object.entries(rule.operators)) {
      rows.push(row(`${category}, operator ${op}`, opRule, example(s, category, Number(op))));
    }
  }
  return html`<p>Read at start from PRICE_SCHEDULE_FILE; a change takes effect at the next start.
A level that leaves the fee or the discount out takes it from the level above (operator, then
category, then default).</p>
${table(["Applies to", "Fee", "Discount", `A ${rs(EXAMPLE_PAISA)} order costs`], rows)}`;
}

export function priceRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/prices", authenticate(parts), allow("admin"), (c) => {
    const actions = actionsOf(parts);
    if (!actions) return notConfigured(c, c.get("viewer"), TITLE);
    return c.html(page(TITLE, scheduleView(actions.priceSchedule), c.get("viewer")));
  });
}
