import type { BotDeps } from "../../src/bot/deps.ts";
import { nepalDayStart } from "../../src/nepal-time.ts";
import type { Order } from "../../src/orders/model.ts";

/**
 * What one /history message shows: every order, one month's (a Nepal-time calendar month, the
 * merchant's clock) or one number's or account's, and which page. It travels on the message's
 * buttons as `<page>[:m<YYYY-MM>|:n<number>]` (historyViewButton), so Prev / Next keep the filter;
 * the orders are always read for the presser, so forged data shows only their own orders.
 */
export interface HistoryView {
  /** 0-based. */
  page: number;
  /** "2026-10": orders placed in that month, Nepal time. */
  month?: string;
  /** Orders for this number or account, exactly as the order carries it. */
  number?: string;
}

/** Orders on one page of /history. */
export const HISTORY_SIZE = 5;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** A number or account id as orders carry them (mobile, customer id, SC number "023.01.001A"). */
const NUMBER = /^[0-9A-Za-z][0-9A-Za-z./-]{0,39}$/;

/** The view as button data (without the button's prefix). */
export function viewData(v: HistoryView): string {
  if (v.month !== undefined) return `${v.page}:m${v.month}`;
  if (v.number !== undefined) return `${v.page}:n${v.number}`;
  return String(v.page);
}

/** The view in button data, or null for anything else. */
export function parseViewData(data: string): HistoryView | null {
  const m = /^(0|[1-9]\d{0,5})(?::([mn])(.+))?$/.exec(data);
  if (!m) return null;
  const page = Number(m[1]);
  if (m[2] === undefined) return { page };
  const value = m[3] ?? "";
  if (m[2] === "m") return MONTH.test(value) ? { page, month: value } : null;
  return NUMBER.test(value) ? { page, number: value } : null;
}

/**
 * What follows /history: nothing (every order), a month ("2026-10") or a number to search for
 * ("9841234567", "+977 984-1234567", an account id). Null when it is none of these.
 */
export function parseHistoryArg(arg: string): HistoryView | null {
  const text = arg.trim();
  if (text === "") return { page: 0 };
  if (MONTH.test(text)) return { page: 0, month: text };
  return searchNumberOf(text);
}

/** A typed number as orders carry it: spaces and dashes gone, a Nepal or India country code too. */
export function searchNumberOf(typed: string): HistoryView | null {
  let n = typed.trim().replace(/[\s()-]/g, "");
  const mobile = /^\+?(977|91)(\d{10})$/.exec(n);
  if (mobile) n = mobile[2] ?? n;
  return NUMBER.test(n) ? { page: 0, number: n } : null;
}

/** The month `ms` falls in, Nepal time, as "YYYY-MM". */
export function monthOf(ms: number): string {
  return new Date(nepalDayStart(ms) + 6 * 3_600_000).toISOString().slice(0, 7);
}

/** This month and the `n - 1` before it, newest first ("2026-11", "2026-10", ...). */
export function recentMonths(now: number, n: number): string[] {
  const [y, m] = monthOf(now).split("-").map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - i, 1));
    return d.toISOString().slice(0, 7);
  });
}

/** The month's first and the next month's first instants (Nepal midnight), epoch ms. */
export function monthBounds(month: string): { from: number; to: number } {
  const [y, m] = month.split("-").map(Number) as [number, number];
  // Noon UTC of the 1st is on the 1st in Nepal too; its Nepal day began at Nepal midnight.
  return {
    from: nepalDayStart(Date.UTC(y, m - 1, 1, 12)),
    to: nepalDayStart(Date.UTC(y, m, 1, 12)),
  };
}

const INTL_LOCALE: Record<string, string> = {
  en: "en-GB",
  ne: "ne-NP-u-nu-latn",
  hi: "hi-IN-u-nu-latn",
};

/** "November 2026" (or "Nov 2026", `short`) in the reader's language (Latin digits, as every message). */
export function monthLabel(month: string, locale: string, short = false): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Intl.DateTimeFormat(INTL_LOCALE[locale] ?? "en-GB", {
    timeZone: "UTC",
    year: "numeric",
    month: short ? "short" : "long",
  }).format(Date.UTC(y, m - 1, 15));
}

/** One page of a view's orders, newest first, and whether another page follows. */
export interface FoundPage {
  orders: Order[];
  hasNext: boolean;
}

type HistoryOrders = Pick<BotDeps["orders"], "listByUser" | "search">;

/** Search rounds one page may take (each bounded by the store's own scan bound). */
const MAX_ROUNDS = 20;

/**
 * The page's orders through the store's indexes, never a scan of every order: all of a customer's
 * by the customer index (offset paging, as before); a month by the same index between the month's
 * bounds; a number by the number's index, keeping this customer's orders only.
 */
export async function findPage(
  orders: HistoryOrders,
  userId: number,
  view: HistoryView,
): Promise<FoundPage> {
  const skip = view.page * HISTORY_SIZE;
  // One more than a page tells whether there is a next one.
  const want = skip + HISTORY_SIZE + 1;
  let found: Order[];
  if (view.month === undefined && view.number === undefined) {
    found = await orders.listByUser(userId, HISTORY_SIZE + 1, skip);
    return { orders: found.slice(0, HISTORY_SIZE), hasNext: found.length > HISTORY_SIZE };
  }
  const query =
    view.month !== undefined
      ? { userId, ...monthBounds(view.month) }
      : { userId, connectionNo: view.number };
  found = [];
  let after: string | undefined;
  for (let round = 0; round < MAX_ROUNDS && found.length < want; round++) {
    const page = await orders.search({
      ...query,
      limit: Math.min(100, want - found.length),
      after,
    });
    found.push(...page.orders);
    if (page.next === undefined) break;
    after = page.next;
  }
  return {
    orders: found.slice(skip, skip + HISTORY_SIZE),
    hasNext: found.length > skip + HISTORY_SIZE,
  };
}
