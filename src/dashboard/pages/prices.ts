import type { Hono } from "hono";
import { html } from "hono/html";
import type { Region } from "../../money.ts";
import type { AccessMode } from "../../orders/index.ts";
import { type Adjustment, type PriceRule, type PriceSchedule, quote } from "../../pricing/index.ts";
import { actionsOf, notConfigured } from "../actions/common.ts";
import { allow, authenticate } from "../auth.ts";
import { type Fragment, inRegion, page, table } from "../html.ts";
import type { DashboardEnv, DashboardParts } from "../parts.ts";

/**
 * The price schedule in force (admins, read only): the default fee and discount, each category's
 * and each operator's, as read at start from PRICE_SCHEDULE_FILE (no file: the face amount, no
 * fee, no discount). A worked example per row shows what a 100-rupee order costs under it,
 * computed by the same `quote` the chat uses, in the order's rupees (₹ for India). In staff mode
 * the schedule is shown but said not to apply: the merchant's wallet pays the face amount.
 */

const TITLE = "Price schedule";
const EXAMPLE_PAISA = 10_000;

/** An India order is priced in ₹, its fee and discount too (the balance pays them converted). */
const regionOf = (category: string): Region => (category === "india" ? "in" : "np");

function adjustment(a: Adjustment | undefined, region: Region): string {
  if (!a) return "—";
  if (a.kind === "flat") return inRegion(a.paisa, region);
  const pct = `${Math.floor(a.bps / 100)}${a.bps % 100 ? `.${String(a.bps % 100).padStart(2, "0")}` : ""}%`;
  const bounds = [
    a.minPaisa === undefined ? "" : `at least ${inRegion(a.minPaisa, region)}`,
    a.maxPaisa === undefined ? "" : `at most ${inRegion(a.maxPaisa, region)}`,
  ].filter(Boolean);
  return bounds.length ? `${pct} (${bounds.join(", ")})` : pct;
}

/** 100 rupees of this category (and operator) under the whole schedule, as the chat quotes it. */
function example(s: PriceSchedule, category: string, operatorId: number): string {
  const q = quote(s, { category, operatorId, amountPaisa: EXAMPLE_PAISA });
  const m = (paisa: number) => inRegion(paisa, regionOf(category));
  return `${m(q.totalPaisa)} (fee ${m(q.feePaisa)}, discount ${m(q.discountPaisa)})`;
}

const STAFF_NOTE = html`<p><strong>ACCESS_MODE=staff: this schedule does not apply.</strong> The
merchant's wallet pays every order's face amount; no fee or discount is shown, charged or booked.</p>`;

function scheduleView(s: PriceSchedule, mode: AccessMode): Fragment {
  const staff = mode === "staff";
  const row = (what: string, r: PriceRule, region: Region, ex: string) => [
    what,
    adjustment(r.fee, region),
    adjustment(r.discount, region),
    ...(staff ? [] : [ex]),
  ];
  const rows = [row("Default (every category)", s.default, "np", "—")];
  for (const [category, rule] of Object.entries(s.categories)) {
    if (!rule) continue;
    const region = regionOf(category);
    rows.push(row(category, rule, region, example(s, category, 0)));
    for (const [op, opRule] of Object.entries(rule.operators)) {
      const ex = example(s, category, Number(op));
      rows.push(row(`${category}, operator ${op}`, opRule, region, ex));
    }
  }
  const heads = ["Applies to", "Fee", "Discount", ...(staff ? [] : ["A 100-rupee order costs"])];
  return html`${staff ? STAFF_NOTE : ""}<p>Read at start from PRICE_SCHEDULE_FILE; a change takes
effect at the next start. A level that leaves the fee or the discount out takes it from the level
above (operator, then category, then default). An India order's amount, fee and discount are in ₹
(the default's figures too, for an India order); the balance pays them converted at
INR_TO_NPR_RATE.</p>
${table(heads, rows)}`;
}

export function priceRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/prices", authenticate(parts), allow("admin"), (c) => {
    const actions = actionsOf(parts);
    if (!actions) return notConfigured(c, c.get("viewer"), TITLE);
    const view = scheduleView(actions.priceSchedule, actions.accessMode);
    return c.html(page(TITLE, view, c.get("viewer")));
  });
}
