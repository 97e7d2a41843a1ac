import { Composer, InlineKeyboard } from "grammy";
import { type HeldTopUpTap, heldTopUpButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { formatMoney, formatRupees } from "../../src/money.ts";
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

const DECISION: Record<HeldTopUpTap["d"], HeldDecision> = {
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

/**
 * Top-up records that do not parse: not hidden (review s23-d, 1). The reconciler no longer looks
 * them up or tells anyone of them, so an admin must check them in the gateway's dashboard.
 */
export function unreadableText(members: readonly string[]): string {
  return [
    `${members.length} top-up record${members.length === 1 ? "" : "s"} could not be read (see the log): ${members.slice(0, 10).join(", ")}${members.length > 10 ? ", …" : ""}.`,
    "They are no longer looked up, credited, reversed or alerted on: check each payment in the gateway's merchant dashboard and tell the developers.",
  ].join("\n");
}

/**
 * The decision buttons: a credit carries the gateway's figure shown in the message (it goes
 * through only while the gateway still reports it). On a hold for a status word the gateway does
 * not document, nothing was said paid: that credit is labelled "reported", not "paid".
 */
function buttons(t: Translate, x: TopUp): InlineKeyboard {
  const money = (p: number) => formatMoney(p, { locale: t.locale });
  const shownPaisa = x.held?.reportedPaisa ?? 0;
  const paid = x.held?.reasons.includes("status")
    ? "topup-held-credit-reported"
    : "topup-held-credit-paid";
  const rows: ReturnType<typeof InlineKeyboard.text>[][] = [];
  for (const [d, label] of [
    ["i", t("topup-held-credit-asked", { amount: money(x.amountPaisa) })],
    ["p", t(paid, { amount: money(shownPaisa) })],
    ["r", t("topup-held-reject")],
  ] as const) {
    const tap: HeldTopUpTap = { d, paymentId: x.paymentId, ...(d === "r" ? {} : { shownPaisa }) };
    // A payment id too long for Telegram's 64 bytes (not Khalti's): decided in the back office.
    if (heldTopUpButton.fits(tap))
      rows.push([InlineKeyboard.text(label, heldTopUpButton.build(tap))]);
  }
  return InlineKeyboard.from(rows);
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
    const unreadable = past.unreadable ?? [];
    if (
      held.length === 0 &&
      partial.length === 0 &&
      past.topUps.length === 0 &&
      unreadable.length === 0
    ) {
      await ctx.reply(t("topup-partial-none-waiting"));
      return;
    }
    for (const x of partial) {
      const who = await customerOf(deps, x.userId);
      await ctx.reply(partialRefundLine(t, x, who), { reply_markup: partialRefundButtons(t, x) });
    }
    for (const h of held) await ctx.reply(heldTopUpText(h), { reply_markup: buttons(t, h) });
    if (past.topUps.length > 0) await ctx.reply(pastWatchText(past.at, past.topUps));
    if (unreadable.length > 0) await ctx.reply(unreadableText(unreadable));
  });

  priv.on("callback_query:data", async (ctx, next) => {
    if (partialRefundButton.parse(ctx.callbackQuery.data) === null) return next();
    await ctx.answerCallbackQuery();
    // The conversation checks the admin and whether it still waits (a stale button says so).
    await ctx.conversation.enter(PARTIAL_REFUND_FLOW, ctx.callbackQuery.data);
  });

  priv.on("callback_query:data", async (ctx, next) => {
    const tap = heldTopUpButton.parse(ctx.callbackQuery.data);
    if (tap === null) return next();
    const topUps = deps.topUps;
    await ctx.answerCallbackQuery();
    if (!isAdmin(ctx) || !topUps) return;
    await decided(ctx, deps, topUps, tap);
  });
  return composer;
}

/** One press of a decision button: decided through the top-up service, the outcome in words. */
async function decided(
  ctx: BotContext,
  deps: BotDeps,
  topUps: NonNullable<BotDeps["topUps"]>,
  tap: HeldTopUpTap,
): Promise<void> {
  const { paymentId } = tap;
  const decision = DECISION[tap.d];
  const t = translator(deps.i18n, await ctx.i18n.getLocale());
  const money = (p: number) => formatMoney(p, { locale: t.locale });
  if (decision !== "reject" && tap.shownPaisa === undefined) {
    // A credit button sent before the figure was carried: its figure cannot be checked.
    await ctx.reply(t("topup-held-stale-button", { pid: paymentId }));
    return;
  }
  const r = await topUps.decide(paymentId, decision, ctx.from?.id ?? 0, tap.shownPaisa);
  if (!r.ok && r.reason === "figure_changed") {
    const x = await topUps.get(paymentId);
    // No "buttons below" when none go with it (another decision was taken meanwhile).
    const held = x?.status === "held";
    const words = t(held ? "topup-held-figure-changed" : "topup-held-figure-changed-decided", {
      pid: paymentId,
      gateway: x?.gateway ?? "",
      now: money(r.reportedPaisa),
      shown: money(r.shownPaisa),
    });
    await ctx.reply(words, held && x ? { reply_markup: buttons(t, x) } : {});
    return;
  }
  if (!r.ok && r.reason === "not_completed") {
    // What the gateway said, named: "not clear" was said of a plain Refunded too (s23-d, 2).
    const gateway = (await topUps.get(paymentId))?.gateway ?? "";
    const key = r.final ? "topup-held-not-completed-final" : "topup-held-not-completed";
    await ctx.reply(t(key, { pid: paymentId, gateway, said: r.said }));
    return;
  }
  const outcome = r.ok
    ? r.topUp.status === "rejected"
      ? `Rejected by you: nothing credited. Refund it in ${r.topUp.gateway}'s merchant dashboard; the customer was told.`
      : `Credited ${formatRupees(r.topUp.creditedPaisa ?? 0)} by you; the customer was told.`
    : REFUSED[r.reason];
  await ctx.reply(`${paymentId}: ${outcome}`);
}
