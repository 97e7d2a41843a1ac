import { formatMoney, formatRupees } from "../money.ts";
import {
  chargedPaisa,
  isFinal,
  type Order,
  type OrderStatus,
  refusedOnOurSide,
} from "../orders/model.ts";
import { RECONCILER_MESSAGES } from "../orders/reconcile-order.ts";
import { SETTLED_FAILED_MESSAGE } from "../orders/settle.ts";
import { formatRate } from "../pricing/index.ts";
import type { Role } from "./deps.ts";
import { formatOrderTime } from "./format.ts";
import type { Translate } from "./i18n.ts";

/**
 * Chat texts about an order, in the order's (or reader's) language: its status, the receipt the
 * checkout sends and the notifier edits, the final push, the admins' stuck alert. Shared by the
 * toolkit, the notifier's render (notification-render.ts) and the /status and /history features.
 */

export function statusLabel(t: Translate, status: OrderStatus | string): string {
  const known = ["placed", "submitting", "queued", "pending", "unknown", "success", "failed"];
  return known.includes(status) ? t(`status-${status}`) : status;
}

/**
 * A status as the receipt words it: queued and pending alike ("with the operator"), since moving
 * between them is not sent to the chat (RECEIPT_RANK in src/orders/model.ts). /status and the
 * history still name the status itself.
 */
function receiptStatusLabel(t: Translate, status: OrderStatus): string {
  return status === "queued" || status === "pending"
    ? t("receipt-status-open")
    : statusLabel(t, status);
}

function orderParams(t: Translate, order: Order) {
  return {
    ref: order.reference,
    operator: order.operatorName,
    number: order.connectionNo,
    amount: formatMoney(order.amountPaisa, { region: order.region, locale: t.locale }),
  };
}

/** While an order is not final, the customer is told a message will follow and roughly when. */
function followLine(t: Translate, order: Order): string {
  return isFinal(order.status) ? "" : `\n${t("receipt-will-follow")}`;
}

/** The "package" or "bill month" line of an order, when its category has one. */
function itemLine(t: Translate, order: Order): string | null {
  const d = order.details as Record<string, unknown>;
  if (typeof d.packageName === "string" && d.packageName)
    return t("receipt-line-package", { package: d.packageName });
  if (typeof d.monthId === "number") {
    return t("receipt-line-month", { month: t(`bill-month-${d.monthId}`) });
  }
  return null;
}

/** A details field that is a non-empty string, else undefined. */
function detail(order: Order, key: string): string | undefined {
  const v = (order.details as Record<string, unknown>)[key];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/**
 * What identifies the account besides the number (issue 30), from the order's details: a bill's
 * office, SC number and holder; a TV subscriber's name. A receipt kept for a dispute must name
 * them as the confirmation did.
 */
function accountLines(t: Translate, order: Order): string[] {
  const lines: string[] = [];
  const office = detail(order, "officeName") ?? detail(order, "officeCode");
  if (office) lines.push(t("receipt-line-office", { office }));
  const sc = detail(order, "scNo");
  if (sc) lines.push(t("receipt-line-sc", { sc }));
  const holder = detail(order, "customerName");
  if (holder) lines.push(t("receipt-line-holder", { name: holder }));
  const subscriber = detail(order, "subscriber");
  if (subscriber) lines.push(t("receipt-line-subscriber", { name: subscriber }));
  return lines;
}

/** Fee and discount lines, each only when not zero (as the confirmation shows them). */
function feeLines(t: Translate, fee: number, discount: number, money: (p: number) => string) {
  const lines: string[] = [];
  if (fee > 0) lines.push(t("receipt-line-fee", { fee: money(fee) }));
  if (discount > 0) lines.push(t("receipt-line-discount", { discount: money(discount) }));
  return lines;
}

/**
 * The lines every receipt and final push shows (issue 15): reference, the aggregator's transaction
 * id when known, date and time in the order's country (its zone named), category, operator,
 * number, what identifies the account, package or bill month, and the money. An order somebody
 * paid for through the books (prepaid: it has a hold) shows amount, fee and discount (each when
 * not zero) and total, and the balance; in staff mode nobody was charged
 * through the books, so only the amount. The order's money is in its country's rupees; the
 * balance is the Nepal wallet's, always in Nepal rupees. An India order paid from the balance
 * shows its ₹ figures, then the Nepal rupees held or paid and the rate (`exchange`).
 */
function receiptLines(t: Translate, order: Order, refund?: BookedRefund): string[] {
  const money = (paisa: number) => formatMoney(paisa, { region: order.region, locale: t.locale });
  // The reference is in the title line of every receipt and push.
  const lines = [
    t("receipt-line-main", {
      operator: order.operatorName,
      number: order.connectionNo,
      amount: money(order.amountPaisa),
    }),
    t("receipt-line-category", { category: t(`menu-${order.category}`) }),
    ...accountLines(t, order),
  ];
  const item = itemLine(t, order);
  if (item) lines.push(item);
  if (order.holdId !== undefined && order.price) {
    const p = order.price;
    const x = order.exchange;
    lines.push(
      ...feeLines(t, p.feePaisa, p.discountPaisa, money),
      order.status === "success" && !x
        ? t("receipt-line-total-paid", { total: money(p.totalPaisa) })
        : t("receipt-line-total", { total: money(p.totalPaisa) }),
    );
    if (x) {
      const npr = formatMoney(x.totalPaisa, { region: "np", locale: t.locale });
      const rate = formatRate(x.rateE4);
      // Failed: the refund line above the receipt says it came back.
      if (order.status === "success") lines.push(t("receipt-line-paid-npr", { npr, rate }));
      else if (order.status !== "failed") lines.push(t("receipt-line-held-npr", { npr, rate }));
    }
    // The balance right after the order's last money step (hold, then post or void), as the
    // store recorded it in that step: a receipt shown late still shows that moment.
    if (order.balanceAfterPaisa !== undefined) {
      const balance = formatMoney(order.balanceAfterPaisa, { region: "np", locale: t.locale });
      lines.push(t("receipt-line-balance", { balance }));
    }
    if (refund && order.status === "success") lines.push(...refundedLines(t, order, refund));
  }
  if (order.transactionId) lines.push(t("receipt-line-tx", { tx: order.transactionId }));
  lines.push(
    t("receipt-line-time", { time: formatOrderTime(order.createdAt, order.region, t.locale) }),
  );
  return lines;
}

/** A complaint's refund of an order (complaints/service.ts orderRefundOf): Nepal paisa, when. */
export type BookedRefund = { complaint: string; paisa: number; at: number };

/**
 * A successful order refunded on a complaint (review s33-rvtruth 7): the refund, from the balance's
 * money (Nepal rupees, as the complaint booked it), and for a part refund what the customer paid
 * in the end, so a receipt kept or forwarded does not show the whole total as paid.
 */
function refundedLines(t: Translate, order: Order, refund: BookedRefund): string[] {
  const npr = (paisa: number) => formatMoney(paisa, { region: "np", locale: t.locale });
  const lines = [
    t("receipt-line-refunded", {
      refund: npr(refund.paisa),
      time: formatOrderTime(refund.at, order.region, t.locale),
      complaint: refund.complaint,
    }),
  ];
  const paid = chargedPaisa(order) - refund.paisa;
  if (paid > 0) lines.push(t("receipt-line-paid-in-end", { paid: npr(paid) }));
  return lines;
}

/**
 * The receipt message the notifier later edits in place (and the PDF's body): a failed order's
 * says where its money went, as its push does (review s33-rvtruth 6: the hold is voided in the
 * same write that fails the order, so the money is back when the receipt says "failed"); a
 * refunded order's (`refund`, read by the caller) says the refund.
 */
export function receiptText(t: Translate, order: Order, refund?: BookedRefund): string {
  const lines = [
    t("receipt-title", { ref: order.reference }),
    ...receiptLines(t, order, refund),
    t("receipt-line-status", { status: receiptStatusLabel(t, order.status) }),
  ];
  if (order.status === "failed") lines.push(refundLine(t, order));
  return lines.join("\n") + followLine(t, order);
}

/**
 * Why a failed order failed: the words of the event that failed it, or a plain "the operator did
 * not complete it" (never an earlier event's words such as "accepted and queued"). A refusal for
 * the merchant's own side (its wallet, token, IP or rate: floatShort) is never explained with the
 * aggregator's words ("Unauthenticated.", "IP not whitelisted"): the service is briefly unavailable. The
 * reconciler's own words ("The provider never received this order") are for staff: a customer
 * reads that the order did not go through (issue 30).
 */
export function failureReason(t: Translate, order: Order, role: Role = "customer"): string {
  if (order.floatShort) return t("notify-service-unavailable");
  const said = order.providerMessage?.trim();
  if (said && role === "customer" && RECONCILER_MESSAGES.includes(said)) {
    return t("notify-reason-not-sent");
  }
  // An admin's settlement (src/orders/settle.ts): the customer is told why in their language.
  if (said === SETTLED_FAILED_MESSAGE && role === "customer") return t("notify-reason-settled");
  return said || t("notify-reason-unknown");
}

/**
 * What happened to the money of a failed order: returned to the balance, or never taken. An order
 * the aggregator refused for our own token, IP or rate (refusedOnOurSide) was never executed and
 * its hold only released: nothing was charged (review s33-rvprov, 3).
 */
function refundLine(t: Translate, order: Order): string {
  if (refusedOnOurSide(order)) return t("notify-nothing-charged");
  // What the balance gave: Nepal rupees (an India order's converted total).
  if (order.holdId !== undefined && order.price && chargedPaisa(order) > 0) {
    const region = order.exchange ? "np" : order.region;
    const total = formatMoney(chargedPaisa(order), { region, locale: t.locale });
    return t("notify-returned", { total });
  }
  return t("notify-nothing-charged");
}

/**
 * What a failed order's receipt adds to its lines, as its push says it: the money returned (or
 * never taken), and why. A document kept alone must not show a total under "failed" unexplained.
 */
export function failedOutcomeLines(t: Translate, order: Order): string[] {
  if (order.status !== "failed") return [];
  return [refundLine(t, order), failedReasonLine(t, order)];
}

/** Why a failed order failed, as its push and its receipt document say it. */
export function failedReasonLine(t: Translate, order: Order): string {
  return t("notify-reason", { reason: failureReason(t, order) });
}

/** The push for a final outcome (a new message, so the phone buzzes). */
export function finalText(t: Translate, order: Order): string {
  if (order.status === "success") {
    return [t("notify-title-success", { ref: order.reference }), ...receiptLines(t, order)].join(
      "\n",
    );
  }
  const [refund = "", reason = ""] = failedOutcomeLines(t, order);
  return [
    t("notify-title-failed", { ref: order.reference }),
    refund,
    ...receiptLines(t, order),
    reason,
  ].join("\n");
}

/** The admin alert for an order still not final after the reconciler's maximum age. */
export function stuckAlertText(t: Translate, order: Order, now: number): string {
  return t("notify-admin-stuck", {
    ...orderParams(t, order),
    minutes: Math.max(1, Math.round((now - order.createdAt) / 60_000)),
  });
}

/**
 * The aggregator's final word against an order's final outcome (orders/state.ts): what it means
 * for the money and what to check; nothing moved, a correction is an admin's.
 */
export function contradictedAlertText(
  t: Translate,
  order: Order,
  said: "success" | "failed",
  word?: string,
  refund?: AlertRefund,
): string {
  const owed = refundOwedLine(t, order, refund);
  // A reversal word ("refunded", orders/reversal.ts) is said as the aggregator answered it, on a
  // success it reported or one an admin settled as succeeded.
  if (word !== undefined && said === "failed") {
    const key = order.settled ? "notify-admin-reversed-settled" : "notify-admin-reversed";
    return t(key, { ...orderParams(t, order), word, admin: String(order.settled?.by ?? ""), owed });
  }
  const key =
    said === "failed" ? "notify-admin-contradicted-failed" : "notify-admin-contradicted-success";
  return t(key, { ...orderParams(t, order), owed });
}

/** A complaint's refund of the order, as the alert carries it (orders/notification.ts). */
type AlertRefund = BookedRefund;

/**
 * What the alert says of the customer's money: a complaint refund already booked for the order
 * (read when the alert was written) is told as paid, so no admin pays it again; else a refund may
 * be owed (review s33-rvcomp 5).
 */
function refundOwedLine(t: Translate, order: Order, refund: AlertRefund | undefined): string {
  if (!refund) return t("notify-admin-refund-owed");
  return t("notify-admin-refund-paid", {
    complaint: refund.complaint,
    paid: formatRupees(refund.paisa),
    time: formatOrderTime(refund.at, order.region, t.locale),
  });
}

/** An order as /status shows it. */
export function statusText(
  t: Translate,
  order: Order,
  /** Staff looking up someone's order: the "we will send you a message" is not theirs. */
  viewer: "owner" | "staff" = "owner",
): string {
  const follow =
    viewer === "owner" || isFinal(order.status)
      ? followLine(t, order)
      : `\n${t("status-staff-follow")}`;
  return (
    t("status-result", {
      ...orderParams(t, order),
      status: statusLabel(t, order.status),
      // The one format and the order's own zone, as on its receipt and in /history.
      time: formatOrderTime(order.createdAt, order.region, t.locale),
    }) + follow
  );
}
