import { InlineKeyboard } from "grammy";
import {
  historySearchButton,
  historyViewButton,
  repeatButton,
} from "../../src/bot/callback-data.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { type BookedRefund, statusLabel } from "../../src/bot/order-texts.ts";
import { formatMoney } from "../../src/money.ts";
import { chargedPaisa, type Order } from "../../src/orders/model.ts";
import { type HistoryView, monthLabel, recentMonths, viewData } from "./view.ts";

/**
 * How the customer calls the number or account of an order: its saved nickname ("Aama", "Shop
 * landline") where there is one, else the number; for the lines and the Repeat buttons alike.
 */
export type NumberLabel = (order: Order) => string;
const plainNumber: NumberLabel = (order) => order.connectionNo;

/** A /history message: sent as a reply, or edited in place by Prev / Next and the filters. */
export interface HistoryReply {
  text: string;
  /** Absent when there is nothing to offer (no order at all). */
  keyboard?: InlineKeyboard;
}

/** What a page shows and what its buttons need. */
export interface HistoryPage {
  view: HistoryView;
  orders: readonly Order[];
  hasNext: boolean;
  /** When the page is drawn (epoch ms): which months the filter buttons offer. */
  now: number;
  /** False where a question cannot be asked (inside another flow): no Search button. */
  search?: boolean;
  /** The complaint refunds booked for the page's orders, by reference (booked-refunds.ts). */
  refunds?: ReadonlyMap<string, BookedRefund>;
}

/** One button of an order's row, or none for this order. */
export type OrderButton = (
  t: Translate,
  order: Order,
  label: NumberLabel,
) => { text: string; data: string } | null;

/** One row of buttons under the orders (filters, a statement...), or none. */
export type ViewRow = (t: Translate, page: HistoryPage) => Array<{ text: string; data: string }>;

/**
 * What an order's total shows: the price's total, an India order's ₹ with the Rs its balance
 * paid, holds or got back (only where a balance held it: in staff mode the merchant pays).
 */
function totalText(t: Translate, o: Order): string {
  const total = formatMoney(o.price?.totalPaisa ?? o.amountPaisa, {
    region: o.region,
    locale: t.locale,
  });
  if (!o.exchange) {
    // A failed order its balance held: given back, as an India order's line says (review
    // s32-receipts 2), never a bare total under "failed".
    const returned = o.status === "failed" && o.holdId !== undefined && chargedPaisa(o) > 0;
    return returned ? t("history-total-returned", { total }) : total;
  }
  const npr = formatMoney(o.exchange.totalPaisa, { region: "np", locale: t.locale });
  // Without a hold the merchant paid (staff mode): no balance gave, held or got anything back.
  if (o.holdId === undefined) return t("history-total-npr-merchant", { total, npr });
  // What the balance gave, as it stands: paid at success, held while under way, and given back
  // (voided with the failure) for a failed order, never "from your balance" for money returned.
  if (o.status === "success") return t("history-total-npr", { total, npr });
  if (o.status === "failed") return t("history-total-npr-returned", { total, npr });
  return t("history-total-npr-held", { total, npr });
}

/**
 * A successful order refunded on a complaint (review s33-rvtruth 7): its total, then the refund
 * (Nepal rupees, from the balance's money) and, for a part refund, what the customer paid in the end.
 */
function refundedText(t: Translate, o: Order, total: string, refund: BookedRefund): string {
  const npr = (paisa: number) => formatMoney(paisa, { region: "np", locale: t.locale });
  const args = {
    total,
    refund: npr(refund.paisa),
    time: formatOrderTime(refund.at, o.region, t.locale),
    complaint: refund.complaint,
  };
  const paid = chargedPaisa(o) - refund.paisa;
  return paid > 0
    ? t("history-total-refunded-part", { ...args, paid: npr(paid) })
    : t("history-total-refunded", args);
}

/** An order's total as its line shows it, with a complaint's refund when one was booked. */
function lineTotal(t: Translate, o: Order, refunds: HistoryPage["refunds"]): string {
  const refund = o.status === "success" ? refunds?.get(o.reference) : undefined;
  return refund ? refundedText(t, o, totalText(t, o), refund) : totalText(t, o);
}

/** Repeat: labelled with number and amount, the reference travels in the data only. */
const repeatOrder: OrderButton = (t, o, label) => ({
  text: t("history-repeat", {
    number: label(o),
    amount: formatMoney(o.amountPaisa, { region: o.region, locale: t.locale }),
  }),
  data: repeatButton.build(o.reference),
});

/** Months: this month and the two before it (the one shown is left out), then "All orders". */
const monthFilters: ViewRow = (t, page) => {
  const months = recentMonths(page.now, 3).filter((m) => m !== page.view.month);
  const row = months.map((month) => ({
    text: t("history-month-button", { month: monthLabel(month, t.locale, true) }),
    data: historyViewButton.build(viewData({ page: 0, month })),
  }));
  const filtered = page.view.month !== undefined || page.view.number !== undefined;
  if (filtered) row.push({ text: t("history-all"), data: historyViewButton.build("0") });
  return row;
};

/** "Search a number": asks for it (a question, so not inside another flow). */
const searchRow: ViewRow = (t, page) =>
  page.search === false ? [] : [{ text: t("history-search"), data: historySearchButton.data }];

/** Prev / Next, keeping the filter. */
const pageRow: ViewRow = (t, { view, hasNext }) => {
  const row: Array<{ text: string; data: string }> = [];
  const to = (p: number) => historyViewButton.build(viewData({ ...view, page: p }));
  if (view.page > 0) row.push({ text: t("history-prev"), data: to(view.page - 1) });
  if (hasNext) row.push({ text: t("history-next"), data: to(view.page + 1) });
  return row;
};

/**
 * The buttons of a page, extended by adding to these lists: each order gets one row of
 * ORDER_BUTTONS (a "Report a problem" goes beside Repeat), then each of VIEW_ROWS that has
 * buttons (a "Statement" goes in a row of its own).
 */
export const ORDER_BUTTONS: OrderButton[] = [repeatOrder];
export const VIEW_ROWS: ViewRow[] = [pageRow, monthFilters, searchRow];

function keyboardOf(t: Translate, page: HistoryPage, label: NumberLabel): InlineKeyboard {
  const rows = [
    ...page.orders.map((o) => ORDER_BUTTONS.map((b) => b(t, o, label)).filter((b) => b !== null)),
    ...VIEW_ROWS.map((rowOf) => rowOf(t, page)),
  ];
  return new InlineKeyboard(
    rows.filter((r) => r.length > 0).map((r) => r.map((b) => InlineKeyboard.text(b.text, b.data))),
  );
}

/** The title; "(page n)" whenever there is more than one page (0 stands for "no page"). */
function titleOf(t: Translate, { view, hasNext }: HistoryPage): string {
  const page = view.page > 0 || hasNext ? view.page + 1 : 0;
  if (view.month !== undefined)
    return t("history-title-month", { month: monthLabel(view.month, t.locale), page });
  if (view.number !== undefined) return t("history-title-number", { number: view.number, page });
  return page > 0 ? t("history-title-page", { page }) : t("history-title");
}

function emptyText(t: Translate, { view }: HistoryPage): string {
  if (view.month !== undefined)
    return t("history-empty-month", { month: monthLabel(view.month, t.locale) });
  if (view.number !== undefined) return t("history-empty-number", { number: view.number });
  return t("history-empty");
}

/**
 * One page as text and buttons: per order its time (in the order's region's time zone, named),
 * category, operator, number, total paid (fee and discount included; an India order's ₹ with the
 * Rs its balance paid), status and reference (which /status needs); the buttons above.
 */
export function renderHistory(
  t: Translate,
  page: HistoryPage,
  label: NumberLabel = plainNumber,
): HistoryReply {
  const keyboard = keyboardOf(t, page, label);
  const filtered = page.view.month !== undefined || page.view.number !== undefined;
  if (page.orders.length === 0)
    return filtered || page.view.page > 0
      ? { text: emptyText(t, page), keyboard }
      : { text: emptyText(t, page) };
  const items = page.orders.map((o) =>
    t("history-item", {
      time: formatOrderTime(o.createdAt, o.region, t.locale),
      // Category ids are the menu's keys (menu-mobile, menu-water, ...); the locale test checks all.
      category: t(`menu-${o.category}`),
      operator: o.operatorName,
      number: label(o),
      total: lineTotal(t, o, page.refunds),
      status: statusLabel(t, o.status),
      ref: o.reference,
    }),
  );
  return { text: [titleOf(t, page), ...items].join("\n\n"), keyboard };
}
