import { formatRupees } from "../money.ts";
import type { Notification, Order } from "../orders/model.ts";

/**
 * Turning a notification into chat text. Injected into the notifier so the bot renders with its
 * Fluent bundles in the order's locale (src/bot/notification-render.ts). `receiptText`, when given,
 * is what the receipt is edited to (the push itself says `text`). `locale`, when given, is the
 * language the words are in: a push's words can then be rendered again in another (the WhatsApp
 * template's, src/whatsapp/template-language.ts) by rendering the order with that locale.
 */
export type Render = (
  notification: OrderNotification,
  order: Order,
) => { text: string; receiptText?: string; locale?: string };

/** A notification about an order (its status, an admin alert), rendered with the order. */
export type OrderNotification = Exclude<Notification, { kind: "complaint" }>;
export type ComplaintNotice = Extract<Notification, { kind: "complaint" }>;

/**
 * The words of a complaint's notice in its customer's language, from the complaint read now
 * (src/system/bot.ts), and the same words in another language (the WhatsApp template's), with
 * the complaint's account (whose notice it is, for a released WhatsApp chat); null: no such
 * complaint (nothing to tell).
 */
export type RenderNotice = (n: ComplaintNotice) => Promise<{
  text: string;
  locale: string;
  in: (locale: string) => string;
  userId?: number;
} | null>;

type AdminAlert = Extract<Notification, { kind: "admin_alert" }>;

/**
 * The books' alerts to admins (low float, and the books check's: float drift, books that do not
 * balance, no verdict for hours), in English like the other admin alerts.
 * The merchant's wallet is in Nepal rupees (one wallet serves both regions).
 */
export function booksAlertText(n: AdminAlert): string {
  // A customer's notice on this lane (noteToCustomer): their words, no alert's sign.
  if (n.toCustomer) return n.note ?? "";
  const f = n.figures ?? {};
  const rs = (key: string) => (f[key] === undefined ? "unknown" : formatRupees(f[key]));
  if (n.topic === "low_float") return lowFloatText(n, f, rs);
  if (n.topic === "books_drift") return booksCheckText(f, rs);
  // An admin's settlement and its contradiction (src/orders/state.ts) say it all in their note.
  return `⚠️ ${n.note ?? "Admin alert"}`;
}

/**
 * The low-float alert. A refusal alerts whatever the wallet holds: read at or above the threshold
 * afterwards (an order bigger than what is left), the wallet is said to be short for the order,
 * not low, and no threshold is promised that it already passes (review s32-books 4).
 */
function lowFloatText(
  n: AdminAlert,
  f: Record<string, number>,
  rs: (key: string) => string,
): string {
  const short =
    f.refused === 1 &&
    f.balancePaisa !== undefined &&
    f.thresholdPaisa !== undefined &&
    f.balancePaisa >= f.thresholdPaisa;
  const lines = [
    short
      ? `⚠️ The merchant's wallet at the aggregator is short: it holds ${rs("balancePaisa")}, less than an order needed (the low-wallet alert is below ${rs("thresholdPaisa")}).`
      : f.balancePaisa === undefined
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
  lines.push(
    short
      ? "Please top up the wallet. No more alerts until an order goes through with the wallet at or above the threshold."
      : "Please top up the wallet. No more alerts until it is above the threshold again.",
  );
  return lines.join("\n");
}

/**
 * The books check's alerts share the `books_drift` topic (a topic of its own would be refused by
 * the previous version's notifier during a rolling deploy); their figures tell them apart:
 * `noVerdictHours` (the check could not conclude), `driftPaisa` (the float against the
 * aggregator's wallet), else the books do not balance. An alert of the previous version named both
 * in one: a difference within the tolerance with `balanced` 0 was about the books alone.
 */
function booksCheckText(f: Record<string, number>, rs: (key: string) => string): string {
  if (f.noVerdictHours !== undefined) {
    return [
      `⚠️ The books check could not conclude for ${f.noVerdictHours} hours: the merchant's wallet at the aggregator was not compared with the books.`,
      f.walletAnswered === 0
        ? "The aggregator's wallet did not answer at the last try."
        : `At the last try, ${f.unknownDebits ?? 0} orders' debits were not known yet (orders in flight).`,
      "The check keeps trying; a drift meanwhile is not seen. See /books.",
    ].join("\n");
  }
  const driftTold =
    f.driftPaisa !== undefined &&
    !(f.balanced === 0 && Math.abs(f.driftPaisa) <= (f.tolerancePaisa ?? 0));
  if (driftTold) {
    const lines = [
      "⚠️ The books and the aggregator disagree about the merchant's wallet.",
      `Books expect: ${rs("expectedPaisa")}; the aggregator reports: ${rs("reportedPaisa")}.`,
      `Difference: ${rs("driftPaisa")} (tolerance ${rs("tolerancePaisa")}). See /books.`,
    ];
    // Told again: the drift moved beyond the tolerance from the one told before.
    if (f.toldPaisa !== undefined) {
      lines.push(
        `It has moved since the last alert, which told a difference of ${rs("toldPaisa")}.`,
      );
    }
    if (f.unknownDebits !== undefined && f.unknownDebits > 0) {
      lines.push(
        `${f.unknownDebits} orders were in flight: they could explain at most ${rs("unknownBoundPaisa")} of it.`,
      );
    }
    // The previous version's alert, about both.
    if (f.balanced === 0) lines.push("The books do not balance: see /books.");
    return lines.join("\n");
  }
  const lines = ["⚠️ The books do not balance: money was created or lost."];
  const failed = [
    f.differences ? `${f.differences} stored balances differ from the journal` : "",
    f.belowZero ? `${f.belowZero} accounts are below zero` : "",
    f.pendingProblems ? `${f.pendingProblems} hold problems` : "",
  ].filter((x) => x !== "");
  if (failed.length > 0) lines.push(`Found: ${failed.join("; ")}.`);
  if (f.postedSumPaisa !== undefined && (f.postedSumPaisa !== 0 || f.pendingSumPaisa !== 0)) {
    lines.push(
      `The ledger's sums are not zero: posted ${rs("postedSumPaisa")}, pending ${rs("pendingSumPaisa")}.`,
    );
  }
  lines.push("See /books.");
  return lines.join("\n");
}
