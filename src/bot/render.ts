import { formatMoney } from "../money.ts";
import { isFinal, type Order, type OrderStatus } from "../orders/model.ts";
import { formatTime } from "./format.ts";
import type { Translate } from "./i18n.ts";

/** Chat texts about an order, in the order's (or reader's) language. */

export function statusLabel(t: Translate, status: OrderStatus | string): string {
  const known = ["placed", "submitting", "queued", "pending", "unknown", "success", "failed"];
  return known.includes(status) ? t(`status-${status}`) : status;
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

/** The receipt message the notifier later edits in place. */
export function receiptText(t: Translate, order: Order): string {
  const text = t("receipt-status", {
    ...orderParams(t, order),
    status: statusLabel(t, order.status),
  });
  return text + followLine(t, order);
}

/**
 * Why a failed order failed: the words of the event that failed it, or a plain "the operator did
 * not complete it" (never an earlier event's words such as "accepted and queued").
 */
export function failureReason(t: Translate, order: Order): string {
  return order.providerMessage?.trim() || t("notify-reason-unknown");
}

/** The push for a final outcome (a new message, so the phone buzzes). */
export function finalText(t: Translate, order: Order): string {
  if (order.status === "success") return t("notify-success", orderParams(t, order));
  return t("notify-failed", { ...orderParams(t, order), reason: failureReason(t, order) });
}

/** The admin alert for an order still not final after the reconciler's maximum age. */
export function stuckAlertText(t: Translate, order: Order, now: number): string {
  return t("notify-admin-stuck", {
    ...orderParams(t, order),
    minutes: Math.max(1, Math.round((now - order.createdAt) / 60_000)),
  });
}

/** An order as /status shows it. */
export function statusText(t: Translate, order: Order): string {
  return (
    t("status-result", {
      ...orderParams(t, order),
      status: statusLabel(t, order.status),
      time: formatTime(order.createdAt),
    }) + followLine(t, order)
  );
}
