import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { type Region, toDecimalString } from "../money.ts";
import { isWhatsAppAccount } from "../whatsapp/chat-ids.ts";
import { DASHBOARD_PATH, type DashboardRole } from "./deps.ts";

/**
 * The pages' frame. Written with hono/html, whose interpolations are escaped (only nested html``
 * fragments pass as they are), so nothing a page shows (an operator's name, a provider's message)
 * can become markup. No script at all: the pages are forms and links, and the CSP allows no
 * inline code.
 */

export type Fragment = HtmlEscapedString | Promise<HtmlEscapedString>;

/** A path in the back office; its home is /dashboard itself. */
export const path = (rest = "/") => (rest === "/" ? DASHBOARD_PATH : `${DASHBOARD_PATH}${rest}`);
export const STYLESHEET = path("/static/dashboard.css");

/** A person named by the chat their id belongs to (a WhatsApp id carries the phone's digits). */
export const personOf = (userId: number) =>
  isWhatsAppAccount(userId) ? `WhatsApp account ${userId}` : `Telegram user ${userId}`;

/** What a person's id is called: a WhatsApp account's (a chat's own or a fresh one) or Telegram's. */
export const idLabel = (userId: number) =>
  isWhatsAppAccount(userId) ? "WhatsApp account id" : "Telegram id";

/** The messenger a person's id is of. */
export const messengerOf = (userId: number) =>
  isWhatsAppAccount(userId) ? "WhatsApp" : "Telegram";

/** An id in a column of both kinds, with its messenger. */
export const idWithChannel = (userId: number) => `${userId} (${messengerOf(userId)})`;

export interface Viewer {
  userId: number;
  role: DashboardRole;
}

export function page(title: string, body: Fragment, viewer?: Viewer): Fragment {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Back office</title>
<link rel="stylesheet" href="${STYLESHEET}">
</head>
<body>
<header>${viewer ? nav(viewer) : html`<strong>Back office</strong>`}</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

function nav(viewer: Viewer): Fragment {
  const admin =
    viewer.role === "admin"
      ? html`<a href="${path("/orders")}">Orders</a> <a href="${path("/books")}">Books</a> <a href="${path("/books/journal")}">Journal</a>
<a href="${path("/audit")}">Audit log</a>
<a href="${path("/alerts")}">Alerts</a> <a href="${path("/cash-ins")}">Cash-ins</a>
<a href="${path("/topups")}">Held top-ups</a> <a href="${path("/prices")}">Prices</a>
<a href="${path("/complaints")}">Complaints</a> <a href="${path("/number-changes")}">Number changes</a>
<a href="${path("/books/chart")}">Chart</a>`
      : "";
  // issue 29 (h-people): customers and agents for admins, an agent's own day.
  const people =
    viewer.role === "admin"
      ? html`<a href="${path("/customers")}">Customers</a>`
      : html`<a href="${path("/me")}">My day</a>`;
  return html`<nav><a href="${path("/")}">Home</a> ${admin} ${people}</nav>
<form class="logout" method="post" action="${path("/logout")}">
<span class="who">${viewer.role} ${viewer.userId}</span>
<button type="submit">Log out</button>
</form>`;
}

/** Rupees with two decimals, as the journal CSV writes them; "—" when unknown. */
export const rs = (paisa: number | null | undefined): string =>
  paisa === null || paisa === undefined ? "—" : `Rs ${toDecimalString(paisa)}`;

/**
 * An order's money in its country's rupees, two decimals: "Rs" for Nepal, "₹" for India, the
 * signs the chat's receipts use (money.ts formatMoney by region); "—" when unknown.
 */
export const inRegion = (paisa: number | null | undefined, region: Region): string =>
  region === "in" && paisa !== null && paisa !== undefined
    ? `₹${toDecimalString(paisa)}`
    : rs(paisa);

/**
 * A customer's or an agent's money in words: what they may spend (posted − held), and what is held
 * for orders in flight apart, when anything is. The posted balance still counts held money, so it
 * is never shown as "the balance"; where it is shown by design (the books) it is named "posted".
 */
export const availableText = (b: { availablePaisa: number; heldPaisa: number }): string =>
  b.heldPaisa > 0
    ? `available ${rs(b.availablePaisa)}, held ${rs(b.heldPaisa)} for orders in flight`
    : `available ${rs(b.availablePaisa)}`;

/** The label of a posted balance where one is shown on purpose (the books, an audit's rows). */
export const POSTED = "posted, incl. held";

/** A balance's facts: available first, then held apart, then the posted sum of both, so named. */
export const balanceFacts = (b: {
  postedPaisa: number;
  heldPaisa: number;
  availablePaisa: number;
}): Array<[string, string]> => [
  ["Available", rs(b.availablePaisa)],
  ["Held for orders in flight", rs(b.heldPaisa)],
  [`Posted (incl. held)`, rs(b.postedPaisa)],
];

export const time = (ms: number | undefined): string =>
  ms === undefined
    ? "—"
    : new Date(ms)
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, " UTC");

/** A two-column table of label and value. */
export function facts(
  rows: ReadonlyArray<readonly [string, string | number | Fragment]>,
): Fragment {
  return html`<table class="facts">${rows.map(
    ([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`,
  )}</table>`;
}

export function table(
  head: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | Fragment>>,
): Fragment {
  if (rows.length === 0) return html`<p class="empty">Nothing yet.</p>`;
  return html`<table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${r.map((v) => html`<td>${v}</td>`)}</tr>`)}</tbody></table>`;
}

export const notice = (text: string, kind: "error" | "info" = "info"): Fragment =>
  html`<p class="notice ${kind}" role="${kind === "error" ? "alert" : "status"}">${text}</p>`;

/** The order lookup form (every role). */
export const orderForm = (
  value = "",
): Fragment => html`<form method="get" action="${path("/orders")}">
<label>Order reference <input name="ref" value="${value}" inputmode="numeric" maxlength="20" required></label>
<button type="submit">Open</button>
</form>`;
