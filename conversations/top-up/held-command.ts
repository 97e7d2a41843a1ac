import { Composer, InlineKeyboard } from "grammy";
import { type HeldTopUpTap, heldTopUpButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { formatMoney } from "../../src/money.ts";
import type { HeldDecision, TopUp } from "../../src/payments/index.ts";
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
 * bot cannot refund: a rejected payment is refunded in the gateway's merchant dashboard. Every
 * reply in the admin's language (the alerts stay in English).
 *
 * It also lists the top-ups waiting in partial_refund, each with
 * "Enter the amount returned" and, before any credit, "Reject": both enter the partial refund
 * conversation (partial-refund.ts), so a partial refund is decided without the back office.
 */

const DECISION: Record<HeldTopUpTap["d"], HeldDecision> = {
  i: "credit_initiated",
  p: "credit_paid",
  r: "reject",
};
const LIST_MAX = 20;

function heldTopUpText(tr: Translate, t: TopUp): string {
  const title = tr("topup-held-title", {
    pid: t.paymentId,
    gateway: t.gateway,
    user: String(t.userId),
  });
  return [title, ...heldFacts(tr, t)].join("\n");
}

/** An age as /topups says it: whole days and hours. */
function ageWords(tr: Translate, ms: number): string {
  const hours = Math.max(0, Math.floor(ms / 3_600_000));
  return tr("topup-age", { days: Math.floor(hours / 24), hours: hours % 24 });
}

/**
 * Open top-ups past the refund watch, one line each (nothing to decide: the gateway has not ended
 * them; they are looked up daily and a Completed still credits what was asked).
 */
function pastWatchText(tr: Translate, at: number, open: readonly TopUp[]): string {
  const money = (p: number) => formatMoney(p, { locale: tr.locale });
  return [
    tr("topup-past-watch-title"),
    ...open.map((x) =>
      tr("topup-past-watch-line", {
        pid: x.paymentId,
        gateway: x.gateway,
        id: x.id,
        user: String(x.userId),
        amount: money(x.amountPaisa),
        status: OPEN_STATUS[x.status] ? tr(OPEN_STATUS[x.status]!) : x.status,
        age: ageWords(tr, at - x.createdAt),
      }),
    ),
  ].join("\n");
}

/**
 * Top-up records that do not parse: not hidden (review s23-d, 1). The reconciler no longer looks
 * them up or tells anyone of them, so an admin must check them in the gateway's dashboard.
 */
export function unreadableText(tr: Translate, members: readonly string[]): string {
  const ids = `${members.slice(0, 10).join(", ")}${members.length > 10 ? ", …" : ""}`;
  return [
    tr("topup-unreadable-count", { count: members.length, ids }),
    tr("topup-unreadable-what"),
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

/** A decision the service refused, in words (the locale files' keys). */
const REFUSED: Record<string, string> = {
  unknown: "topup-held-refused-unknown",
  not_held: "topup-held-refused-not-held",
  paid_less: "topup-held-refused-paid-less",
  above_cap: "topup-held-refused-above-cap",
  currency: "topup-held-refused-currency",
  ledger_refused: "topup-held-refused-ledger-refused",
  gateway_disagrees: "topup-held-refused-gateway-disagrees",
  gateway_unavailable: "topup-held-refused-gateway-unavailable",
};

const OPEN_STATUS: Record<string, string> = {
  initiated: "topup-past-watch-initiated",
  pending: "topup-past-watch-pending",
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
    for (const h of held) await ctx.reply(heldTopUpText(t, h), { reply_markup: buttons(t, h) });
    if (past.topUps.length > 0) await ctx.reply(pastWatchText(t, past.at, past.topUps));
    if (unreadable.length > 0) await ctx.reply(unreadableText(t, unreadable));
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
  const pid = paymentId;
  const outcome = r.ok
    ? r.topUp.status === "rejected"
      ? t("topup-held-rejected", { pid, gateway: r.topUp.gateway })
      : t("topup-held-credited", { pid, amount: money(r.topUp.creditedPaisa ?? 0) })
    : t(REFUSED[r.reason] ?? "topup-held-refused-unknown", { pid });
  await ctx.reply(outcome);
}
