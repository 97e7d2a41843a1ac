import type { I18n } from "@grammyjs/i18n";
import { dashboardCommand } from "../../conversations/index.ts";
import { type Accounts, formatPhone } from "../accounts/index.ts";
import type { Books } from "../books/index.ts";
import type { BotContext } from "../bot/context.ts";
import { type BotSettings, roleOf } from "../bot/deps.ts";
import { DEFAULT_LOCALE, isLocale, translator } from "../bot/i18n.ts";
import type { Complaints } from "../complaints/index.ts";
import {
  createDashboard,
  type DashboardDeps,
  dashboardAccess,
  memoryKv,
  redisKv,
} from "../dashboard/index.ts";
import { account } from "../ledger/index.ts";
import { formatMoney } from "../money.ts";
import type { TopUps } from "../payments/index.ts";
import type { RedisClient } from "../redis/connection.ts";
import type { Base } from "./base.ts";
import type { HttpApp } from "./server.ts";
import type { Stores } from "./stores.ts";

/**
 * The back office when DASHBOARD is on: mounted under /dashboard on the public app, over the
 * product's stores and books, with roles read from the bot's own settings on every request; and
 * /dashboard in the chat, which sends its one-time link. Undefined when it is off.
 */
export function wireDashboard(
  base: Base,
  parts: {
    app: HttpApp;
    redis: RedisClient | undefined;
    stores: Stores;
    books: Books;
    accounts: Accounts;
    settings: BotSettings;
    selfUrl: string;
    /** The chat's own services, so the back office's money actions are the chat's operations. */
    topUps?: TopUps | undefined;
    /** Complaints on orders: the back office answers them with the chat's own service. */
    complaints?: Complaints | undefined;
    /** The chat's translations and a sender: a reversal made in the browser is told as /reverse tells it. */
    chat?: { i18n: I18n<BotContext>; send: (chatId: number, text: string) => Promise<void> };
  },
) {
  const { config, logger, now } = base;
  if (!config.dashboard.enabled) return undefined;
  // One deps object for the pages and the links: they share one store of links and sessions.
  const deps: DashboardDeps = {
    // Without Redis (local mode's memory stores) the links and sessions live in this process.
    kv: parts.redis ? redisKv(parts.redis) : memoryKv(),
    prefix: config.redis.prefix,
    orders: parts.stores.store,
    ledger: parts.stores.ledger,
    books: parts.books,
    roleOf: (userId) => roleOf(parts.settings, userId),
    now,
    publicUrl: config.http.publicUrl ?? parts.selfUrl,
    sent: parts.stores.sentLog,
    logger: logger.child({ part: "dashboard" }),
    // Customers and agents: the same blocked list the chat reads on every access check.
    people: {
      phoneOf: (id) => parts.accounts.phoneOf(id),
      userByPhone: (phone) => parts.accounts.userByPhone(phone),
      profileOf: (id) => parts.accounts.profileOf(id),
      localeOf: (id) => parts.accounts.localeOf(id),
      blocked: parts.stores.blocked,
      ordersOf: (id, limit) => parts.stores.store.listByUser(id, limit),
      joined: (offset, limit) => parts.accounts.joined(offset, limit),
    },
    // Money actions, alerts and the price schedule: the chat's own operations.
    actions: {
      accounts: parts.accounts,
      ...(parts.topUps ? { topUps: parts.topUps } : {}),
      ...(parts.complaints ? { complaints: parts.complaints } : {}),
      orders: parts.stores.store,
      lowFloatPaisa: config.books.lowFloatAlertPaisa,
      stuckAfterMs: config.reconciler.maxAgeMs,
      priceSchedule: config.pricing.schedule,
      ...(parts.chat ? { tellReversed: reversalTeller(parts.accounts, parts.chat) } : {}),
    },
  };
  parts.app.route("/", createDashboard(deps));
  const access = dashboardAccess(deps);
  return { access, command: dashboardCommand({ issueLink: (id) => access.issueLink(id) }) };
}

/** The party's notice of a reversal made in the back office: /reverse's own text, in their language. */
function reversalTeller(
  accounts: Accounts,
  chat: { i18n: I18n<BotContext>; send: (chatId: number, text: string) => Promise<void> },
) {
  return async (r: {
    userId: number;
    originalId: string;
    amountPaisa: number;
    reason: string;
    balancePaisa: number;
  }) => {
    const kept = await accounts.localeOf(r.userId).catch(() => null);
    const t = translator(chat.i18n, isLocale(kept) ? kept : DEFAULT_LOCALE);
    const money = (paisa: number) => formatMoney(paisa, { locale: t.locale });
    await chat.send(
      r.userId,
      t("reverse-notice", {
        amount: money(r.amountPaisa),
        ref: r.originalId,
        reason: r.reason,
        balance: money(r.balancePaisa),
      }),
    );
    await tellAgentReversed(accounts, chat, r);
  };
}

/** A cash-in's agent is told its reversal too, once (the chat's /reverse tells them the same way). */
async function tellAgentReversed(
  accounts: Accounts,
  chat: { i18n: I18n<BotContext>; send: (chatId: number, text: string) => Promise<void> },
  r: { userId: number; originalId: string; amountPaisa: number; reason: string },
): Promise<void> {
  const original = await accounts.receipt(r.originalId);
  if (original?.kind !== "cash_in" || original.by <= 0) return;
  if (!(await accounts.firstNotice(`rev-${original.id}`, "agent"))) return;
  const kept = await accounts.localeOf(original.by).catch(() => null);
  const t = translator(chat.i18n, isLocale(kept) ? kept : DEFAULT_LOCALE);
  const phone = await accounts.phoneOf(r.userId);
  const balance = await accounts.balanceOf(account.agent(original.by));
  await chat.send(
    original.by,
    t("reverse-notice-agent", {
      amount: formatMoney(r.amountPaisa, { locale: t.locale }),
      ref: original.id,
      customer: phone ? formatPhone(phone) : String(r.userId),
      reason: r.reason,
      balance: formatMoney(balance.availablePaisa, { locale: t.locale }),
    }),
  );
}
