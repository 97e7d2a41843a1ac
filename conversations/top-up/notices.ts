import type { I18n } from "@grammyjs/i18n";
import { InlineKeyboard } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { flowButtons } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { DEFAULT_LOCALE, isLocale, type Translate, translator } from "../../src/bot/i18n.ts";
import { formatMoney, formatRupees, toDecimalString } from "../../src/money.ts";
import {
  type HeldReason,
  refundShortfall,
  TOPUP_CURRENCY,
  type TopUpNotice,
  type UnreadableNotice,
} from "../../src/payments/index.ts";

/**
 * The buttons under a top-up notice: Continue under the credited notice of a top-up an order's
 * confirmation waits for (its "Add Rs X and continue"), which brings that confirmation back.
 */
export function topUpNoticeMarkup(
  i18n: I18n<BotContext>,
  n: TopUpNotice,
): InlineKeyboardMarkup | undefined {
  const t = n.topUp;
  if (n.audience !== "customer" || t.status !== "completed" || !t.resume) return undefined;
  const tr = translator(i18n, isLocale(t.locale) ? t.locale : DEFAULT_LOCALE);
  return new InlineKeyboard().text(tr("shortfall-continue"), flowButtons.resume.data);
}

/**
 * The chat text of a top-up notice: the customer's in the language the top-up was started in;
 * the admins' in English (their working language here, as the order alerts).
 */
export function topUpNoticeText(i18n: I18n<BotContext>, n: TopUpNotice): string {
  const t = n.topUp;
  if (n.audience === "admin") {
    const credited = t.creditedPaisa ?? 0;
    const reversed = t.reversedPaisa ?? 0;
    const returned = t.partialRefund?.decision?.returnedPaisa;
    // What should have been taken back: the credit, or the admin's figure of a partial refund.
    const owed = returned ?? credited;
    const lines =
      n.reason === "refund"
        ? returned !== undefined
          ? [
              `Partial refund of top-up ${t.paymentId} (${t.gateway}) booked: admin ${t.partialRefund?.decision?.adminId} entered ${formatRupees(returned)} returned by ${t.gateway}.`,
              `User ${t.userId}; credited ${formatRupees(credited)}, taken back ${formatRupees(reversed)}.`,
            ]
          : [
              `Attention: ${t.gateway} reports top-up ${t.paymentId} refunded.`,
              `User ${t.userId}; credited ${formatRupees(credited)}, taken back ${formatRupees(reversed)}.`,
            ]
        : n.reason === "partial_refund"
          ? partialAlert(t)
          : n.reason === "held"
            ? heldAlert(translator(i18n, "en"), t)
            : n.reason === "unknown_status"
              ? unknownAlert(t, n.refundWatchUntil)
              : n.reason === "stuck"
                ? [
                    `Attention: top-up ${t.paymentId} (${t.gateway}) of user ${t.userId}, ${formatRupees(t.amountPaisa)}, is still ${t.status} more than an hour after its payment link expired.`,
                    "Nothing was credited. Please check it in the gateway's merchant dashboard.",
                  ]
                : [
                    `Attention: top-up ${t.paymentId} (${t.gateway}) of user ${t.userId} could not be booked.`,
                    `Status ${t.status}; the books refused the transfer. Please look at it.`,
                  ];
    if (n.reason === "refund" && reversed < owed)
      lines.push(
        `The balance was short by ${formatRupees(owed - reversed)} (an order's hold had it, or it was spent): the rest is taken back by itself as money comes into the customer's balance, and the customer is told each time. If it never can be, write it off with a reason: /writeoff ${t.paymentId} <reason> (booked from merchant:adjustments).`,
      );
    return lines.join("\n");
  }
  const tr = translator(i18n, isLocale(t.locale) ? t.locale : DEFAULT_LOCALE);
  const money = (p: number) => formatMoney(p, { locale: tr.locale });
  const balance = money(n.balancePaisa ?? 0);
  switch (t.status) {
    case "completed":
      return tr("topup-credited", { amount: money(t.creditedPaisa ?? 0), balance });
    case "refunded": {
      // A refund's rest the balance lacked, taken back later: what this taking took (review
      // s31-pay, 4b); the refund itself was told before.
      const r = t.refundRecovery;
      if (r && t.notified === "refunded" && r.takenPaisa > r.toldPaisa) {
        const still = refundShortfall(t);
        const vars = {
          amount: money(t.creditedPaisa ?? 0),
          taken: money(r.takenPaisa - r.toldPaisa),
        };
        return still > 0
          ? tr("topup-refund-taken", { ...vars, owed: money(still), balance })
          : tr("topup-refund-taken-all", { ...vars, balance });
      }
      return refundedText(tr, t, money, balance);
    }
    case "partial_refund": {
      // Khalti's lookup does not say how much: no figure but the payment's own; nor "part" when
      // it said only Completed with refunded: true (the refund may be whole).
      const paid = t.creditedPaisa ?? t.partialRefund?.uncredited?.reportedPaisa ?? t.amountPaisa;
      const key = t.partialRefund?.mayBeWhole ? "topup-refund-unknown" : "topup-refund-partial";
      return tr(key, { amount: money(paid) });
    }
    case "expired":
      return tr("topup-expired", { amount: money(t.amountPaisa) });
    case "held": {
      // An unknown status word: whether it was paid is not known, so no promise to add it.
      if (t.held?.reasons.includes("status"))
        return tr("topup-held-status", { amount: money(t.amountPaisa) });
      const paid = paidOtherThanAsked(t);
      return paid === null
        ? tr("topup-held", { amount: money(t.amountPaisa) })
        : tr("topup-held-paid", { paid: money(paid), asked: money(t.amountPaisa) });
    }
    case "rejected": {
      // Refunded at Khalti, wholly or in part, before any credit: only what it kept is owed.
      const uncredited = t.partialRefund?.uncredited;
      if (uncredited)
        return tr("topup-rejected-refund", { amount: money(uncredited.reportedPaisa) });
      const paid = paidOtherThanAsked(t);
      return paid === null
        ? tr("topup-rejected", { amount: money(t.amountPaisa) })
        : tr("topup-rejected-paid", { paid: money(paid), asked: money(t.amountPaisa) });
    }
    default:
      return tr("topup-cancelled", { amount: money(t.amountPaisa) });
  }
}

/**
 * What Khalti's lookup reported paid for a held top-up (or one rejected from a hold) when it is not
 * what was asked, in rupees: the payer is told that figure, not the asked one (review s31-pay, 3:
 * a payer of Rs 500 read that Rs 1,000 would be refunded). Null: the asked figure is the honest one
 * (the same amount held for another reason, an unknown status word, another currency).
 */
function paidOtherThanAsked(t: TopUpNotice["topUp"]): number | null {
  const h = t.held;
  if (!h?.reasons.includes("amount") || h.reasons.includes("status")) return null;
  if (h.reasons.includes("currency")) return null;
  return h.reportedPaisa === t.amountPaisa ? null : h.reportedPaisa;
}

/**
 * The customer's text of a refund: what was taken back, and (review s31-pay, 4b) the rest the
 * balance lacked, taken back later as money comes in.
 */
function refundedText(
  tr: Translate,
  t: TopUpNotice["topUp"],
  money: (p: number) => string,
  balance: string,
): string {
  const still = refundShortfall(t);
  const owedText = still > 0 ? ` ${tr("topup-refund-owed", { owed: money(still) })}` : "";
  const returned = t.partialRefund?.decision?.returnedPaisa;
  const uncredited = t.partialRefund?.uncredited;
  // Refunded before any credit: nothing was added, so nothing was taken back; the rest of a
  // partial refund was credited.
  if (uncredited && returned !== undefined && t.creditedPaisa !== undefined)
    return tr("topup-refunded-rest", {
      amount: money(uncredited.reportedPaisa),
      returned: money(returned),
      credited: money(t.creditedPaisa),
      balance,
    });
  if (t.creditedPaisa === undefined)
    return tr("topup-refunded-uncredited", {
      amount: money(uncredited?.reportedPaisa ?? t.amountPaisa),
      balance,
    });
  if (returned !== undefined)
    return (
      tr("topup-refunded-part", {
        amount: money(t.creditedPaisa ?? t.amountPaisa),
        returned: money(returned),
        reversed: money(t.reversedPaisa ?? 0),
        balance,
      }) + owedText
    );
  return (
    tr("topup-refunded", {
      amount: money(t.creditedPaisa ?? t.amountPaisa),
      reversed: money(t.reversedPaisa ?? 0),
      balance,
    }) + owedText
  );
}

/** Why the word after a credit is told: undocumented, never paid, or Completed with other figures. */
function unknownWhy(t: TopUpNotice["topUp"]): string {
  const u = t.unknownAfterCredit;
  if (u?.differs) {
    const d = u.differs;
    return `but with ${formatRupees(d.reportedPaisa)} and transaction id ${d.transactionId ?? "(none)"}, not what it said when it was credited (${formatRupees(t.held?.reportedPaisa ?? t.creditedPaisa ?? 0)}, ${(t.held ? t.held.transactionId : t.transactionId) ?? "(none)"})`;
  }
  return u?.contradicts ? "which says it was never paid" : `a word ${t.gateway} does not document`;
}

/**
 * The admins' alert of an unknown word after a credit. The refund watch goes on: a Refunded seen
 * before it ends reverses the credit by itself, so a credit taken back by hand meanwhile would be
 * taken twice (review s23-d, 5): it says until when to leave it.
 */
function unknownAlert(t: TopUpNotice["topUp"], watchUntil: number | undefined): string[] {
  const until =
    watchUntil !== undefined ? `${new Date(watchUntil).toISOString().slice(0, 16)} UTC` : undefined;
  return [
    `Attention: the ${t.gateway} lookup of top-up ${t.paymentId} of user ${t.userId}, credited ${formatRupees(t.creditedPaisa ?? 0)}, said status "${t.unknownAfterCredit?.statusWord ?? ""}", ${unknownWhy(t)}.`,
    `Nothing was changed: the credit stands and no money moved. Check the payment in ${t.gateway}'s merchant dashboard.`,
    until !== undefined
      ? `The refund watch goes on until ${until}: if ${t.gateway} reports it Refunded before then, the credit is taken back by itself and you get a refund alert. Do NOT take it back by hand before then (it would be taken twice); after that, only if the merchant dashboard shows the money went back to the payer and no refund alert came for this top-up.`
      : `The refund watch goes on: if ${t.gateway} reports it Refunded, the credit is taken back by itself and you get a refund alert. Do NOT take it back by hand while it is watched (it would be taken twice).`,
  ];
}

/** The admins' alert of a top-up record that does not parse (English, as the other alerts). */
export function unreadableNoticeText(n: UnreadableNotice): string {
  return [
    `Attention: the record of top-up ${n.paymentId} (${n.gateway}) could not be read (see the log). The reconciler took it off its schedule so the others go on: it is no longer looked up, credited, reversed or alerted on.`,
    `Check the payment in ${n.gateway}'s merchant dashboard and tell the developers; /topups lists such records.`,
  ].join("\n");
}

const HELD_WHY: Record<HeldReason, string> = {
  amount: "topup-held-why-amount",
  cap: "topup-held-why-cap",
  currency: "topup-held-why-currency",
  merchant: "topup-held-why-merchant",
  status: "topup-held-why-status",
};

/**
 * What was asked, what the gateway's lookup reports, and why it was held: /topups' list in the
 * admin's language, the held alert in English (`tr` an English translator).
 */
export function heldFacts(tr: Translate, t: TopUpNotice["topUp"]): string[] {
  const h = t.held;
  const money = (p: number) => formatMoney(p, { locale: tr.locale });
  // Another currency: its bare figure and the code the gateway gave ("140.00 USD"), never our
  // rupee sign before it (review s24-e, 9); no code or NPR: rupees.
  const code = h?.currency?.trim().toUpperCase();
  const reported =
    code === undefined || code === TOPUP_CURRENCY
      ? money(h?.reportedPaisa ?? 0)
      : `${toDecimalString(h?.reportedPaisa ?? 0)} ${code}`;
  const base = {
    asked: money(t.amountPaisa),
    gateway: t.gateway,
    reported,
    txn: h?.transactionId ?? "-",
  };
  const why = (h?.reasons ?? []).map((r) => tr(HELD_WHY[r])).join("; ");
  return [
    h?.purchaseOrderId
      ? tr("topup-held-asked-order", { ...base, order: h.purchaseOrderId })
      : tr("topup-held-asked", base),
    tr("topup-held-why", { why }),
    ...(h?.statusWord !== undefined
      ? [tr("topup-held-said", { gateway: t.gateway, said: h.statusWord })]
      : []),
  ];
}

/** The admins' alert for a held top-up: what was asked, what the gateway says, why, what to do. */
function heldAlert(en: Translate, t: TopUpNotice["topUp"]): string[] {
  // A status hold: nothing was said paid (review s23-d, 4).
  const second = t.held?.reasons.includes("status")
    ? `credit what ${t.gateway} reports once it says Completed`
    : "credit what was paid";
  const lines = [
    `Attention: top-up ${t.paymentId} (${t.gateway}) of user ${t.userId} is HELD: nothing was credited.`,
    ...heldFacts(en, t),
    `Decide with /topups: credit what was asked, ${second} (within the caps), or reject (a refund is made in ${t.gateway}'s merchant dashboard: the bot cannot refund).`,
  ];
  return lines;
}

/**
 * The admins' alert for a refund whose amount the gateway did not say (after a credit, or before
 * any: then the payer may be owed the rest): an admin must enter it, or reject an uncredited one.
 */
function partialAlert(t: TopUpNotice["topUp"]): string[] {
  const p = t.partialRefund;
  const what = p?.mayBeWhole
    ? "REFUNDED (status Completed, refunded: true) without saying how much: in whole or in part"
    : "PARTIALLY refunded";
  const u = p?.uncredited;
  if (u)
    return [
      `Attention: ${t.gateway} reports top-up ${t.paymentId} (${t.id}) of user ${t.userId} ${what}, BEFORE we credited it: nothing was credited.`,
      `Asked ${formatRupees(t.amountPaisa)}; the ${t.gateway} lookup reports ${formatRupees(u.reportedPaisa)} paid (txn ${u.transactionId ?? "-"}), not how much was returned: the payer may be owed the rest. The customer was told no figure.`,
      `With /topups here (or in the back office, Top-ups → Partial refunds, where it is on): enter the amount ${t.gateway} returned (its merchant dashboard shows it): the rest is then credited (within the caps) and the customer told; or reject it: nothing is credited, and refund the rest in ${t.gateway}'s merchant dashboard.`,
    ];
  return [
    `Attention: ${t.gateway} reports top-up ${t.paymentId} (${t.id}) of user ${t.userId} ${what}${p?.mayBeWhole ? "" : " (a PARTIAL refund)"}.`,
    `Credited ${formatRupees(t.creditedPaisa ?? 0)}. ${t.gateway}'s lookup does not say how much was returned: nothing was taken back, and the customer was told no figure.`,
    `Enter the amount ${t.gateway} returned (its merchant dashboard shows it${p?.mayBeWhole ? "; the whole credit if all of it was refunded" : ""}) with /topups here (or in the back office, Top-ups → Partial refunds, where it is on): exactly that is then taken back from the balance and the customer is told.`,
  ];
}
