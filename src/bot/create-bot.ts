import {
  type ConversationData,
  conversations,
  createConversation,
  type VersionedState,
} from "@grammyjs/conversations";
import { limit } from "@grammyjs/ratelimiter";
import { sequentialize } from "@grammyjs/runner";
import { RedisAdapter } from "@grammyjs/storage-redis";
import {
  type Api,
  Bot,
  type Context,
  MemorySessionStorage,
  type StorageAdapter,
  session,
} from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { type ChatTurnSettings, epochKey, redisChatTurns } from "../redis/chat-turns.ts";
import { asSingleKeyClient, type RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { type BotApiPolicy, boundedRetry, DEFAULT_BOT_API_POLICY } from "../telegram/api.ts";
import { orderGate } from "./access.ts";
import { chatOrder, dropStaleReads } from "./chat-order.ts";
import type { BotContext, SessionData } from "./context.ts";
import { initialSession } from "./context.ts";
import { decodeConversation, deflatedRedisStorage } from "./conversation-storage.ts";
import { dropRedelivered, memoryUpdateClaims, redisUpdateClaims } from "./dedupe.ts";
import { settleDeferred } from "./deferred.ts";
import type { BotDeps } from "./deps.ts";
import { errorBoundary, isPermanentFailure, reportUpdateError } from "./error-boundary.ts";
import { addMoney, addMoneyButton } from "./features/add-money.ts";
import { type BalanceButtons, balance } from "./features/balance.ts";
import { books } from "./features/books.ts";
import { cancel } from "./features/cancel.ts";
import { cashIn } from "./features/cashin.ts";
import { fallbacks } from "./features/fallbacks.ts";
import { heldTopUps } from "./features/held-topups.ts";
import { help } from "./features/help.ts";
import { history } from "./features/history.ts";
import { language } from "./features/language.ts";
import { leave } from "./features/leave.ts";
import { categoryMenu, menuKeyboard } from "./features/menu.ts";
import { privateOnly } from "./features/private-only.ts";
import { register } from "./features/register.ts";
import { saved } from "./features/saved.ts";
import { start } from "./features/start.ts";
import { status } from "./features/status.ts";
import { FLOOD_LIMIT, FLOOD_WINDOW_MS, floodCounter } from "./flood.ts";
import { flowVersion } from "./flow/version.ts";
import type { BotFlows } from "./flows.ts";
import { LOCALES, translator } from "./i18n.ts";
import { readingPrefetched, redisPrefetch } from "./prefetch.ts";
import { skipUnchangedWrites } from "./session-storage.ts";
import { staleCallbackAnswers } from "./stale-callback.ts";

export interface CreateBotOptions {
  token: string;
  /** Bot API root; the local Bot API emulator in playground mode and tests. */
  apiRoot?: string;
  /** Skips getMe at start (tests, benchmarks). */
  botInfo?: UserFromGetMe;
  /** Sessions, conversation state, update claims and the flood limiter in Redis when given. */
  redis?: RedisClient;
  redisPrefix: string;
  sessionTtlSeconds: number;
  /** Bounds every Bot API call (attempts, per-attempt timeout); see src/telegram/api.ts. */
  apiPolicy?: BotApiPolicy;
  /** Called on every answer from the Bot API (for /healthz). */
  onApiAnswer?: () => void;
  /** The conversations and the category menu, from the composition root. */
  flows: BotFlows;
  /** Buttons under /balance (features/balance.ts): the seam of another way to add money. */
  balanceButtons?: BalanceButtons;
  /** The chat's turn across instances (redis/chat-turns.ts); defaults there. */
  chatTurns?: ChatTurnSettings;
}

const chatKey = (ctx: Context) => (ctx.chat?.id ?? ctx.from?.id)?.toString();

/**
 * Sessions and conversation state: in Redis when given, else in memory, with the same TTL. In
 * Redis both are read with one MGET as an update starts (prefetch.ts).
 */
function storages(opts: CreateBotOptions) {
  const ttlMs = opts.sessionTtlSeconds * 1000;
  const prefetch = opts.redis ? redisPrefetch(opts.redis) : undefined;
  // The session rarely changes during a flow: an unchanged one is not written back, but at least
  // daily (and at least twice per TTL) so that an active user's session never expires.
  const sessionStorage: StorageAdapter<SessionData> =
    opts.redis && prefetch
      ? skipUnchangedWrites(
          readingPrefetched(
            new RedisAdapter<SessionData>({
              instance: asSingleKeyClient(opts.redis),
              ttl: opts.sessionTtlSeconds,
            }),
            prefetch,
            (raw) => JSON.parse(raw.toString("utf8")) as SessionData,
          ),
          { refreshMs: Math.min(24 * 3600 * 1000, ttlMs / 2), initial: initialSession },
        )
      : new MemorySessionStorage<SessionData>(ttlMs);
  type State = VersionedState<ConversationData>;
  const conversationStorage: StorageAdapter<State> =
    opts.redis && prefetch
      ? readingPrefetched(
          deflatedRedisStorage<State>(opts.redis, opts.sessionTtlSeconds),
          prefetch,
          (raw) => decodeConversation<State>(raw),
        )
      : new MemorySessionStorage<State>(ttlMs);
  return { sessionStorage, conversationStorage, prefetch };
}

/** Per-user flood limit, counted in Redis when given (see floodCounter). */
function floodLimit(opts: CreateBotOptions) {
  return limit({
    // Generous enough for a fast typist tapping through a flow; a flood gets one notice per window.
    timeFrame: FLOOD_WINDOW_MS,
    limit: FLOOD_LIMIT,
    storageClient: opts.redis ? floodCounter(opts.redis, FLOOD_WINDOW_MS) : "MEMORY_STORE",
    keyPrefix: keyspace(opts.redisPrefix).floodPrefix,
    onLimitExceeded: async (ctx: BotContext) => {
      if (ctx.chat?.type === "private") await ctx.reply(ctx.t("common-slow-down"));
    },
  });
}

export function createBot(deps: BotDeps, opts: CreateBotOptions) {
  const bot = new Bot<BotContext>(opts.token, {
    client: opts.apiRoot ? { apiRoot: opts.apiRoot } : {},
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
  });
  // Flood limits, network errors and 5xx are retried, but no call outlives the policy's bound.
  const apiPolicy = opts.apiPolicy ?? DEFAULT_BOT_API_POLICY;
  const retryPolicy = () =>
    boundedRetry(apiPolicy, opts.onApiAnswer ? { onAnswer: opts.onApiAnswer } : {});
  bot.api.config.use(retryPolicy());
  bot.api.config.use(staleCallbackAnswers);

  const { sessionStorage, conversationStorage, prefetch } = storages(opts);
  const keys = keyspace(opts.redisPrefix);

  // First, so that no error leaves the middleware stack in any transport (error-boundary.ts).
  bot.use(errorBoundary({ logger: deps.logger, i18n: deps.i18n }));
  // Per-chat order within this process, also under @grammyjs/runner's concurrent processing
  // (across instances: the chat's turn, below).
  bot.use(sequentialize(chatKey));
  // The session and conversation reads go out with the update's claim, in one round trip;
  // they are used only when the claim is taken at once (prefetch.ts).
  if (prefetch) {
    bot.use(
      prefetch.middleware((ctx) => {
        const key = chatKey(ctx);
        return key === undefined
          ? []
          : [
              keys.sessionPrefix + key,
              keys.conversationPrefix + key,
              ...(opts.redis ? [epochKey(keys.prefix, key)] : []),
            ];
      }),
    );
  }
  const claims = opts.redis
    ? redisUpdateClaims(opts.redis, opts.redisPrefix)
    : memoryUpdateClaims();
  bot.use(
    dropRedelivered(prefetch ? prefetch.gate(claims) : claims, { settles: isPermanentFailure }),
  );
  // Per-chat order across instances (sequentialize above holds it within this one): the chat's
  // turn in Redis, taken in update_id order and held until the update's state is saved.
  if (opts.redis) {
    bot.use(
      chatOrder(redisChatTurns(opts.redis, opts.redisPrefix, opts.chatTurns), chatKey, {
        logger: deps.logger,
        // The early read holds only if no turn of the chat ended between it and this take.
        ...(prefetch ? { onTaken: dropStaleReads(prefetch, keys.prefix, chatKey) } : {}),
      }),
    );
  }
  bot.use(
    session({
      initial: initialSession,
      storage: sessionStorage,
      prefix: keys.sessionPrefix,
      getSessionKey: chatKey,
    }),
  );
  bot.use(deps.i18n);
  bot.use(floodLimit(opts));
  // Outside the conversations plugin: what a flow defers is awaited after its state is saved.
  bot.use(settleDeferred());
  bot.use(
    conversations<BotContext, Context>({
      storage: {
        type: "key",
        version: flowVersion(),
        prefix: keys.conversationPrefix,
        getStorageKey: chatKey,
        adapter: conversationStorage,
      },
      // Each conversation has its own Api: give it the same bounded retries as bot.api.
      plugins: [
        async (ctx, next) => {
          ctx.api.config.use(retryPolicy());
          ctx.api.config.use(staleCallbackAnswers);
          await next();
        },
      ],
    }),
  );

  const { flows } = opts;
  for (const [id, builder] of Object.entries(flows.conversations))
    bot.use(createConversation(builder, id));

  // The features, in this order: group notices first, fallbacks last (features/*.ts).
  const menu = menuKeyboard(flows.menu, flows.offered);
  bot.use(
    privateOnly(),
    // Before every command: a Leave press becomes the command it carries (features/leave.ts).
    leave(),
    start(deps, menu),
    categoryMenu(flows.menu, menu, flows.offered, orderGate(deps)),
    register(deps),
    help(deps),
    cancel(),
    language(deps),
    status(),
    history(deps),
    saved(),
    balance(deps, { extraButtons: opts.balanceButtons ?? addMoneyButtons(deps) }),
    books(deps),
    addMoney(),
    heldTopUps(deps),
    cashIn(),
    fallbacks(),
  );

  // Unreachable while the boundary above holds; kept so that polling never stops on an error.
  bot.catch((err) => reportUpdateError(err.ctx, err, { logger: deps.logger, i18n: deps.i18n }));

  return bot;
}

/** A customer's /balance offers adding money online when a gateway is wired (Khalti). */
function addMoneyButtons(deps: BotDeps): BalanceButtons | undefined {
  if (!deps.topUps) return undefined;
  return (t, r) => (r.kind === "customer" ? addMoneyButton(t) : undefined);
}

/**
 * The command menu Telegram shows, in each language: everyone's (with /addmoney when a gateway is
 * wired), plus /cashin for agents and /credit, /reverse, /books for admins in their own chats.
 */
export async function registerCommands(api: Api, deps: BotDeps): Promise<void> {
  const names = [
    "start",
    "recharge",
    "balance",
    "register",
    "status",
    "history",
    "saved",
    "language",
    "help",
    "cancel",
  ];
  if (deps.topUps) names.splice(4, 0, "addmoney");
  const agents = deps.settings.agentIds.filter((id) => !deps.settings.adminIds.includes(id));
  for (const locale of LOCALES) {
    const t = translator(deps.i18n, locale);
    const lang = locale === "en" ? {} : { language_code: locale };
    const commands = names.map((command) => ({ command, description: t(`cmd-${command}`) }));
    await api.setMyCommands(commands, lang);
    const scoped = async (ids: readonly number[], extra: string[]) => {
      const list = [...commands, ...extra.map((c) => ({ command: c, description: t(`cmd-${c}`) }))];
      for (const chatId of ids) {
        await api.setMyCommands(list, { scope: { type: "chat", chat_id: chatId }, ...lang });
      }
    };
    await scoped(agents, ["cashin"]);
    await scoped(deps.settings.adminIds, [
      "credit",
      "reverse",
      "books",
      ...(deps.topUps ? ["topups"] : []),
    ]);
  }
}
