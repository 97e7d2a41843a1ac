import type { Hono } from "hono";
import { html } from "hono/html";
import { z } from "zod";
import { phoneFromTyped, statementOf, statementToCsv } from "../../accounts/index.ts";
import { journalRangeSchema } from "../../http/journal-range.ts";
import type { Balance, LedgerStore } from "../../ledger/index.ts";
import { isFinal } from "../../orders/index.ts";
import { allow, audit, authenticate } from "../auth.ts";
import type { PersonRole } from "../deps.ts";
import {
  balanceFacts,
  type Fragment,
  facts,
  idLabel,
  messengerOf,
  notice,
  page,
  path,
  rs,
  table,
  time,
} from "../html.ts";
import type { DashboardContext, DashboardEnv, DashboardParts } from "../parts.ts";
import { customerList } from "./list.ts";
import type { DashboardPeople } from "./port.ts";
import {
  accountOf,
  blockText,
  personPath,
  phoneText,
  statementView,
  userIdSchema,
} from "./view.ts";

/**
 * Customers and agents for admins (issue 29): a lookup by Telegram id or phone; a person's page
 * with their role, registration (phone, name, when, channel, language), block state, balance, the
 * holds still open and their statement for a date range, with the statement as CSV (recorded in
 * the audit log like the journal's export). Blocking is in block.ts; the list of all in list.ts.
 */

const DAY_MS = 86_400_000;
const OPEN_ORDERS_READ = 50;

/** The lookup: by Telegram user id or by the phone they registered. */
const lookupSchema = z.discriminatedUnion("by", [
  z.object({ by: z.literal("id"), q: userIdSchema }),
  z.object({ by: z.literal("phone"), q: z.string().trim().min(1).max(30) }),
]);

function lookupForm(by = "phone", q = ""): Fragment {
  const opt = (v: string, label: string) =>
    html`<option value="${v}"${by === v ? html` selected` : ""}>${label}</option>`;
  return html`<form method="get" action="${path("/customers")}">
<label>Find by <select name="by">${opt("phone", "phone")}${opt("id", "Telegram id")}</select></label>
<label>Value <input name="q" value="${q}" maxlength="30" required></label>
<button type="submit">Open</button>
</form>`;
}

async function blockedList(people: DashboardPeople): Promise<Fragment> {
  const blocks = await people.blocked.list(200);
  const rows = blocks.map((b) => [
    html`<a href="${personPath(b.userId)}">${b.userId}</a> (${messengerOf(b.userId)})`,
    time(b.at),
    String(b.by),
    b.reason,
  ]);
  return html`<h2>Blocked</h2>${table(["Id", "Since", "By", "Reason"], rows)}`;
}

async function lookup(c: DashboardContext, parts: DashboardParts): Promise<Response> {
  const viewer = c.get("viewer");
  const people = parts.deps.people;
  const given = { by: c.req.query("by") ?? "", q: c.req.query("q") ?? "" };
  const again = (why: string, status: 400 | 404) =>
    c.html(
      page(
        "Customers and agents",
        html`${notice(why, "error")}${lookupForm(given.by.slice(0, 10), given.q.slice(0, 30))}`,
        viewer,
      ),
      status,
    );
  const parsed = lookupSchema.safeParse(given);
  if (!parsed.success) {
    const why =
      given.by !== "id" && given.by !== "phone"
        ? "Choose phone or Telegram id."
        : given.by === "id"
          ? "A Telegram id is a positive number."
          : "Give a phone number.";
    return again(why, 400);
  }
  if (parsed.data.by === "id") return c.redirect(personPath(parsed.data.q), 303);
  const typed = phoneFromTyped(parsed.data.q);
  if (!typed.ok) return again("Not a phone number (e.g. 9841234567 or +91 9876543210).", 400);
  const userId = await people.userByPhone(typed.phone);
  if (userId === null) return again(`Nobody registered with ${phoneText(typed.phone)}.`, 404);
  return c.redirect(personPath(userId), 303);
}

async function openHolds(
  people: DashboardPeople,
  ledger: LedgerStore,
  userId: number,
  balance: Balance,
): Promise<Fragment> {
  const orders = await people.ordersOf(userId, OPEN_ORDERS_READ);
  const rows: Array<Array<string | Fragment>> = [];
  let listed = 0;
  for (const o of orders) {
    if (isFinal(o.status) || !o.holdId) continue;
    const p = await ledger.pendingOf(o.holdId);
    if (p?.state !== "pending" || p.hold.debit !== balance.account) continue;
    listed += p.hold.amountPaisa;
    rows.push([
      html`<a href="${path(`/orders?ref=${o.reference}`)}">${o.reference}</a>`,
      o.status,
      html`<span class="amount">${rs(p.hold.amountPaisa)}</span>`,
      time(p.hold.at),
    ]);
  }
  const rest =
    balance.heldPaisa > listed
      ? notice(`${rs(balance.heldPaisa - listed)} more is held for older orders not listed here.`)
      : "";
  return html`<h2>Open holds</h2>${table(["Order", "Status", "Held", "Since"], rows)}${rest}`;
}

async function registration(people: DashboardPeople, userId: number, role: PersonRole) {
  const [phone, profile, locale, block] = await Promise.all([
    people.phoneOf(userId),
    people.profileOf(userId),
    people.localeOf(userId),
    people.blocked.get(userId),
  ]);
  const action =
    role !== "customer"
      ? html`<p class="empty">Agents and admins are not blocked here: remove them from AGENT_IDS or
ADMIN_IDS (their back-office sessions end at once).</p>`
      : block
        ? html`<p><a href="${personPath(userId, "/unblock")}">Unblock…</a></p>`
        : html`<p><a href="${personPath(userId, "/block")}">Block…</a></p>`;
  return html`${facts([
    [idLabel(userId), String(userId)],
    ["Role", role],
    ["Channel", profile?.channel === "telegram" || !profile ? "Telegram" : profile.channel],
    ["Phone", phoneText(phone)],
    ["Name", profile?.name || "—"],
    ["Username", profile?.username ? `@${profile.username}` : "—"],
    [
      "Registered",
      profile ? time(profile.firstAt) : phone ? "before registration times were kept" : "—",
    ],
    ["Latest contact share", profile ? time(profile.at) : "—"],
    ["Language", locale ?? "—"],
    ["Blocked", blockText(block)],
  ])}${action}`;
}

/** The statement's range: both given (parsed), or neither (the last 30 UTC days). */
function rangeOf(c: DashboardContext, now: number) {
  const from = c.req.query("from");
  const to = c.req.query("to");
  if (from === undefined && to === undefined) {
    const end = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
    return { success: true as const, data: { from: end - 30 * DAY_MS, to: end } };
  }
  return journalRangeSchema.safeParse({ from: from ?? "", to: to ?? "" });
}

/** A range end as the address gives it back: the date at UTC midnight, else the ISO time. */
const day = (ms: number) => {
  const iso = new Date(ms).toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
};

function rangeForm(userId: number, from: string, to: string): Fragment {
  return html`<form method="get" action="${personPath(userId)}">
<label>From <input type="date" name="from" value="${from}" required></label>
<label>To (not included) <input type="date" name="to" value="${to}" required></label>
<button type="submit">Show</button>
</form>`;
}

async function personPage(c: DashboardContext, parts: DashboardParts): Promise<Response> {
  const viewer = c.get("viewer");
  const { people, ledger } = parts.deps;
  const id = userIdSchema.safeParse(c.req.param("id"));
  if (!id.success) {
    const body = html`${notice("A Telegram id is a positive number.", "error")}${lookupForm("id")}`;
    return c.html(page("Customers and agents", body, viewer), 400);
  }
  const userId = id.data;
  const role = parts.deps.roleOf(userId);
  const title = `${role === "customer" ? "Customer" : role === "agent" ? "Agent" : "Admin"} ${userId}`;
  const range = rangeOf(c, parts.deps.now());
  if (!range.success) {
    const why = issues(range.error);
    const form = rangeForm(
      userId,
      (c.req.query("from") ?? "").slice(0, 30),
      (c.req.query("to") ?? "").slice(0, 30),
    );
    return c.html(page(title, html`${notice(why, "error")}${form}`, viewer), 400);
  }
  const acc = accountOf(userId, role);
  const balance = await ledger.balance(acc);
  const statement = await statementOf(ledger, acc, range.data);
  const [from, to] = [day(range.data.from), day(range.data.to)];
  const csv = personPath(
    userId,
    `/statement.csv?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  );
  const move =
    role === "customer"
      ? html`<p><a href="${personPath(userId, "/move")}">Move the whole balance to another customer…</a></p>`
      : "";
  const body = html`${await registration(people, userId, role)}
<h2>Money (${acc})</h2>${facts(balanceFacts(balance))}${move}
${await openHolds(people, ledger, userId, balance)}
<h2>Statement ${from} to ${to} (UTC, the end not included)</h2>
${rangeForm(userId, from, to)}<p><a href="${csv}">Download the statement as CSV</a></p>
${statementView(statement)}`;
  return c.html(page(title, body, viewer));
}

const issues = (e: z.ZodError) =>
  e.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");

async function statementCsv(c: DashboardContext, parts: DashboardParts): Promise<Response> {
  const viewer = c.get("viewer");
  const id = userIdSchema.safeParse(c.req.param("id"));
  const range = journalRangeSchema.safeParse({
    from: c.req.query("from") ?? "",
    to: c.req.query("to") ?? "",
  });
  if (!id.success) {
    const why = notice("A Telegram id is a positive number.", "error");
    return c.html(page("Statement as CSV", why, viewer), 400);
  }
  if (!range.success) {
    return c.html(page("Statement as CSV", notice(issues(range.error), "error"), viewer), 400);
  }
  const acc = accountOf(id.data, parts.deps.roleOf(id.data));
  const s = await statementOf(parts.deps.ledger, acc, range.data);
  if (!s.complete) {
    return c.html(page("Statement as CSV", statementView(s), viewer), 400);
  }
  const span = `${day(range.data.from)}..${day(range.data.to)}`;
  await audit(parts, c, viewer, "export", `statement ${acc} ${span}`);
  return c.body(statementToCsv(s), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="statement-${acc.replace(":", "-")}-${new Date(range.data.from).toISOString().slice(0, 10)}.csv"`,
  });
}

export function customerRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  const admin = [authenticate(parts), allow("admin")] as const;
  app.get("/customers", ...admin, async (c) => {
    if (c.req.query("q") !== undefined || c.req.query("by") !== undefined) return lookup(c, parts);
    const list = await customerList(c, parts);
    if (!list.ok) {
      const body = html`${notice(list.why, "error")}${lookupForm()}`;
      return c.html(page("Customers and agents", body, c.get("viewer")), 400);
    }
    const body = html`${lookupForm()}${await blockedList(parts.deps.people)}${list.body}`;
    return c.html(page("Customers and agents", body, c.get("viewer")));
  });
  app.get("/customers/:id", ...admin, (c) => personPage(c, parts));
  app.get("/customers/:id/statement.csv", ...admin, (c) => statementCsv(c, parts));
}
