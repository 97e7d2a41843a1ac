import { formatRupees } from "../money.ts";
import type { Notification, Order } from "../orders/model.ts";

/**
 * Turning a notification into chat text. Injected into the notifier so the bot renders with its
 * Fluent bundles in the order's locale (src/bot/notification-render.ts). `receiptText`, when given,
 * is what the receipt is edited to (the push itself says `text`).
 */
export type Render = (
  notification: Notification,
  order: Order,
) => { text: string; receiptText?: string };

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
    // Books that do not balance, alerted while the float had no verdict: no float figures.
    if (f.driftPaisa === undefined) {
      return [
        "⚠️ The books do not balance: money was created or lost. See /books.",
        "The wallet at the aggregator was not compared (a debit not known yet, or no answer).",
      ].join("\n");
    }
    return [
      "⚠️ The books and the aggregator disagree about the merchant's wallet.",
      `Books expect: ${rs("expectedPaisa")}; the aggregator reports: ${rs("reportedPaisa")}.`,
      `Difference: ${rs("driftPaisa")} (tolerance ${rs("tolerancePaisa")}). See /books.`,
      ...(f.balanced === 0 ? ["The books do not balance: see /books."] : []),
    ].join("\n");
  }
  return `⚠️ ${n.note ?? "Admin alert"}`;
}
