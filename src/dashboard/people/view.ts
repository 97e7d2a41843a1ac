import { html } from "hono/html";
import { z } from "zod";
import {
  type Block,
  formatPhone,
  type Statement,
  type StatementLine,
} from "../../accounts/index.ts";
import { type AccountId, account } from "../../ledger/index.ts";
import { toDecimalString } from "../../money.ts";
import { NEPAL_UTC_OFFSET_MINUTES } from "../../nepal-time.ts";
import type { PersonRole } from "../deps.ts";
import { type Fragment, facts, path, rs, table, time } from "../html.ts";

/**
 * What the customers and agents pages share: the id in the address, the person's ledger account,
 * a statement as a table, a block as a line of text (the audit log's before and after).
 */

/** A Telegram user id as the address gives it: 1 to 16 digits, a safe integer. */
export const userIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, "a Telegram user id is a positive number")
  .transform(Number)
  .refine(Number.isSafeInteger, "too large for a Telegram user id");

/** The ledger account the page is about: an agent's float, else the customer's balance. */
export const accountOf = (userId: number, role: PersonRole): AccountId =>
  role === "agent" ? account.agent(userId) : account.customer(userId);

export const personPath = (userId: number, rest = "") => path(`/customers/${userId}${rest}`);

/** Money with its sign: "+Rs 10.00", "-Rs 5.00", "0". */
export const change = (paisa: number): string =>
  paisa === 0 ? "0" : `${paisa > 0 ? "+" : "-"}Rs ${toDecimalString(Math.abs(paisa))}`;

/** A block as text, for the page and the audit log's before/after. */
export const blockText = (b: Block | null): string =>
  b ? `blocked since ${time(b.at)} by ${b.by}: ${b.reason}` : "not blocked";

const OFFSET_MS = NEPAL_UTC_OFFSET_MINUTES * 60_000;
/** A time as Nepal's clock reads it (the agents' day). */
export const nepalTime = (ms: number): string =>
  `${new Date(ms + OFFSET_MS).toISOString().slice(0, 16).replace("T", " ")} NPT`;

/** The instant a Nepal calendar day ("2026-04-01") began. */
export const nepalDayBegins = (day: string): number => Date.parse(`${day}T00:00:00Z`) - OFFSET_MS;

/** The most lines a page shows; the CSV has them all. */
export const SHOWN_LINES = 1_000;

function lineRow(l: StatementLine, at: (ms: number) => string): Array<string | Fragment> {
  const e = l.entry;
  const order = e.kind === "hold" || e.kind === "post" || e.kind === "void";
  const ref = order ? (e.pendingId ?? e.id).replace(/^order:/, "") : undefined;
  const reference = ref
    ? html`<a href="${path(`/orders?ref=${encodeURIComponent(ref)}`)}">${ref}</a>`
    : (e.reference ?? "");
  return [
    at(e.at),
    e.kind,
    e.id,
    reference,
    html`<span class="amount">${change(l.postedChangePaisa)}</span>`,
    html`<span class="amount">${rs(l.postedPaisa)}</span>`,
    html`<span class="amount">${l.heldChangePaisa ? change(l.heldChangePaisa) : ""}</span>`,
    html`<span class="amount">${rs(l.heldPaisa)}</span>`,
    html`<span class="amount">${rs(l.postedPaisa - l.heldPaisa)}</span>`,
    e.reason ?? "",
  ];
}

const edgeText = (posted: number, held: number): string =>
  `available ${rs(posted - held)}, held for orders ${rs(held)} (posted ${rs(posted)})`;

/**
 * A statement's balances at its start and close, and its lines (at most SHOWN_LINES). The posted
 * balance still counts money held for orders in flight, so it is never called the balance: each is
 * stated as available (posted − held), held, and posted (both together).
 */
export function statementView(s: Statement, at: (ms: number) => string = time): Fragment {
  if (!s.complete) {
    return html`<p class="notice error" role="alert">The journal since ${time(s.from)} is too long to
read here (${s.readEntries} entries read): choose a later start.</p>`;
  }
  const shown = s.lines.slice(0, SHOWN_LINES);
  const more =
    s.lines.length > shown.length
      ? html`<p class="empty">The first ${shown.length} of ${s.lines.length} entries; the CSV has them all.</p>`
      : "";
  return html`${facts([
    ["At the start", edgeText(s.openingPostedPaisa, s.openingHeldPaisa)],
    ["At the close", edgeText(s.closingPostedPaisa, s.closingHeldPaisa)],
    ["Entries", s.lines.length],
  ])}${table(
    [
      "Time",
      "Kind",
      "Transfer",
      "Order / reference",
      "Change",
      "Posted (incl. held)",
      "Held change",
      "Held",
      "Available",
      "Reason",
    ],
    shown.map((l) => lineRow(l, at)),
  )}${more}`;
}

export const phoneText = (p: Parameters<typeof formatPhone>[0] | null): string =>
  p ? formatPhone(p) : "not registered";
