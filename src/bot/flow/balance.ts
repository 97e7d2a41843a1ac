import { InlineKeyboard } from "grammy";
import { formatMoney } from "../../money.ts";
import { accessOf } from "../access.ts";
import { addMoneyButtonData } from "../callback-data.ts";
import type { Role } from "../deps.ts";
import { formatOrderTime } from "../format.ts";
import { askUntil, CB, type FlowScope } from "./prompt-loop.ts";

/**
 * No dead ends for a short balance (issue 30). Before the first question of a paid flow the
 * balance is weighed: with nothing to spend the customer is told at once, with Add money (or who
 * can add it), not after answering every question. At the confirmation a shortfall keeps every
 * answer: "Add Rs X and continue" opens a top-up whose credited notice carries Continue, and
 * Continue (there, or under the question) brings the confirmation back, priced afresh; without a
 * gateway "Check again" does the same once an agent cashed money in.
 */

/** Who pays: their ids, language and role (an agent's float is no balance of their own). */
export interface Payer {
  userId: number;
  chatId: number;
  locale: string;
  role?: Role;
}

/** Below this (Rs 1) there is nothing to spend. */
const NOTHING_PAISA = 100;

const npr = (s: FlowScope, paisa: number) =>
  formatMoney(paisa, { region: "np", locale: s.t.locale });

/** Staff (agents, admins) pay from a balance of their own: their float is for cash-ins. */
const isStaff = (p: Payer) => p.role === "agent" || p.role === "admin";

/** How money reaches this payer's balance, when no button can add it. */
function wayIn(s: FlowScope, p: Payer): string {
  if (isStaff(p)) return s.t("balance-own-agent");
  return s.deps.topUps ? "" : s.t("balance-cash-in");
}

/**
 * Before the first question: false (after saying so, with Add money when a gateway is wired) when
 * a prepaid customer has nothing to spend. Who may not order at all is left to the gates that say
 * so (the menu, the checkout).
 */
export async function weighBalance(
  s: FlowScope,
  p: Payer,
  /** The balance's read, begun already (toolkit.ts `steps`); absent: read here. */
  begun?: Promise<number>,
): Promise<boolean> {
  const { deps } = s;
  if (deps.payment.mode !== "prepaid") return true;
  const { access, balance } = await s.conversation.external(async () => ({
    access: await accessOf(deps, p.userId),
    balance: await (begun ?? deps.payment.availablePaisa(p.userId)),
  }));
  if (access !== "ok" || balance >= NOTHING_PAISA) return true;
  const text = [s.t("balance-empty", { balance: npr(s, balance) }), wayIn(s, p)]
    .filter(Boolean)
    .join("\n");
  const kb = deps.topUps
    ? new InlineKeyboard().text(s.t("topup-button"), addMoneyButtonData.data)
    : undefined;
  await s.ctx.reply(text, kb ? { reply_markup: kb } : {});
  return false;
}

/** What the balance holds and what the order takes from it, in Nepal paisa. */
export interface Shortfall {
  balancePaisa: number;
  totalPaisa: number;
}

/** The shortfall in words, and how money gets in (role-aware: no "an agent can credit it" to agents). */
export function shortText(s: FlowScope, p: Payer, short: Shortfall, kept = false): string {
  const lines = [
    s.t("balance-short-by", {
      balance: npr(s, short.balancePaisa),
      total: npr(s, short.totalPaisa),
      shortfall: npr(s, short.totalPaisa - short.balancePaisa),
    }),
    wayIn(s, p),
    kept ? s.t("shortfall-kept") : "",
  ];
  return lines.filter(Boolean).join("\n");
}

/**
 * What to add: the shortfall in whole rupees, at least the gateway's least top-up, within
 * TOPUP_MAX_AMOUNT and what the daily top-up cap leaves today (read in `external`, so a replay
 * reads nothing). Over what the cap leaves: no button, and `capped` says what is left today and
 * when it resets (review s33-rvpay 1: the button was offered, and its tap refused, again and again).
 */
async function toAdd(
  s: FlowScope,
  p: Payer,
  short: Shortfall,
): Promise<{ add?: number; capped?: string }> {
  const topUps = s.deps.topUps;
  if (!topUps) return {};
  const add = Math.max(
    topUps.minPaisa,
    Math.ceil((short.totalPaisa - short.balancePaisa) / 100) * 100,
  );
  if (add > topUps.maxPaisa) return {};
  const today = await s.conversation.external(async () => ({
    // Unread (the store down): offered as before; the start checks the cap again and says so.
    left: await topUps.remainingToday(p.userId).catch(() => Number.MAX_SAFE_INTEGER),
    // The top-up cap's day is the Nepal day, as the order cap's (limits.ts): it resets with it.
    resetAt: s.deps.limits.resetAt("daily_cap"),
  }));
  if (add <= today.left) return { add };
  const time = formatOrderTime(today.resetAt, "np", s.t.locale);
  return { capped: s.t("shortfall-topup-cap", { left: npr(s, today.left), time }) };
}

/**
 * The confirmation cannot be paid: the shortfall with "Add Rs X and continue" (a gateway wired)
 * and "Check again". Resolves when the customer wants the confirmation again: Check again, or
 * Continue after the top-up (under the question or under its credited notice, whichever instance
 * the tap reaches: the conversation's state is in the shared store). Cancel ends the flow.
 */
export async function coverShortfall(s: FlowScope, p: Payer, short: Shortfall): Promise<void> {
  const { t } = s;
  for (;;) {
    // Read again each round: a refused start leaves less (or more) of today's cap.
    const { add, capped } = await toAdd(s, p, short);
    const text = [shortText(s, p, short, true), capped ?? ""].filter(Boolean).join("\n");
    const reason = `${t("common-use-buttons")}\n\n`;
    const choice = await askUntil<"add" | "again">(s, {
      text,
      buttons: () => {
        const kb = new InlineKeyboard();
        if (add !== undefined)
          kb.text(t("shortfall-add", { amount: npr(s, add) }), CB.addAndContinue.data).row();
        return kb.text(t("shortfall-check-again"), CB.resume.data);
      },
      onButton: (data) => {
        if (add !== undefined && CB.addAndContinue.is(data)) return { kind: "done", value: "add" };
        if (CB.resume.is(data)) return { kind: "done", value: "again" };
        return { kind: "stay" };
      },
      onMessage: () => ({ kind: "resend", text: `${reason}${text}` }),
      anywhere: (data) => CB.resume.is(data),
    });
    if (choice === "again" || add === undefined) return;
    if (await topUpAndWait(s, p, add)) return;
  }
}

/** Opens the top-up and waits for Continue; false when the gateway refused it (said why). */
async function topUpAndWait(s: FlowScope, p: Payer, add: number): Promise<boolean> {
  const { t, deps } = s;
  const topUps = deps.topUps;
  if (!topUps) return false;
  const started = await s.conversation.external(() =>
    topUps.start({
      userId: p.userId,
      chatId: p.chatId,
      locale: p.locale,
      amountPaisa: add,
      resume: true,
    }),
  );
  if (!started.ok) {
    await s.ctx.reply(
      started.reason === "daily_cap"
        ? t("topup-daily-cap", { remaining: npr(s, started.remainingPaisa) })
        : t(started.reason === "refused" ? "topup-refused" : "topup-gateway-down"),
    );
    return false;
  }
  const text = t("shortfall-pay", { amount: npr(s, add) });
  await askUntil<true>(s, {
    text,
    buttons: () =>
      new InlineKeyboard()
        .url(t("topup-pay-button"), started.topUp.paymentUrl)
        .row()
        .text(t("shortfall-continue"), CB.resume.data),
    onButton: (data) => (CB.resume.is(data) ? { kind: "done", value: true } : { kind: "stay" }),
    onMessage: () => ({ kind: "resend", text: `${t("common-use-buttons")}\n\n${text}` }),
    anywhere: (data) => CB.resume.is(data),
  });
  return true;
}
