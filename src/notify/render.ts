import { formatRupees } from "../money.ts";
import type { Notification, Order, OrderStatus } from "../orders/model.ts";

/**
 * Turning a notification into chat text. Injected into the notifier so the bot can render with its
 * Fluent bundles in the order's locale; this default is plain English.
 */
/** `receiptText`, when given, is what the receipt is edited to (the push itself says `text`). */
export type Render = (
  notification: Notification,
  order: Order,
) => { text: string; receiptText?: string };

const STATUS_TEXT: Record<OrderStatus, string> = {
  placed: "Processing",
  submitting: "Processing",
  unknown: "Processing (confirming with the operator)",
  // Worded alike: a move between them is not sent (RECEIPT_RANK in orders/model.ts).
  queued: "With the operator",
  pending: "With the operator",
  success: "Successful",
  failed: "Failed",
};

export const defaultRender: Render = (n, order) => {
  const lines: string[] = [];
  if (n.kind === "admin_alert") {
    const minutes = Math.max(0, Math.floor((n.at - order.createdAt) / 60_000));
    lines.push(
      `Attention: order ${order.reference} is still ${order.status} after ${minutes} min.`,
    );
    lines.push(`User ${order.userId}, ${order.category}`);
  } else if (n.status === "success") {
    lines.push("Recharge successful");
  } else if (n.status === "failed") {
    lines.push("Recharge failed");
  } else {
    lines.push("Recharge in progress");
  }
  lines.push(`Reference: ${order.reference}`);
  lines.push(`Operator: ${order.operatorName}`);
  lines.push(`Number: ${order.connectionNo}`);
  const d = order.details;
  if ("packageName" in d && d.packageName) lines.push(`Package: ${d.packageName}`);
  lines.push(`Amount: ${formatRupees(order.amountPaisa, order.region)}`);
  lines.push(`Status: ${STATUS_TEXT[n.kind === "status" ? n.status : order.status]}`);
  if (n.kind === "status" && n.status === "failed") {
    lines.push(`Reason: ${order.providerMessage ?? "The operator did not complete the recharge."}`);
  }
  if (n.kind === "status" && n.status === "success" && order.transactionId) {
    lines.push(`Transaction: ${order.transactionId}`);
  }
  if (n.kind === "admin_alert" && n.note) lines.push(`Note: ${n.note}`);
  return { text: lines.join("\n") };
};

type AdminAlert = Extract<Notification, { kind: "admin_alert" }>;

/**
 * The books' alerts to admins (low float, books drift), in English like the other admin alerts.
 * The merchant's wallet is in Nepal rupees (one wallet serves both regions).
 */
export function booksAlertText(n: AdminAlert): string {
  const f = n.figures ?? {};
  const rs = (key: string) => (f[key] === undefined ? "unknown" : formatRupees(f[key]));
  if (n.topic === "low_float") {
    const lines = [
      f.balancePaisa === undefined
        ? `⚠️ The merchant's wallet at the aggregator is low (alert below ${rs("thresholdPaisa")}).`
        : `⚠️ The merchant's wallet at the aggregator is low: ${rs("balancePaisa")} (alert below ${rs("thresholdPaisa")}).`,
    ];
    if (n.reference) {
      lines.push(
        f.refused === 1
          ? `Order ${n.reference} was refused for it; customers are told the service is briefly unavailable.`
          : `Reported with order ${n.reference}.`,
      );
    }
    lines.push("Please top up the wallet. No more alerts until it is above the threshold again.");
    return lines.join("\n");
  }
  if (n.topic === "books_drift") {
    return [
      "⚠️ The books and the aggregator disagree about the merchant's wallet.",
      `Books expect: ${rs("expectedPaisa")}; the aggregator reports: ${rs("reportedPaisa")}.`,
      `Difference: ${rs("driftPaisa")} (tolerance ${rs("tolerancePaisa")}). See /books.`,
      ...(f.balanced === 0 ? ["The books do not balance: see /books."] : []),
    ].join("\n");
  }
  return `⚠️ ${n.note ?? "Admin alert"}`;
}
