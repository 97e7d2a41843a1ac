import type { I18n } from "@grammyjs/i18n";
import { Api, type Composer } from "grammy";
import type { InlineKeyboardMarkup, UserFromGetMe } from "grammy/types";
import { botFeatures } from "../../conversations/index.ts";
import { type Accounts, accessVerdict } from "../accounts/index.ts";
import type { BotContext } from "../bot/context.ts";
import { createBot } from "../bot/create-bot.ts";
import { type BotDeps, isStaffId } from "../bot/deps.ts";
import { failureButtons } from "../bot/final-buttons.ts";
import { createI18n, localeFromLanguageCode, translator } from "../bot/i18n.ts";
import { createIdleSweeper } from "../bot/idle.ts";
import { notificationRender } from "../bot/notification-render.ts";
import { samePerson } from "../bot/person.ts";
import { withShareReceipt } from "../bot/receipt-document.ts";
import { saveOnSuccess } from "../bot/saved.ts";
import { updateEarlyRead } from "../bot/update-reads.ts";
import type { Catalog } from "../catalog/index.ts";
import { type AnyCategoryModule, billerRule } from "../categories/index.ts";
import { account } from "../ledger/index.ts";
import { rupeesToPaisa } from "../money.ts";
import { CHANNELS, createNotifier, createSendPacer } from "../notify/index.ts";
import { type createOrders, reachedProviderOnly } from "../orders/index.ts";
import type { ProviderClient } from "../provider/index.ts";
import type { RedisClient } from "../redis/connection.ts";
import { rememberSuccess } from "../reminders/index.ts";
import { boundedRetry, minSendLockMs, type TelegramContact } from "../telegram/api.ts";
import { botApiClientOptions } from "../telegram/client-options.ts";
import { isWhatsAppAccount, pushChatOf } from "../whatsapp/chat-ids.ts";
import { type WaChatStore, WINDOW_MS } from "../whatsapp/chat-store.ts";
import type { Base } from "./base.ts";
import { complaintNotice } from "./complaints.ts";
import { remindersPort } from "./reminders.ts";
import { withReportButton } from "./report-button.ts";
import type { Stores } from "./stores.ts";

type Orders = ReturnType<typeof createOrders>;

/** The Bot API the bot talks to: Telegram's (or TELEGRAM_API_ROOT), or the local emulator. */
export interface BotApiTarget {
  token: string;
  apiRoot: string | undefined;
}

/** The chat's translations: the user's chosen language, else their Telegram client's. */
export function createChatI18n(categories: readonly AnyCategoryModule[]): I18n<BotContext> {
  return createI18n<BotContext>(
    (ctx) => ctx.session?.locale ?? localeFromLanguageCode(ctx.from?.language_code),
    // A category's own strings, from its folder (a category defined outside src/ brings its own).
    categories.flatMap((c) => (c.localesDir ? [c.localesDir] : [])),
  );
}

/** Sends one chat message unasked, with buttons when given. */
export type ChatSend = (
  chatId: number,
  text: string,
  markup?: InlineKeyboardMarkup,
) => Promise<void>;

/**
 * A Bot API client of its own for the messages the product sends unasked outside a push (the
 * top-ups' notices), on the bot's target and bounds: it exists before the bot, which offers the
 * top-ups, so both are built once, complete.
 */
export function chatSender(
  base: Base,
  target: BotApiTarget,
  telegram: TelegramContact,
  channelFetch?: typeof fetch,
): ChatSend {
  const api = new Api(
    target.token,
    botApiClientOptions({ apiRoot: target.apiRoot, fetch: channelFetch }),
  );
  api.config.use(boundedRetry(base.config.bot.api, { onAnswer: telegram.seen }));
  return async (chatId, text, markup) => {
    await api.sendMessage(chatId, text, markup ? { reply_markup: markup } : {});
  };
}

/** What the chat needs from the parts below it, and the settings it runs with. */
export function botDeps(
  base: Base,
  parts: {
    catalog: Catalog;
    provider: ProviderClient;
    orders: Orders;
    stores: Stores;
    accounts: Accounts;
    i18n: I18n<BotContext>;
    roles: { agentIds: readonly number[]; adminIds: readonly number[] };
    books: BotDeps["books"];
    topUps: BotDeps["topUps"];
    /** The WhatsApp chats' store; absent without WhatsApp. */
    waChats: Pick<WaChatStore, "lastInbound"> | undefined;
  },
): BotDeps {
  const { config, now } = base;
  const { stores, orders, accounts } = parts;
  const limitSettings = {
    dailyCapPaisa: rupeesToPaisa(config.bot.dailySpendCapRupees),
    ordersPerHour: config.bot.ordersPerHour,
    now,
    // A flow's limits reads take the user's buckets from the update's early read (one command less each).
    early: updateEarlyRead,
  };
  // The limits count only orders that reached the provider (orders/limits.ts).
  const limits = stores.limits(limitSettings);
  const staff = new Set([...parts.roles.agentIds, ...parts.roles.adminIds, ...config.staffIds]);
  const mode = config.accessMode;
  return {
    catalog: parts.catalog,
    provider: parts.provider,
    orders: reachedProviderOnly(orders, limits),
    books: parts.books,
    limits,
    idle: stores.idle,
    payment: {
      mode,
      priceOf: (draft) => orders.priceOf(draft),
      exchangeOf: (draft) => orders.exchangeOf(draft),
      spendOf: (draft) => orders.spendOf(draft),
      availablePaisa: async (userId) =>
        (await stores.ledger.balance(account.customer(userId))).availablePaisa,
      // The user's access flags (accounts/access-flags.ts), from the update's early read when
      // given: a block from the back office holds from the next update on.
      access: async (userId, early) => {
        const facts = await stores.accessFacts.read(userId, {
          registered: mode === "prepaid",
          ...(early !== undefined ? { early } : {}),
        });
        return accessVerdict(mode, { staff: staff.has(userId), ...facts });
      },
    },
    accounts,
    persons: samePerson(accounts.links, (id) => isStaffId(parts.roles, id)),
    saved: stores.saved,
    ...(stores.holdWrites ? { holdWrites: stores.holdWrites } : {}),
    ...(parts.topUps ? { topUps: parts.topUps } : {}),
    i18n: parts.i18n,
    settings: {
      ...parts.roles,
      staffIds: config.staffIds,
      idleMs: config.bot.conversationIdleMs,
      dailyCapPaisa: limitSettings.dailyCapPaisa,
    },
    logger: base.logger,
    async reactivateChat(chatId, userId) {
      await stores.queue.reactivateChat(chatId);
      const pushed = userId === undefined ? chatId : pushChatOf(chatId, userId);
      if (pushed !== chatId) await stores.queue.reactivateChat(pushed);
    },
    isChatInactive: (chatId) => stores.queue.isChatInactive(chatId),
    forgetChat: (chatId) => stores.chatState.forget(chatId),
    async waWindowOpen(chatId) {
      const last = parts.waChats ? await parts.waChats.lastInbound(chatId) : null;
      return last !== null && now() - last.at < WINDOW_MS;
    },
    // REMINDERS=0: no /reminders promising reminders that are never sent.
    ...(config.reminders.on ? { reminders: remindersPort(stores.reminders, now) } : {}),
  };
}

/** The bot itself; `telegram` hears when the Bot API last answered (reported on /healthz). */
export function wireBot(
  base: Base,
  deps: BotDeps,
  parts: {
    target: BotApiTarget;
    telegram: TelegramContact;
    redis: RedisClient | undefined;
    botInfo: UserFromGetMe | undefined;
    /** Commands the composition root adds beside the features (the back office's /dashboard). */
    extraCommands: readonly Composer<BotContext>[];
    /** The Bot API client's fetch when another channel (WhatsApp) answers its own chats' calls. */
    channelFetch: typeof fetch | undefined;
  },
) {
  const { config } = base;
  const { target, redis, botInfo, telegram } = parts;
  const features = botFeatures(deps, base.categories);
  return createBot(deps, {
    token: target.token,
    apiPolicy: config.bot.api,
    onApiAnswer: telegram.seen,
    ...(target.apiRoot ? { apiRoot: target.apiRoot } : {}),
    ...(botInfo ? { botInfo } : {}),
    ...(redis ? { redis } : {}),
    redisPrefix: config.redis.prefix,
    sessionTtlSeconds: config.bot.sessionTtlSeconds,
    features: { ...features, composers: [...features.composers, ...parts.extraCommands] },
    ...(parts.channelFetch ? { fetch: parts.channelFetch } : {}),
  });
}

export type ProductBot = ReturnType<typeof wireBot>;

/** Sends the idle notice when a waiting question's time runs out (with Start again). */
export function wireIdleSweeper(
  base: Base,
  parts: { stores: Stores; bot: ProductBot; deps: BotDeps },
) {
  const { config, logger, now } = base;
  const idleMs = config.bot.conversationIdleMs;
  return createIdleSweeper({
    deadlines: parts.stores.idle,
    send: (chatId, text, keyboard) =>
      parts.bot.api.sendMessage(chatId, text, keyboard ? { reply_markup: keyboard } : {}),
    translate: (locale) => translator(parts.deps.i18n, locale),
    idleMs,
    // Often enough that the notice is at most a second late (sooner for very short timeouts).
    intervalMs: Math.max(50, Math.min(1000, Math.floor(idleMs / 4))),
    now,
    logger,
  });
}

/** Pushes the outbox's notifications into the chats, paced to Telegram's flood limits. */
export function wireNotifier(
  base: Base,
  parts: {
    stores: Stores;
    orders: Orders;
    bot: ProductBot;
    deps: BotDeps;
    /** WhatsApp's chats are served too (the router answers their calls). */
    whatsapp: boolean;
  },
) {
  const { config, logger, now, metrics } = base;
  const billerOf = billerRule(base.categories);
  return createNotifier({
    queue: parts.stores.queue,
    orders: parts.orders,
    api: parts.bot.api,
    pacer: createSendPacer({ store: parts.stores.paceStore, now }),
    render: notificationRender(parts.deps.i18n),
    renderNotice: complaintNotice(parts.deps.i18n, parts.stores.complaints, (id) =>
      parts.stores.accounts.localeOf(id),
    ),
    // A successful order's number is saved, and the push offers to name it (src/bot/saved.ts) and
    // to share the receipt (a PDF) and report a problem (report-button.ts); a failed one's push offers the next step
    // (src/bot/final-buttons.ts). A success's reminders are recorded too (two Redis commands; a
    // failure costs a reminder, not the push).
    finalButtons: async (order, status) => {
      const t = translator(parts.deps.i18n, order.locale);
      if (status !== "success") return failureButtons(parts.deps, t, order);
      await rememberSuccess(parts.stores.reminders, order).catch((err) =>
        logger.warn({ ref: order.reference, err: String(err) }, "reminder not recorded"),
      );
      const saved = await saveOnSuccess(parts.deps.saved, t, order, billerOf);
      return withReportButton(parts.deps, order, withShareReceipt(t, order, saved));
    },
    // WhatsApp cannot edit a sent message: its chats get the final push, not the receipt's edits.
    editsReceipts: (chatId) => !isWhatsAppAccount(chatId),
    // A Telegram flood wait holds Telegram's pushes only; WhatsApp's keep going (channel.ts).
    channels: parts.whatsapp ? CHANNELS : ["telegram"],
    sentLog: parts.stores.sentLog,
    logger,
    consumerName: base.instance,
    claimIdleMs: config.notifier.claimIdleMs,
    lockMs: config.notifier.lockMs,
    retryForMs: config.notifier.retryForMs,
    minLockMs: minSendLockMs(config.bot.api, config.whatsapp?.api),
    metrics,
    // The push counters of its own (notify_push_*): possible duplicates after a lost answer.
    registry: base.registry,
    now,
  });
}
