import { html } from "hono/html";
import { z } from "zod";
import { formatPhone, type Receipt } from "../../accounts/index.ts";
import {
  type AccountId,
  type Balance,
  debitsMustNotExceedCredits,
  type JournalEntry,
  type LedgerStore,
} from "../../ledger/index.ts";
import { type Fragment, facts, path, rs, table, time } from "../html.ts";
import type { ActionDeps } from "./deps.ts";

/**
 * Cash-ins (an agent took cash and credited a customer) and agents' credits, as the journal has
 * them, and the reversal's confirm form. A reversal is the accounts service's own: a new transfer
 * `rev-<id>` back, with a reason, booked once however often it is asked for.
 */

/** The kinds an admin reverses here (the accounts service also reverses the playground's demo credits). */
const LISTED = new Set(["cash_in", "credit"]);
const DAY_MS = 86_400_000;
/** How much of the journal one list reads (pages of 1,000): beyond it the list says it is partial. */
const MAX_PAGES = 20;
export const LIST_MAX = 100;

export const daysSchema = z.object({
  days: z
    .string()
    .regex(/^\d{1,2}$/, "a number of days, 1 to 31")
    .default("7")
    .transform(Number)
    .refine((d) => d >= 1 && d <= 31, "a number of days, 1 to 31"),
});

export const transferIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{1,128}$/, "a receipt id: letters, digits and _ . : - (at most 128)");

/** The chat's rule for a reason (conversations/cash/reverse.ts): 3 to 200 characters. */
export const reverseFormSchema = z.object({
  id: transferIdSchema,
  reason: z
    .string()
    .transform((r) => r.trim().replace(/\s+/g, " "))
    .refine((r) => r.length >= 3 && r.length <= 200, "the reason takes 3 to 200 characters"),
});

export const reversalIdOf = (id: string) => `rev-${id}`;

/**
 * Who booked a receipt, in words: "agent 2001", "admin 3001", the playground; not known for a
 * receipt rebuilt from the books (its write was lost after the booking).
 */
export function bookerOf(r: Receipt): string {
  if (r.rebuilt && r.kind !== "cash_in") return "not known (receipt rebuilt from the books)";
  if (r.by === 0) return "the playground";
  return `${r.kind === "cash_in" ? "agent" : "admin"} ${r.by}`;
}

/** The listed kinds booked since `from`, newest first; `complete` false when the read stopped early. */
export async function recentCashIns(
  ledger: LedgerStore,
  from: number,
): Promise<{ entries: JournalEntry[]; complete: boolean }> {
  const found: JournalEntry[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await ledger.journal({ from, ...(after ? { after } : {}), limit: 1_000 });
    for (const e of page.entries) if (LISTED.has(e.kind)) found.push(e);
    if (!page.next) return { entries: found.reverse().slice(0, LIST_MAX), complete: true };
    after = page.next;
  }
  return { entries: found.reverse().slice(0, LIST_MAX), complete: false };
}

export const sinceOf = (now: number, days: number) => now - days * DAY_MS;

/** "customer 5555 (+977 9841234567)", "agent 2001", "merchant:funding". */
export async function partyOf(actions: ActionDeps, acc: AccountId | string): Promise<string> {
  const [kind, id] = acc.split(":");
  if (kind === "customer" && id) {
    const phone = await actions.accounts.phoneOf(Number(id));
    return phone ? `customer ${id} (${formatPhone(phone)})` : `customer ${id}`;
  }
  if (kind === "agent" && id) return `agent ${id}`;
  return acc;
}

export function listView(
  rows: ReadonlyArray<{ e: JournalEntry; from: string; to: string; reversed: Receipt | null }>,
  days: number,
  complete: boolean,
): Fragment {
  const body = rows.map(({ e, from, to, reversed }) => [
    time(e.at),
    e.id,
    e.kind === "cash_in" ? "cash-in" : "agent credit",
    from,
    to,
    rs(e.amountPaisa),
    reversed
      ? `reversed ${time(reversed.at)} by ${bookerOf(reversed)}`
      : html`<a href="${path(`/cash-ins/reverse?id=${encodeURIComponent(e.id)}`)}">Reverse…</a>`,
  ]);
  return html`${findForm()}
<form method="get" action="${path("/cash-ins")}">
<label>Last <input name="days" value="${days}" inputmode="numeric" maxlength="2" size="3"> days</label>
<button type="submit">Show</button></form>
${complete ? "" : html`<p class="notice error" role="alert">Only the first ${MAX_PAGES * 1_000} journal entries of the range were read: fewer days show all.</p>`}
${table(["Time", "Receipt", "Kind", "From", "To", "Amount", ""], body)}`;
}

export const findForm = (
  value = "",
): Fragment => html`<form method="get" action="${path("/cash-ins/reverse")}">
<label>Receipt id <input name="id" value="${value}" maxlength="128" required></label>
<button type="submit">Find</button></form>`;

/**
 * A side's balance now as the reversal is judged: what a customer or an agent may still spend
 * (held money excluded: a reversal cannot take money held for an order under way) and what is
 * held; a merchant account's posted balance.
 */
export function balanceWords(b: Balance): string {
  if (!debitsMustNotExceedCredits(b.account)) return `balance now ${rs(b.postedPaisa)}`;
  const held = b.heldPaisa > 0 ? `, ${rs(b.heldPaisa)} more held for orders under way` : "";
  return `available now ${rs(b.availablePaisa)}${held}`;
}

/** The receipt, its people and their balances now, and the form that asks for the reason. */
export function confirmView(
  r: Receipt,
  names: { from: string; to: string; by: string },
  balances: { from: Balance; to: Balance },
  reason = "",
): Fragment {
  return html`${facts([
    ["Receipt", r.id],
    ["Kind", r.kind === "cash_in" ? "cash-in" : r.kind],
    ["When", time(r.at)],
    ["Amount", rs(r.amountPaisa)],
    ["Paid by", `${names.from}, ${balanceWords(balances.from)}`],
    ["Credited to", `${names.to}, ${balanceWords(balances.to)}`],
    ["Booked by", names.by],
  ])}
<p>Reversing books a new transfer <strong>${reversalIdOf(r.id)}</strong> of ${rs(r.amountPaisa)}
from ${names.to} back to ${names.from}. Nothing is edited; it is refused if ${names.to} no longer
has the money.</p>
<form method="post" action="${path("/cash-ins/reverse")}">
<input type="hidden" name="id" value="${r.id}">
<label>Reason (required) <textarea name="reason" minlength="3" maxlength="200" required>${reason}</textarea></label>
<button type="submit">Reverse ${rs(r.amountPaisa)}</button>
</form>`;
}

export const alreadyView = (rev: Receipt): Fragment =>
  facts([
    ["Reversal", rev.id],
    ["When", time(rev.at)],
    ["By", bookerOf(rev)],
    ["Reason", rev.reason ?? "—"],
  ]);
