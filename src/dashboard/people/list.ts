import { html } from "hono/html";
import { z } from "zod";
import { account } from "../../ledger/index.ts";
import { availableText, type Fragment, messengerOf, notice, path, table, time } from "../html.ts";
import type { DashboardContext, DashboardParts } from "../parts.ts";
import { personPath, phoneText } from "./view.ts";

/**
 * Every customer (admins, issue 29): 50 a page, newest registration first, with their phone, name,
 * channel, money (available, and what is held for orders in flight apart) and whether they are blocked, each linking to their page. Read from the
 * accounts' index by first registration (a sorted set in Redis, kept with the profile).
 */

export const CUSTOMERS_PAGE_SIZE = 50;
/** 10,000 pages of 50: far past any shop; a bigger number is a typo. */
const MAX_PAGE = 10_000;

export const listQuerySchema = z.object({
  page: z.coerce
    .number({ error: "the page is a number" })
    .int("the page is a whole number")
    .min(1, "the first page is 1")
    .max(MAX_PAGE, `at most page ${MAX_PAGE}`)
    .default(1),
});

/** The list for `?page=`, or the reason the page number is refused. */
export async function customerList(
  c: DashboardContext,
  parts: DashboardParts,
): Promise<{ ok: true; body: Fragment } | { ok: false; why: string }> {
  const raw = c.req.query("page");
  const q = listQuerySchema.safeParse(raw === undefined || raw === "" ? {} : { page: raw });
  if (!q.success)
    return { ok: false, why: `Bad page: ${q.error.issues[0]?.message ?? "invalid"}.` };
  const people = parts.deps.people;
  if (!people.joined) return { ok: true, body: notice("The list of customers is not wired here.") };
  const page = q.data.page;
  // One more than shown: whether there is a Next.
  const ids = await people.joined((page - 1) * CUSTOMERS_PAGE_SIZE, CUSTOMERS_PAGE_SIZE + 1);
  const shown = ids.slice(0, CUSTOMERS_PAGE_SIZE);
  const rows = await Promise.all(shown.map((id) => row(parts, id)));
  const prev = page > 1 ? html`<a href="${path(`/customers?page=${page - 1}`)}">Previous</a> ` : "";
  const next =
    ids.length > CUSTOMERS_PAGE_SIZE
      ? html`<a href="${path(`/customers?page=${page + 1}`)}" rel="next">Next</a>`
      : "";
  return {
    ok: true,
    body: html`<h2 id="all">All customers (page ${page}, newest registration first)</h2>
${table(["Id", "Phone", "Name", "Channel", "Registered", "Money", "Blocked"], rows)}
<p class="pager">${prev}${next}</p>`,
  };
}

async function row(parts: DashboardParts, userId: number): Promise<Array<string | Fragment>> {
  const { people, ledger } = parts.deps;
  const [phone, profile, balance, blocked] = await Promise.all([
    people.phoneOf(userId),
    people.profileOf(userId),
    ledger.balance(account.customer(userId)),
    people.blocked.isBlocked(userId),
  ]);
  return [
    html`<a href="${personPath(userId)}">${userId}</a> (${messengerOf(userId)})`,
    phone ? phoneText(phone) : "—",
    profile?.name ?? "—",
    profile?.channel ?? "—",
    time(profile?.firstAt),
    availableText(balance),
    blocked ? "blocked" : "no",
  ];
}
