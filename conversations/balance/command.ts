import { Composer, type InlineKeyboard } from "grammy";
import { formatPhone, isBalanceMove, type Phone } from "../../src/accounts/index.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, type Role, roleIn } from "../../src/bot/deps.ts";
import { formatOrderTime } from "../../src/bot/format.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { account, type JournalEntry } from "../../src/ledger/index.ts";
import { formatMoney } from "../../src/money.ts";
import { isProviderError } from "../../src/provider/index.ts";
import { type AgentBalance, agentBalanceText, fetchAgentBalance } from "./agent.ts";

/**
 * /balance, by role: a customer sees their own balance, what is held for orders under way and
 * their last movements in words; an agent their agent balance and the day's cash-ins; an admin
 * the aggregator wallet (and a pointer to /books, the merchant's books).
 */

/** One line of a customer's movements: plain data, so a flow can record it through `external`. */
interface Movement {
  at: number;
  kind: JournalEntry["kind"];
  /** Money towards the customer (credits, released holds) or away (holds, reversals). */
  direction: "in" | "out" | "settled";
  amountPaisa: number;
  /** The order of a hold, post or void. */
  order?: string;
  /** A balance move between the customer's accounts (an adjustment from customer to customer). */
  moved?: true;
}

/** What /balance found: plain data, so a flow can record it through `conversation.external`. */
export type BalanceResult =
  | { kind: "denied" }
  /** Staff mode: an unlisted user (the bot is private) or a listed one (the merchant pays). */
  | { kind: "private" }
  | { kind: "staff" }
  /** `ownPaisa`: an admin's own balance, which pays their orders (prepaid mode; else null). */
  | { kind: "unavailable"; ownPaisa: number | null }
  | { kind: "ok"; creditPaisa: number; ownPaisa: number | null }
  | {
      kind: "customer";
      phone: Phone | null;
      availablePaisa: number;
      heldPaisa: number;
      movements: Movement[];
      /** False when the journal was too long to read the movements whole: none are shown. */
      complete: boolean;
    }
  | AgentBalance;

const orderOf = (e: JournalEntry) => (e.pendingId ?? e.id).replace(/^order:/, "");

function movementOf(e: JournalEntry, acc: string): Movement {
  const base = { at: e.at, kind: e.kind, amountPaisa: e.amountPaisa };
  if (e.kind === "hold" || e.kind === "post" || e.kind === "void") {
    const direction = e.kind === "hold" ? "out" : e.kind === "void" ? "in" : "settled";
    return { ...base, direction, order: orderOf(e) };
  }
  const direction = e.credit === acc ? "in" : "out";
  return { ...base, direction, ...(isBalanceMove(e) ? { moved: true as const } : {}) };
}

/** The balance a user may see (also from the middle of a flow). */
export async function fetchBalance(
  deps: BotDeps,
  userId: number,
  /** The sender's channel role (`roleIn`), not the person's: a link never grants one. */
  role: Role,
): Promise<BalanceResult> {
  if (role === "admin") return walletBalance(deps, userId);
  const accounts = deps.accounts;
  if (role === "agent") {
    return fetchAgentBalance(accounts, userId, deps.payment.mode === "prepaid");
  }
  // Staff mode: customers have no balance to show; the merchant pays for the listed ones.
  if (deps.payment.mode === "staff") {
    return (await deps.payment.access(userId)) === "ok" ? { kind: "staff" } : { kind: "private" };
  }
  const [phone, s] = await Promise.all([
    accounts.phoneOf(userId),
    accounts.customerSummary(userId),
  ]);
  return {
    kind: "customer",
    phone,
    availablePaisa: s.balance.availablePaisa,
    heldPaisa: s.balance.heldPaisa,
    movements: s.movements.map((e) => movementOf(e, s.balance.account)),
    complete: s.complete,
  };
}

async function walletBalance(deps: BotDeps, userId: number): Promise<BalanceResult> {
  // Admins order from a balance of their own in prepaid mode, as agents do: shown beside.
  const ownPaisa =
    deps.payment.mode === "prepaid"
      ? (await deps.accounts.balanceOf(account.customer(userId))).availablePaisa
      : null;
  try {
    const wallet = await deps.provider.walletBalance();
    return { kind: "ok", creditPaisa: wallet.creditAvailablePaisa, ownPaisa };
  } catch (e) {
    if (!isProviderError(e)) throw e;
    deps.logger.warn({ kind: e.kind }, "wallet balance failed");
    return { kind: "unavailable", ownPaisa };
  }
}

function movementText(t: Translate, m: Movement): string {
  const time = formatOrderTime(m.at, "np", t.locale);
  const amount = formatMoney(m.amountPaisa, { locale: t.locale });
  if (m.kind === "hold") return t("movement-hold", { time, amount, ref: m.order ?? "" });
  if (m.kind === "post") return t("movement-post", { time, amount, ref: m.order ?? "" });
  if (m.kind === "void") return t("movement-void", { time, amount, ref: m.order ?? "" });
  if (m.kind === "cash_in") return t("movement-cash-in", { time, amount });
  if (m.kind === "demo_credit") return t("movement-demo", { time, amount });
  if (m.kind === "topup") return t("movement-topup", { time, amount });
  if (m.moved)
    return t(m.direction === "in" ? "movement-move-in" : "movement-move-out", { time, amount });
  // Money back to a customer is a complaint's refund (issue 30): every other reversal takes away.
  if (m.kind === "reversal" && m.direction === "in") return t("movement-refund", { time, amount });
  if (m.kind === "reversal") return t("movement-reversal", { time, amount });
  return t(m.direction === "in" ? "movement-in" : "movement-out", { time, amount });
}

export function balanceText(t: Translate, r: BalanceResult): string {
  const rs = (paisa: number) => formatMoney(paisa, { locale: t.locale });
  if (r.kind === "denied") return t("balance-denied");
  const own = (o: number | null) =>
    o === null ? [] : [t("balance-admin-own", { available: rs(o) })];
  if (r.kind === "unavailable") return [t("balance-unavailable"), ...own(r.ownPaisa)].join("\n\n");
  if (r.kind === "private") return t("access-private");
  if (r.kind === "staff") return t("balance-staff");
  if (r.kind === "ok") {
    const wallet = t("balance-result", { amount: rs(r.creditPaisa) });
    return [wallet, ...own(r.ownPaisa), t("balance-books")].join("\n\n");
  }
  if (r.kind === "agent") return agentBalanceText(t, r);
  const lines = [t("balance-customer", { available: rs(r.availablePaisa) })];
  if (r.heldPaisa > 0) lines.push(t("balance-held", { held: rs(r.heldPaisa) }));
  lines.push("");
  if (!r.complete) lines.push(t("balance-partial"));
  else if (r.movements.length === 0) lines.push(t("balance-none"));
  else lines.push(t("balance-movements"), ...r.movements.map((m) => movementText(t, m)));
  lines.push("");
  lines.push(
    r.phone ? t("balance-how-to-add", { phone: formatPhone(r.phone) }) : t("balance-unregistered"),
  );
  return lines.join("\n");
}

/**
 * The seam for buttons under /balance: another way of adding money (an online top-up's "Add
 * money") plugs in here, given the result it sits under. Nothing else about /balance changes.
 */
export type BalanceButtons = (t: Translate, r: BalanceResult) => InlineKeyboard | undefined;

export interface BalanceOptions {
  /** Buttons under the balance (e.g. a customer's "Add money"); none by default. */
  extraButtons?: BalanceButtons;
}

/** /balance: the customer's, the agent's or the aggregator wallet's, by role. */
export function balance(deps: BotDeps, opts: BalanceOptions = {}): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").command("balance", async (ctx) => {
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const r = await fetchBalance(deps, ctx.from.id, roleIn(deps.settings, ctx));
    const buttons = opts.extraButtons?.(t, r);
    await ctx.reply(balanceText(t, r), buttons ? { reply_markup: buttons } : {});
  });
  return composer;
}
