import {
  type ConversationData,
  conversations,
  createConversation,
  type VersionedState,
} from "@grammyjs/conversations";
import { limit } from "@grammyjs/ratelimiter";
import { sequentialize } from "@grammyjs/runner";
import { RedisAdapter } from "@grammyjs/storage-redis";
import { Bot, type Context, MemorySessionStorage, type StorageAdapter, session } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import { Cluster } from "ioredis";
import { type ChatTurnSettings, epochKey, redisChatTurns } from "../redis/chat-turns.ts";
import { asSingleKeyClient, type RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { type BotApiPolicy, boundedRetry, DEFAULT_BOT_API_POLICY } from "../telegram/api.ts";
import { botApiClientOptions } from "../telegram/client-options.ts";
import { accessInUpdate } from "./access.ts";
import { chatOrder, dropStaleReads, type OnceInTurn } from "./chat-order.ts";
import type { BotContext, SessionData } from "./context.ts";
import { initialSession } from "./context.ts";
import { decodeConversation, deflatedRedisStorage } from "./conversation-storage.ts";
import {
  DONE,
  DONE_SECONDS,
  dropRedelivered,
  memoryUpdateClaims,
  redisUpdateClaims,
  type UpdateClaims,
} from "./dedupe.ts";
import { settleDeferred } from "./deferred.ts";
import type { BotDeps } from "./deps.ts";
import { errorBoundary, isPermanentFailure, reportUpdateError } from "./error-boundary.ts";
import { fallbacks } from "./fallbacks.ts";
import type { BotFeatures, FlowBuilder } from "./features.ts";
import { FLOOD_LIMIT, FLOOD_WINDOW_MS, floodCounter } from "./flood.ts";
import { bindAsides } from "./flow/scope.ts";
import { flowVersion } from "./flow/version.ts";
import { leave } from "./leave.ts";
import { type Prefetch, readingPrefetched, redisPrefetch } from "./prefetch.ts";
import { privateOnly } from "./private-only.ts";
import { markedChatOf, reactivateOnUpdate } from "./reactivate.ts";
import { skipUnchangedWrites } from "./session-storage.ts";
import { staleCallbackAnswers } from "./stale-callback.ts";
import { earlyReadsInUpdate } from "./update-reads.ts";

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
  /** The conversations, commands and asides, from the composition root (conversations/index.ts). */
  features: BotFeatures;
  /** The chat's turn across instances (redis/chat-turns.ts); defaults there. */
  chatTurns?: ChatTurnSettings;
  /**
   * The Bot API client's fetch (grammY's client option, which each conversation's Api copies):
   * another channel's router (src/whatsapp/router.ts) answers the calls into its chats there.
   */
  fetch?: typeof fetch;
}

const chatKey = (ctx: Context) => (ctx.chat?.id ?? ctx.from?.id)?.toString();

/**
 * Sessions and conversation state: in Redis when given, else in memory, with the same TTL. In
 * Redis both are read early, with one MGET (a Cluster) or inside the chat turn's take (one node),
 * prefetch.ts; on one node the conversation state is written by the turn's release (carried-writes.ts).
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

/**
 * The bot: the engine's middleware in order (error boundary, per-chat order, dedupe, the chat's
 * turn, session, i18n, flood limit, conversations), then the features it is handed.
 */
export function createBot(deps: BotDeps, opts: CreateBotOptions) {
  const bot = new Bot<BotContext>(opts.token, {
    client: botApiClientOptions({ apiRoot: opts.apiRoot, fetch: opts.fetch }),
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
  });
  // Flood limits, network errors and 5xx are retried, but no call outlives the policy's bound.
  const apiPolicy = opts.apiPolicy ?? DEFAULT_BOT_API_POLICY;
  const retryPolicy = () =>
    boundedRetry(apiPolicy, opts.onApiAnswer ? { onAnswer: opts.onApiAnswer } : {});
  bot.api.config.use(retryPolicy());
  bot.api.config.use(staleCallbackAnswers);

  const { sessionStorage, conversationStorage, prefetch } = storages(opts);
  // First, so that no error leaves the middleware stack in any transport (error-boundary.ts).
  bot.use(errorBoundary({ logger: deps.logger, i18n: deps.i18n }));
  useChatOrder(bot, deps, opts, prefetch);
  // A chat marked inactive that writes again gets its notifications again (reactivate.ts).
  bot.use(
    reactivateOnUpdate({
      mark: async (ctx, chatId) =>
        prefetch?.peek(ctx.update.update_id, keyspace(opts.redisPrefix).inactiveChat(chatId)),
      ...(deps.isChatInactive ? { inactive: deps.isChatInactive } : {}),
      reactivate: (chatId, userId) => deps.reactivateChat(chatId, userId),
      logger: deps.logger,
    }),
  );
  // Before anything reads the sender: a linked Telegram user acts as their WhatsApp-born account.
  bot.use(deps.persons);
  bot.use(
    session({
      initial: initialSession,
      storage: sessionStorage,
      prefix: keyspace(opts.redisPrefix).sessionPrefix,
      getSessionKey: chatKey,
    }),
  );
  bot.use(deps.i18n);
  bot.use(floodLimit(opts));
  // Outside the conversations plugin: what a flow defers is awaited after its state is saved.
  bot.use(settleDeferred());
  const { features } = opts;
  if (features.gate) bot.use(features.gate);
  bot.use(conversationsPlugin(opts, conversationStorage, retryPolicy));
  for (const [id, builder] of Object.entries(features.conversations))
    bot.use(createConversation(withAsides(builder, features), id));

  // The features, in this order: group notices first, fallbacks last.
  bot.use(
    privateOnly(),
    // Before every command: a Leave press becomes the command it carries (leave.ts).
    leave(),
    ...features.composers,
    fallbacks(),
  );

  // Unreachable while the boundary above holds; kept so that polling never stops on an error.
  bot.catch((err) => reportUpdateError(err.ctx, err, { logger: deps.logger, i18n: deps.i18n }));

  return bot;
}

/**
 * One update of a chat at a time, each once: per-chat order within this process, the early read,
 * then (Redis) the chat's turn across instances, in which a redelivered update is told by its done
 * mark (chat-order.ts), or (no Redis, or an update without a chat) the update's own claim.
 */
function useChatOrder(
  bot: Bot<BotContext>,
  deps: BotDeps,
  opts: CreateBotOptions,
  prefetch: ReturnType<typeof storages>["prefetch"],
) {
  const keys = keyspace(opts.redisPrefix);
  // Per-chat order within this process, also under @grammyjs/runner's concurrent processing
  // (across instances: the chat's turn, below).
  bot.use(sequentialize(chatKey));
  // One Redis node: the early read is made by the chat turn's take, in its script (below).
  const oneNode = opts.redis !== undefined && !(opts.redis instanceof Cluster);
  if (prefetch) {
    bot.use(
      prefetch.middleware(earlyReadKeys(opts.redisPrefix, opts.redis, deps.limits.earlyKeys), {
        supplied: oneNode,
      }),
    );
    // The spend limits' reads of the update take the user's buckets from it (update-reads.ts).
    bot.use(earlyReadsInUpdate((ctx, key) => prefetch.peek(ctx.update.update_id, key)));
    // The access checks of the update take the user's flags from that read (access.ts).
    bot.use(
      accessInUpdate((ctx, userId) =>
        prefetch.peek(ctx.update.update_id, keys.accessFlags(userId)),
      ),
    );
  }
  const claims = opts.redis
    ? redisUpdateClaims(opts.redis, opts.redisPrefix)
    : memoryUpdateClaims();
  const dedupe = dropRedelivered<BotContext>(prefetch ? prefetch.gate(claims) : claims, {
    settles: isPermanentFailure,
  });
  if (!opts.redis) {
    bot.use(dedupe);
    return;
  }
  // An update without a chat has no turn: its own claim keeps it once.
  bot.use((ctx, next) => (chatKey(ctx) === undefined ? dedupe(ctx, next) : next()));
  // Per-chat order across instances (sequentialize above holds it within this one): the chat's
  // turn in Redis, taken in update_id order and held until the update's state is saved.
  const redis = opts.redis;
  bot.use(
    chatOrder(redisChatTurns(redis, opts.redisPrefix, opts.chatTurns), chatKey, {
      logger: deps.logger,
      ...(prefetch && oneNode
        ? // Read by the take's script: current, nothing to check.
          { early: earlyByTake(prefetch) }
        : // The early read holds only if no turn of the chat ended between it and this take.
          prefetch
          ? { onTaken: dropStaleReads(prefetch, keys.prefix, chatKey) }
          : {}),
      once: onceInTurn(redis, opts.redisPrefix, claims, prefetch, isPermanentFailure),
      // One node: the conversation state and the idle deadline go with the release's script.
      carry: oneNode,
    }),
  );
}

/**
 * How a chat's update is kept once in its turn: its done mark (dedupe.ts's key and day), read
 * from the early read when it holds (one Redis node), else with a GET once the turn is taken;
 * written by the release script on one node, awaited before the release on a Cluster.
 */
export function onceInTurn<C extends Context>(
  redis: RedisClient,
  prefix: string,
  claims: UpdateClaims,
  prefetch: Prefetch | undefined,
  settles: (err: unknown) => boolean,
): OnceInTurn<C> {
  const keys = keyspace(prefix);
  return {
    claims,
    settles,
    markFirst: redis instanceof Cluster,
    doneMark: (id) => ({ key: keys.update(id), value: DONE, ttlSeconds: DONE_SECONDS }),
    isDone: async (ctx) => {
      const id = ctx.update.update_id;
      const read = prefetch ? await prefetch.take(keys.update(id)) : undefined;
      if (read !== undefined) return read?.toString("utf8") === DONE;
      return (await claims.state(id)) === "done";
    },
  };
}

/** chatOrder's `early`: the update's early read (prefetch.ts) made by the take's script. */
export function earlyByTake(prefetch: Prefetch) {
  return {
    keys: (ctx: Context) => prefetch.keysOf(ctx.update.update_id),
    supply: (ctx: Context, values: Array<Buffer | null> | undefined) =>
      prefetch.supply(ctx.update.update_id, values),
  };
}

/**
 * What the early read (prefetch.ts) takes for an update of a chat: the session and conversation
 * state, the sender's access flags, the chat's inactive mark (reactivate.ts), and on one Redis node the update's done mark, read by the
 * chat turn's take in its script once the turn is taken (nothing can change between the two).
 * On a Cluster (no script across slots) also the chat's epoch, in a read sent before the take and
 * used only when the turn shows nothing changed since. There the read is one GET a key, answered each by
 * its node in its own time: a done mark read as absent and an epoch read later, after the mark and
 * the turn's release (the mark on another node, awaited before the release), would pass for
 * current together. So there the mark is left out and read once the turn is taken (the session
 * and conversation are read after the epoch there: prefetch.ts, `readInOrder`).
 */
export function earlyReadKeys(
  prefix: string,
  redis: RedisClient | undefined,
  /** The spend limits' keys of the sender now (orders/limits.ts `earlyKeys`), one node only. */
  limitKeys?: (userId: number) => string[],
): (ctx: Context) => string[] {
  const keys = keyspace(prefix);
  const oneNode = !(redis instanceof Cluster);
  return (ctx) => {
    const key = chatKey(ctx);
    if (key === undefined) return [];
    const from = ctx.from?.id;
    // The sender's access flags (src/accounts/access-flags.ts): every access check of the update.
    const access = from === undefined ? [] : [keys.accessFlags(from)];
    // Whether the chat is marked inactive: cleared as it writes (reactivate.ts).
    const marked = markedChatOf(ctx);
    if (marked !== undefined) access.push(keys.inactiveChat(marked));
    const state = [keys.sessionPrefix + key, keys.conversationPrefix + key, ...access];
    // And the sender's spend buckets (a flow's limits reads: update-reads.ts). Not on a Cluster,
    // where each key is a GET of its own: there the limits read them when they need them.
    const limits = from === undefined || !limitKeys ? [] : limitKeys(from);
    if (oneNode) return [...state, ...limits, keys.update(ctx.update.update_id)];
    // The epoch last: on a Cluster it is read first, the others once it answered (readInOrder).
    return [...state, epochKey(keys.prefix, key)];
  };
}

/** The conversations plugin over the conversation storage, versioned by the flows' sources. */
function conversationsPlugin(
  opts: CreateBotOptions,
  adapter: ReturnType<typeof storages>["conversationStorage"],
  retryPolicy: () => ReturnType<typeof boundedRetry>,
) {
  return conversations<BotContext, Context>({
    storage: {
      type: "key",
      version: flowVersion(),
      prefix: keyspace(opts.redisPrefix).conversationPrefix,
      getStorageKey: chatKey,
      adapter,
    },
    // Each conversation has its own Api: give it the same bounded retries as bot.api.
    plugins: [
      async (ctx, next) => {
        ctx.api.config.use(retryPolicy());
        ctx.api.config.use(staleCallbackAnswers);
        await next();
      },
    ],
  });
}

/** The builder, with the asides bound to the context it runs with (every replay too). */
function withAsides(builder: FlowBuilder, features: BotFeatures): FlowBuilder {
  return (conversation, ctx, ...args) => {
    bindAsides(ctx, features.asides);
    return builder(conversation, ctx, ...args);
  };
}
