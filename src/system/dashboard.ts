import type { I18n } from "@grammyjs/i18n";
import {
  dashboardCommand,
  type MoveTold,
  type ReversalTeller,
  type ReversalTold,
  tellMove,
  tellReversal,
} from "../../conversations/index.ts";
import type { Accounts } from "../accounts/index.ts";
import { noteToAdmins } from "../books/admin-note.ts";
import type { Books } from "../books/index.ts";
import { raisedAlertLines } from "../bot/books-alerts.ts";
import type { BotContext } from "../bot/context.ts";
import { type BotSettings, roleOf } from "../bot/deps.ts";
import { createI18n, DEFAULT_LOCALE, translator } from "../bot/i18n.ts";
import type { Complaints } from "../complaints/index.ts";
import {
  createDashboard,
  type DashboardDeps,
  dashboardAccess,
  memoryKv,
  redisKv,
} from "../dashboard/index.ts";
import { type Orders, samePersonOf } from "../orders/index.ts";
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
    /** The journal's CSV, the metrics listener's own export (system/journal-export.ts). */
    journalCsv?: DashboardDeps["journalCsv"];
    /** The chat's own services, so the back office's money actions are the chat's operations. */
    topUps?: TopUps | undefined;
    /** The orders service: /settle's operation, for the order page (src/orders/settle.ts). */
    orders?: SettleOrders | undefined;
    /** Complaints on orders: the back office answers them with the chat's own service. */
    complaints?: Complaints | undefined;
    /** The chat's translations and a sender: a reversal made in the browser is told as /reverse tells it. */
    chat?: { i18n: I18n<BotContext>; send: (chatId: number, text: string) => Promise<void> };
  },
) {
  const { config, logger, now } = base;
  if (!config.dashboard.enabled) return undefined;
  // A reversal made in the browser is told through the chat's own telling (the same words, and
  // each person once across the chat's /reverse and the back office).
  const chat: ReversalTeller | undefined = parts.chat && {
    accounts: parts.accounts,
    i18n: parts.chat.i18n,
    fallbackLocale: DEFAULT_LOCALE,
    send: parts.chat.send,
    logger: logger.child({ part: "dashboard" }),
  };
  let en: ReturnType<typeof translator> | undefined;
  const english = () => {
    en ??= translator(parts.chat?.i18n ?? createI18n(() => DEFAULT_LOCALE), "en");
    return en;
  };
  // One deps object for the pages and the links: they share one store of links and sessions.
  const deps: DashboardDeps = {
    // Without Redis (local mode's memory stores) the links and sessions live in this process.
    kv: parts.redis ? redisKv(parts.redis) : memoryKv(),
    prefix: config.redis.prefix,
    orders: parts.stores.store,
    ledger: parts.stores.ledger,
    ...(parts.journalCsv ? { journalCsv: parts.journalCsv } : {}),
    books: parts.books,
    // The back office is in English, in /books's words for the alerts standing.
    booksAlertLines: (r) => raisedAlertLines(english(), r),
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
      ...(parts.orders ? { settle: settlePort(parts.orders, parts.settings) } : {}),
      // Maker-checker of the float's movements (books page): /settle's people, from ADMIN_IDS.
      admins: { ids: () => parts.settings.adminIds, same: samePersonOf(config.adminPeople) },
      alertAdmins: adminAlerts(parts.stores, now),
      orders: parts.stores.store,
      stuckAfterMs: config.reconciler.maxAgeMs,
      priceSchedule: config.pricing.schedule,
      accessMode: config.accessMode,
      ...(chat ? { tellReversed: (r: ReversalTold) => tellReversal(chat, r) } : {}),
      // A balance move (a changed WhatsApp number): both customers told, as a reversal is.
      ...(chat ? { tellMoved: (r: MoveTold) => tellMove(chat, r) } : {}),
      numberChanges: parts.stores.numberChanges,
    },
  };
  parts.app.route("/", createDashboard(deps));
  const access = dashboardAccess(deps);
  return { access, command: dashboardCommand({ issueLink: (id) => access.issueLink(id) }) };
}

type SettleOrders = Pick<
  Orders,
  "settle" | "settleable" | "withdrawSettle" | "settleNeedsApproval" | "sameAdmin"
>;

/** The chat's /settle for the order page; the admins told are the bot's, read on each use. */
function settlePort(orders: SettleOrders, settings: BotSettings) {
  return {
    settle: orders.settle,
    withdraw: orders.withdrawSettle,
    settleable: orders.settleable,
    adminIds: () => settings.adminIds,
    needsApproval: orders.settleNeedsApproval,
    sameAdmin: orders.sameAdmin,
  };
}

/**
 * An admin alert queued in the notifier's outbox in the step that marks it told (a crossing of its
 * own: once, retried by the notifier, not lost to a crash), as the WhatsApp hold's alert. The
 * topic is settle_proposed's: its note says it all, and a new topic is a shape an older notifier
 * would drop during a rolling deploy (docs/deploying.md).
 */
export function adminAlerts(stores: Pick<Stores, "crossings">, now: () => number) {
  return async (once: string, chatIds: readonly number[], note: string) => {
    if (chatIds.length === 0) return;
    const at = now();
    await stores.crossings.record(once, true, noteToAdmins(chatIds, at, note));
  };
}
