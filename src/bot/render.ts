import type { Order, OrderStatus } from "../orders/model.ts";
import { formatRupees, formatTime } from "./format.ts";
import type { Translate } from "./i18n.ts";

/** Chat texts about an order, in the order's (or reader's) language. */

export function statusLabel(t: Translate, status: OrderStatus | string): string {
  const known = ["placed", "submitting", "queued", "pending", "unknown", "success", "failed"];
  return known.includes(status) ? t(`status-${status}`) : status;
}

function orderParams(order: Order) {
  return {
    ref: order.reference,
    operator: order.operatorName,
    number: order.connectionNo,
    amount: formatRupees(order.amountPaisa, order.region),
  };
}

/** The receipt message the notifier later edits in place. */
export function receiptText(t: Translate, order: Order): string {
  return t("receipt-status", { ...orderParams(order), status: statusLabel(t, order.status) });
}

/** The push for a final outcome (a new message, so the phone buzzes). */
export function finalText(t: Translate, order: Order): string {
  if (order.status === "success") return t("notify-success", orderParams(order));
  return t("notify-failed", {
    ...orderParams(order),
    reason: order.providerMessage?.trim() || t("notify-reason-unknown"),
  });
}

/** The admin alert for an order still not final after the reconciler's maximum age. */
export function stuckAlertText(t: Translate, order: Order, now: number): string {
  return t("notify-admin-stuck", {
    ...orderParams(order),
    minutes: Math.max(1, Math.round((now - order.createdAt) / 60_000)),
  });
}

/** An order as /status shows it. */
export function statusText(t: Translate, order: Order): string {
  return t("status-result", {
    ...orderParams(order),
    status: statusLabel(t, order.status),
    time: formatTime(order.createdAt),
  });
}
