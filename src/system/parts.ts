import type { UserFromGetMe } from "grammy/types";
import { createAccounts } from "../accounts/index.ts";
import { isStaffId } from "../bot/deps.ts";
import type { SandboxOverrides } from "../local-mode.ts";
import type { RedisClient } from "../redis/connection.ts";
import { createTelegramContact } from "../telegram/api.ts";
import type { Base } from "./base.ts";
import {
  type BotApiTarget,
  botDeps,
  chatSender,
  createChatI18n,
  wireBot,
  wireIdleSweeper,
  wireNotifier,
} from "./bot.ts";
import { wireCatalog } from "./catalog.ts";
import { wireComplaints } from "./complaints.ts";
import { wireDashboard } from "./dashboard.ts";
import { journalExport } from "./journal-export.ts";
import { loadLocalMode } from "./local.ts";
import { wireMoneyPath } from "./money-path.ts";
import { watchOperations } from "./operations.ts";
import { wireReminders } from "./reminders.ts";
import type { PublicListener } from "./server.ts";
import { mountTelegramWebhook } from "./start.ts";
import { type Stores, wireStores } from "./stores.ts";
import { wireTopUps } from "./top-up.ts";
import { WHATSAPP_ONLY_TOKEN, wireWhatsApp } from "./whatsapp.ts";

export interface WireOptions {
  now?: (() => number) | undefined;
  sandbox?: SandboxOverrides | undefined;
  botInfo?: UserFromGetMe | undefined;
  /** The journal's CSV on a thread of its own (this process made its own Redis connection). */
  journalOffThread?: boolean | undefined;
}

/**
 * Every part of one process, each built once and complete, in the order they need each other:
 * the outside (local mode's stand-ins, or the real one), the stores, the money path, the
 * catalogue, accounts and top-ups, then the chat on top. Mounted on the public app; nothing is
 * started yet (startSystem does that).
 */
export async function wireParts(
  base: Base,
  opts: WireOptions,
  redis: RedisClient | undefined,
  listener: PublicListener,
) {
  const outside = await wireOutside(base, opts, listener);
  const below = wireBelowChat(base, outside, redis, listener);
  if (outside.local) {
    await outside.local.attachBooks({
      ledger: below.stores.ledger,
      accounts: below.accounts,
      logger: base.logger,
    });
  }
  const journalCsv = journalExport(base, below.stores.ledger, opts.journalOffThread === true);
  const chat = wireChat(base, opts, { ...outside, ...below, redis, listener, journalCsv });
  return { ...outside, ...below, ...chat, journalCsv };
}

export type Parts = Awaited<ReturnType<typeof wireParts>>;

/** Who we talk to: local mode's stand-ins when nothing real is configured, else the real ones. */
async function wireOutside(base: Base, opts: WireOptions, { app, gate, server }: PublicListener) {
  const { config } = base;
  const local = await loadLocalMode(base, {
    app,
    selfUrl: server.url,
    sandbox: opts.sandbox,
    now: opts.now,
  });
  if (local) gate.early = local.servesEarly;
  // Without the emulator BOT_TOKEN is set, or WhatsApp runs alone (the bot then never reaches
  // a Bot API: the WhatsApp router answers the calls that name no chat).
  const botApi: BotApiTarget = local?.botApi ?? {
    token: config.bot.token ?? WHATSAPP_ONLY_TOKEN,
    apiRoot: config.bot.apiRoot,
  };
  return {
    local,
    roles: local?.roles ?? { agentIds: config.bot.agentIds, adminIds: config.bot.adminIds },
    /** The aggregator to call: the embedded sandbox, or PROVIDER_URL. */
    providerTarget: local?.provider ?? {
      baseUrl: config.provider.baseUrl,
      token: config.provider.token,
    },
    botApi,
    /** Whether a Telegram bot runs (the emulator or BOT_TOKEN); false when WhatsApp runs alone. */
    telegramOn: local?.botApi !== undefined || config.bot.telegram,
    /** The WhatsApp number: WHATSAPP_*, or the local stand-in's. */
    whatsappSettings: config.whatsapp ?? local?.whatsapp,
    /** When the Bot API last answered (any client of it): /healthz reports it. */
    telegram: createTelegramContact(),
  };
}

type Outside = Awaited<ReturnType<typeof wireOutside>>;

/** The stores, the money path, the catalogue, the accounts and the top-ups: all below the chat. */
function wireBelowChat(
  base: Base,
  outside: Outside,
  redis: RedisClient | undefined,
  { app, server }: PublicListener,
) {
  const { roles } = outside;
  const stores: Stores = wireStores(base, redis);
  const money = wireMoneyPath(base, {
    app,
    stores,
    target: outside.providerTarget,
    adminIds: roles.adminIds,
  });
  const { catalog, catalogSync } = wireCatalog(base, money.provider, redis);
  const accounts = createAccounts({
    ledger: stores.ledger,
    store: stores.accounts,
    links: stores.links,
    now: base.now,
  });
  const i18n = createChatI18n(base.categories);
  const whatsapp = wireWhatsApp(base, {
    settings: outside.whatsappSettings,
    redis,
    accounts,
    i18n,
    app,
    telegram: outside.telegramOn,
    isStaff: (id) => isStaffId(roles, id),
    crossings: stores.crossings,
    adminIds: roles.adminIds,
    forgetChat: (chatId) => stores.chatState.forget(chatId),
    idle: stores.idle,
    numberChanges: stores.numberChanges,
  });
  // A chat that changes hands loses its last numbered list too (a typed digit presses nothing).
  if (whatsapp) stores.chatState.alsoForget((chatId) => whatsapp.store.forgetButtons(chatId));
  const channelFetch = whatsapp?.fetch;
  const topUp = wireTopUps(base, {
    app,
    stores,
    selfUrl: server.url,
    standIn: outside.local?.khalti,
    adminIds: roles.adminIds,
    i18n,
    send: chatSender(base, outside.botApi, outside.telegram, channelFetch),
  });
  const operations = watchOperations(base, {
    redis,
    stores,
    provider: money.providerWatch,
    gateway: topUp !== undefined,
  });
  return {
    stores,
    money,
    catalog,
    catalogSync,
    accounts,
    i18n,
    topUp,
    operations,
    whatsapp,
    channelFetch,
  };
}

/** The chat on top of it all: the bot, its pushes, its idle notices and Telegram's webhook. */
function wireChat(
  base: Base,
  opts: WireOptions,
  parts: Outside &
    ReturnType<typeof wireBelowChat> & {
      redis: RedisClient | undefined;
      listener: PublicListener;
      journalCsv: ReturnType<typeof journalExport>;
    },
) {
  const { stores, money } = parts;
  const complaints = wireComplaints(base, {
    stores,
    orders: money.orders,
    adminIds: parts.roles.adminIds,
  });
  const deps = botDeps(base, {
    catalog: parts.catalog,
    provider: money.provider,
    orders: money.orders,
    stores,
    accounts: parts.accounts,
    i18n: parts.i18n,
    roles: parts.roles,
    books: money.books,
    topUps: parts.topUp?.topUps,
    waChats: parts.whatsapp?.store,
  });
  deps.complaints = complaints;
  const dashboard = wireDashboard(base, {
    app: parts.listener.app,
    redis: parts.redis,
    stores,
    books: money.books,
    accounts: parts.accounts,
    settings: deps.settings,
    selfUrl: parts.listener.server.url,
    journalCsv: parts.journalCsv,
    topUps: parts.topUp?.topUps,
    complaints,
    orders: money.orders,
    chat: {
      i18n: parts.i18n,
      send: chatSender(base, parts.botApi, parts.telegram, parts.channelFetch),
    },
  });
  const bot = wireBot(base, deps, {
    target: parts.botApi,
    telegram: parts.telegram,
    redis: parts.redis,
    botInfo: opts.botInfo,
    extraCommands: dashboard ? [dashboard.command] : [],
    channelFetch: parts.channelFetch,
  });
  const notifier = wireNotifier(base, {
    stores,
    orders: money.orders,
    bot,
    deps,
    whatsapp: parts.channelFetch !== undefined,
  });
  const idleSweeper = wireIdleSweeper(base, { stores, bot, deps });
  const reminders = wireReminders(base, { stores, bot, deps, accounts: parts.accounts });
  const hook = parts.telegramOn
    ? mountTelegramWebhook(base, parts.listener.app, bot, parts.botApi.token)
    : undefined;
  return { deps, bot, notifier, idleSweeper, hook, dashboard, reminders };
}
