import { html } from "hono/html";
import { z } from "zod";
import {
  ORDER_STATUSES,
  type Order,
  type OrderSearch,
  type OrderSearchPage,
  referenceSchema,
  SEARCH_SCAN_BOUND,
  searchCursorSchema,
} from "../../orders/index.ts";
import { type Fragment, inRegion, notice, page, path, table, time } from "../html.ts";
import type { DashboardContext, DashboardParts } from "../parts.ts";

/**
 * The orders page for admins (GET /dashboard/orders without `ref`): a search form by reference,
 * provider transaction id, number or account, customer, status, category, operator and a range
 * of days, and one page of results, newest first, each linking to its order's page, with "Next"
 * (a cursor) when there may be more. Every field is checked here (zod): a bad one gets the form
 * again with the reason, 400. The store answers from its index (src/orders/search.ts).
 */

export const SEARCH_PAGE_SIZE = 50;
const DAY_MS = 86_400_000;

/** Blank fields are absent; the rest trimmed. */
const blank = (v: unknown) => {
  if (typeof v !== "string") return v;
  const t = v.trim();
  return t === "" ? undefined : t;
};
const opt = <T extends z.ZodType>(t: T) => z.preprocess(blank, t.optional());

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a date such as 2026-04-01")
  .transform((v, ctx) => {
    const ms = Date.parse(`${v}T00:00:00Z`);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v) {
      ctx.addIssue({ code: "custom", message: "not a real date" });
      return z.NEVER;
    }
    return ms;
  });

const digits = (max: number, what: string) =>
  z
    .string()
    .regex(new RegExp(`^[1-9]\\d{0,${max - 1}}$`), what)
    .transform(Number);

export const searchFormSchema = z
  .object({
    reference: opt(referenceSchema),
    tx: opt(z.string().max(64, "at most 64 characters")),
    number: opt(z.string().max(40, "at most 40 characters")),
    // A WhatsApp account's id has 16 digits (whatsapp/chat-ids.ts), still a safe integer.
    customer: opt(
      digits(16, "a Telegram or WhatsApp account id (digits)").refine(
        Number.isSafeInteger,
        "too large for an account id",
      ),
    ),
    status: opt(z.enum(ORDER_STATUSES, { message: `one of ${ORDER_STATUSES.join(", ")}` })),
    category: opt(z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, "a category id, such as mobile")),
    operator: opt(digits(9, "an operator id (digits)")),
    from: opt(day),
    to: opt(day),
    after: opt(searchCursorSchema),
  })
  .refine((f) => f.from === undefined || f.to === undefined || f.to >= f.from, {
    message: "must not be before From",
    path: ["to"],
  });
type SearchForm = z.infer<typeof searchFormSchema>;

const FIELDS = [
  ["reference", "Reference"],
  ["tx", "Provider transaction"],
  ["number", "Number / account"],
  ["customer", "Customer (Telegram or WhatsApp id)"],
  ["category", "Category"],
  ["operator", "Operator id"],
  ["from", "From (UTC day)"],
  ["to", "To (UTC day, included)"],
] as const;
type Given = Record<string, string>;
const LABELS: Record<string, string> = {
  ...Object.fromEntries(FIELDS),
  status: "Status",
  after: "Page",
};

/** The store's query for a valid form: `to` is a whole day, included. */
export function queryOf(f: SearchForm): OrderSearch {
  return {
    reference: f.reference,
    transactionId: f.tx,
    connectionNo: f.number,
    userId: f.customer,
    status: f.status,
    category: f.category,
    operatorId: f.operator,
    from: f.from,
    to: f.to === undefined ? undefined : f.to + DAY_MS,
    after: f.after,
    limit: SEARCH_PAGE_SIZE,
  };
}

function searchForm(given: Given): Fragment {
  const input = ([name, label]: readonly [string, string]) =>
    html`<label>${label} <input name="${name}" value="${given[name] ?? ""}" maxlength="64"${
      name === "from" || name === "to" ? html` type="date"` : ""
    }></label> `;
  const options = ["", ...ORDER_STATUSES].map(
    (s) =>
      html`<option value="${s}"${given.status === s ? html` selected` : ""}>${s || "any"}</option>`,
  );
  return html`<form method="get" action="${path("/orders")}" class="search">
${FIELDS.slice(0, 4).map(input)}<label>Status <select name="status">${options}</select></label>
${FIELDS.slice(4).map(input)}
<button type="submit">Search</button>
</form>`;
}

function results(given: Given, found: OrderSearchPage): Fragment {
  const rows = found.orders.map((o: Order) => [
    time(o.createdAt),
    html`<a href="${path(`/orders?ref=${o.reference}`)}">${o.reference}</a>`,
    o.status,
    o.category,
    `${o.operatorName} (#${o.operatorId})`,
    o.connectionNo,
    html`<span class="amount">${inRegion(o.amountPaisa, o.region)}</span>`,
    o.userId,
    o.transactionId ?? "—",
  ]);
  const head = ["Placed", "Reference", "Status", "Category", "Operator", "Number / account"];
  const more = new URLSearchParams(
    Object.entries(given).filter(([k, v]) => k !== "after" && v !== ""),
  );
  if (found.next) more.set("after", found.next);
  const short =
    found.next && found.orders.length < SEARCH_PAGE_SIZE
      ? notice(
          `Looked at ${found.scanned} orders (at most ${SEARCH_PAGE_SIZE} results or ${SEARCH_SCAN_BOUND} orders a page); older ones may match too.`,
        )
      : "";
  const next = found.next
    ? html`<p><a href="${path(`/orders?${more.toString()}`)}" rel="next">Next page</a></p>`
    : "";
  return html`<h2>Orders found: ${found.orders.length}</h2>${table(
    [...head, "Amount", "Customer", "Provider transaction"],
    rows,
  )}${short}${next}`;
}

/** The raw fields as given (for the form again), bounded in length. */
function givenOf(c: DashboardContext): Given {
  const out: Given = {};
  for (const [k, v] of Object.entries(c.req.query())) {
    if (k in LABELS) out[k] = v.slice(0, 100);
  }
  return out;
}

export async function searchOrders(c: DashboardContext, parts: DashboardParts) {
  const viewer = c.get("viewer");
  if (viewer.role !== "admin") {
    return c.html(
      page("Not allowed", notice("This page is for admins only.", "error"), viewer),
      403,
    );
  }
  const given = givenOf(c);
  const parsed = searchFormSchema.safeParse(given);
  if (!parsed.success) {
    const why = parsed.error.issues.map(
      (i) => html`<li>${LABELS[String(i.path[0])] ?? "Search"}: ${i.message}</li>`,
    );
    return c.html(
      page(
        "Orders",
        html`${notice("Some fields are not right:", "error")}<ul class="reasons">${why}</ul>${searchForm(given)}`,
        viewer,
      ),
      400,
    );
  }
  // No criteria: the newest orders.
  const found = results(given, await parts.deps.orders.search(queryOf(parsed.data)));
  return c.html(page("Orders", html`${searchForm(given)}${found}`, viewer));
}
