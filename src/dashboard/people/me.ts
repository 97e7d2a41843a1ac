import type { Hono } from "hono";
import { html } from "hono/html";
import { z } from "zod";
import { type Statement, type StatementLine, statementOf } from "../../accounts/index.ts";
import { account } from "../../ledger/index.ts";
import { nepalDay } from "../../nepal-time.ts";
import { allow, authenticate } from "../auth.ts";
import {
  availableText,
  balanceFacts,
  type Fragment,
  facts,
  idWithChannel,
  notice,
  page,
  path,
  rs,
  table,
} from "../html.ts";
import type { DashboardContext, DashboardEnv, DashboardParts } from "../parts.ts";
import type { DashboardPeople } from "./port.ts";
import { nepalDayBegins, nepalTime, phoneText, statementView } from "./view.ts";

/**
 * An agent's own day (issue 29): their float now, and for a Nepal day (today unless another is
 * chosen, as /balance counts "today") the day's statement with its sums: the cash-ins they made
 * (with each customer's phone), the credits they received, the reversals either way. Read only.
 */

const DAY_MS = 86_400_000;

const daySchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a day as YYYY-MM-DD")
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
      new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: "not a real day",
    },
  )
  .refine((d) => d >= "2000-01-01", { message: "too early" });

function dayForm(day: string, today: string): Fragment {
  return html`<form method="get" action="${path("/me")}">
<label>Day (Nepal) <input type="date" name="day" value="${day}" max="${today}" required></label>
<button type="submit">Show</button>
<a href="${path("/me")}">Today</a>
</form>`;
}

interface DaySums {
  cashIns: StatementLine[];
  credits: StatementLine[];
  reversalsIn: StatementLine[];
  reversalsOut: StatementLine[];
}

function sumsOf(lines: readonly StatementLine[]): DaySums {
  const s: DaySums = { cashIns: [], credits: [], reversalsIn: [], reversalsOut: [] };
  for (const l of lines) {
    const k = l.entry.kind;
    if (k === "cash_in" && l.postedChangePaisa < 0) s.cashIns.push(l);
    else if ((k === "credit" || k === "demo_credit") && l.postedChangePaisa > 0) s.credits.push(l);
    else if (k === "reversal" && l.postedChangePaisa > 0) s.reversalsIn.push(l);
    else if (k === "reversal" && l.postedChangePaisa < 0) s.reversalsOut.push(l);
  }
  return s;
}

const total = (ls: readonly StatementLine[]) =>
  rs(ls.reduce((sum, l) => sum + Math.abs(l.postedChangePaisa), 0));

async function cashInsTable(people: DashboardPeople, cashIns: StatementLine[]): Promise<Fragment> {
  const rows = await Promise.all(
    cashIns.map(async (l) => {
      const customer = Number(l.entry.credit.split(":")[1]);
      const phone = Number.isSafeInteger(customer) ? await people.phoneOf(customer) : null;
      return [
        nepalTime(l.entry.at),
        phone ? phoneText(phone) : l.entry.credit,
        Number.isSafeInteger(customer) ? idWithChannel(customer) : "—",
        html`<span class="amount">${rs(l.entry.amountPaisa)}</span>`,
        l.entry.id,
      ];
    }),
  );
  return table(["Time", "Customer", "Id", "Amount", "Transfer"], rows);
}

/** A float at a day's edge: what was available, and what was held apart (never the posted sum). */
const edgeText = (posted: number, held: number): string =>
  availableText({ availablePaisa: posted - held, heldPaisa: held });

async function daySummary(people: DashboardPeople, s: Statement): Promise<Fragment> {
  if (!s.complete) return statementView(s, nepalTime);
  const sums = sumsOf(s.lines);
  return html`${facts([
    ["Float at the day's start", edgeText(s.openingPostedPaisa, s.openingHeldPaisa)],
    ["Float at the day's end (or now)", edgeText(s.closingPostedPaisa, s.closingHeldPaisa)],
    ["Cash-ins you made", `${sums.cashIns.length}, ${total(sums.cashIns)}`],
    ["Credits you received", `${sums.credits.length}, ${total(sums.credits)}`],
    ["Reversals given back to you", `${sums.reversalsIn.length}, ${total(sums.reversalsIn)}`],
    ["Reversals taken from you", `${sums.reversalsOut.length}, ${total(sums.reversalsOut)}`],
  ])}
<h2>Your cash-ins</h2>${await cashInsTable(people, sums.cashIns)}
<h2>The day's statement</h2>${statementView(s, nepalTime)}`;
}

async function mePage(c: DashboardContext, parts: DashboardParts): Promise<Response> {
  const viewer = c.get("viewer");
  const now = parts.deps.now();
  const today = nepalDay(now);
  const given = c.req.query("day");
  const parsed = daySchema.safeParse(given ?? today);
  if (!parsed.success) {
    const why = `day: ${parsed.error.issues.map((i) => i.message).join("; ")}`;
    const body = html`${notice(why, "error")}${dayForm(today, today)}`;
    return c.html(page("My day", body, viewer), 400);
  }
  const day = parsed.data;
  const acc = account.agent(viewer.userId);
  const from = nepalDayBegins(day);
  const [balance, statement] = await Promise.all([
    parts.deps.ledger.balance(acc),
    statementOf(parts.deps.ledger, acc, { from, to: from + DAY_MS }),
  ]);
  const body = html`<h2>Your float now</h2>${facts(balanceFacts(balance))}
<h2>${day === today ? `Today, ${day}` : day} (Nepal time)</h2>${dayForm(day, today)}
${day > today ? notice("That day has not come yet.") : await daySummary(parts.deps.people, statement)}`;
  return c.html(page("My day", body, viewer));
}

export function meRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  app.get("/me", authenticate(parts), allow("agent"), (c) => mePage(c, parts));
}
