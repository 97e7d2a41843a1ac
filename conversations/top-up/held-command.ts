import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { translator } from "../../src/bot/i18n.ts";
import { formatRupees } from "../../src/money.ts";
import { ageText, type HeldDecision, type TopUp } from "../../src/payments/index.ts";
import { PARTIAL_REFUND_FLOW } from "../ids.ts";
import { heldFacts } from "./notices.ts";
import {
  customerOf,
  partialRefundButton,
  partialRefundButtons,
  partialRefundLine,
} from "./partial-refund.ts";

/**
 * /topups (admins): the top-ups held because the gateway's lookup did not match what was initiated
 * (another amount, above the caps, another currency or order). One message each, with what was
 * asked, what the gateway reports and why, and three buttons: credit what was asked, credit what
 * was paid (within the caps), reject. A decision is booked by the top-up service like any credit
 * (one ledger transfer, one atomic step); a second tap or a second admin finds it decided. The
 * bot cannot refund: a rejected payment is refunded in the gateway's merchant dashboard. In
 * English, the admins' working language here (as the top-up alerts).
 *
 * It also lists the top-ups waiting in partial_refund (in the admin's language), each with
 * "Enter the amount returned" and, before any credit, "Reject": both enter the partial refund
 * conversation (partial-refund.ts), so a partial refund is decided without the back office.
 */

const DATA = /^tuh:([ipr]):([A-Za-z0-9_-]{6,56})$/;
const DECISION: Record<string, HeldDecision> = {
  i: "credit_initiated",
  p: "credit_paid",
  r: "reject",
};
const LIST_MAX = 20;

function heldTopUpText(t: TopUp): string {
  return [`Held top-up ${t.paymentId} (${t.gateway}), user ${t.userId}.`, ...heldFacts(t)].join(
    "\n",
  );
}

/**
 * Open top-ups past the refund watch, one line each (nothing to decide: the gateway has not ended
 * them; they are looked up daily and a Completed still credits what was asked).
 */
function pastWatchText(at: number, open: readonly TopUp[]): string {
  return [
    "Open past the refund watch (nothing credited; looked up daily; check them in the gateway's merchant dashboard):",
    ...open.map(
      (x) =>
        `${x.paymentId} (${x.gateway}, ${x.id}): user ${x.userId}, ${formatRupees(x.amountPaisa)}, ${x.status}, ${ageText(at - x.createdAt)} old`,
    ),
  ].join("\n");
}

function buttons(t: TopUp): InlineKeyboard {
  const kb = new InlineKeyboard()
    .text(`Credit ${formatRupees(t.amountPaisa)} (asked)`, `tuh:i:${t.paymentId}`)
    .row()
    .text(`Credit ${formatRupees(t.held?.reportedPaisa ?? 0)} (paid)`, `tuh:p:${t.paymentId}`)
    .row()
    .text("Reject (refund at the gateway)", `tuh:r:${t.paymentId}`);
  return kb;
}

const REFUSED: Record<string, string> = {
  unknown: "No such top-up.",
  not_held: "Not held any more: another decision was taken.",
  paid_less: "Less was paid than asked: crediting what was asked would add money nobody paid.",
  above_cap: "Above TOPUP_MAX_AMOUNT or what TOPUP_DAILY_CAP leaves today: not credited.",
  currency: "Paid in another currency: credit what was asked or reject.",
  ledger_refused: "The books refused the credit (see the alert): nothing was written.",
  gateway_disagrees:
    "The gateway no longer reports this payment as completed with that amount (refunded or changed): not credited.",
  gateway_unavailable: "The gateway did not answer: nothing credited; try again later.",
};

export function heldTopUps(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  const isAdmin = (ctx: BotContext) => roleIn(deps.settings, ctx) === "admin";

  priv.command("topups", async (ctx) => {
    const topUps = deps.topUps;
    if (!isAdmin(ctx) || !topUps) {
      await ctx.reply(ctx.t("balance-denied"));
      return;
    }
    const held = await topUps.held(LIST_MAX);
    const partial = await topUps.partialRefunds(LIST_MAX);
    const past = await topUps.pastWatch(LIST_MAX);
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    if (held.length === 0 && partial.length === 0 && past.topUps.length === 0) {
      await ctx.reply(t("topup-partial-none-waiting"));
      return;
    }
    for (const x of partial) {
      const who = await customerOf(deps, x.userId);
      await ctx.reply(partialRefundLine(t, x, who), { reply_markup: partialRefundButtons(t, x) });
    }
    for (const h of held) await ctx.reply(heldTopUpText(h), { reply_markup: buttons(h) });
    if (past.topUps.length > 0) await ctx.reply(pastWatchText(past.at, past.topUps));
  });

  priv.on("callback_query:data", async (ctx, next) => {
    if (partialRefundButton.parse(ctx.callbackQuery.data) === null) return next();
    await ctx.answerCallbackQuery();
    // The conversation checks the admin and whether it still waits (a stale button says so).
    await ctx.conversation.enter(PARTIAL_REFUND_FLOW, ctx.callbackQuery.data);
  });

  priv.callbackQuery(DATA, async (ctx) => {
    const topUps = deps.topUps;
    if (!isAdmin(ctx) || !topUps) {
      await ctx.answerCallbackQuery();
      return;
    }
    const [, code, paymentId] = ctx.match as RegExpMatchArray;
    const decision = DECISION[code ?? ""];
    if (!decision || !paymentId) return;
    const r = await topUps.decide(paymentId, decision, ctx.from.id);
    await ctx.answerCallbackQuery();
    const outcome = r.ok
      ? r.topUp.status === "rejected"
        ? `Rejected by you: nothing credited. Refund it in ${r.topUp.gateway}'s merchant dashboard; the customer was told.`
        : `Credited ${formatRupees(r.topUp.creditedPaisa ?? 0)} by you; the customer was told.`
      : REFUSED[r.reason];
    await ctx.reply(`${paymentId}: ${outcome}`);
  });
  return composer;
}
