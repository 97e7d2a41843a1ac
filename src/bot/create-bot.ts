import { autoRetry } from "@grammyjs/auto-retry";
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
  InlineKeyboard,
  MemorySessionStorage,
  type StorageAdapter,
  session,
} from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Redis } from "ioredis";
import { categoryFlows, otherFlows } from "../../conversations/index.ts";
import type { BotContext, SessionData } from "./context.ts";
import { initialSession } from "./context.ts";
import { dropRedelivered, memoryUpdateClaims, redisUpdateClaims } from "./dedupe.ts";
import { type BotDeps, roleOf } from "./deps.ts";
import { flowVersion } from "./flow/version.ts";
import { isLocale, LOCALES, translator } from "./i18n.ts";
import { orderCommands } from "./order-commands.ts";

export interface CreateBotOptions {
  token: string;
  /** Bot API root; the local Bot API emulator in playground mode and tests. */
  apiRoot?: string;
  /** Skips getMe at start (tests, benchmarks). */
  botInfo?: UserFromGetMe;
  /** Sessions, conversation state, update claims and the flood limiter in Redis when given. */
  redis?: Redis;
  redisPrefix: string;
  sessionTtlSeconds: number;
}

/** Telegram flood limits: wait and retry on 429, but never hang a chat for long. */
const retryPolicy = () => autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 30 });

const chatKey = (ctx: Context) => (ctx.chat?.id ?? ctx.from?.id)?.toString();

const FLOOD_WINDOW_MS = 10_000;
const FLOOD_INCR = `
local n = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

/**
 * The flood limiter's counter. The plugin's own Redis store sends INCR and then, on the first hit,
 * PEXPIRE: a process killed between the two (or a Redis hiccup) leaves a counter that never
 * expires, and that user is silently ignored for good. One script does both, and gives an expiry
 * to any counter found without one.
 */
function floodCounter(redis: Redis, windowMs: number) {
  return {
    incr: async (key: string) => Number(await redis.eval(FLOOD_INCR, 1, key, String(windowMs))),
    pexpire: async () => 1,
  };
}

export function createBot(deps: BotDeps, opts: CreateBotOptions) {
  const bot = new Bot<BotContext>(opts.token, {
    client: opts.apiRoot ? { apiRoot: opts.apiRoot } : {},
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
  });
  bot.api.config.use(retryPolicy());

  const ttlMs = opts.sessionTtlSeconds * 1000;
  const sessionStorage: StorageAdapter<SessionData> = opts.redis
    ? new RedisAdapter<SessionData>({ instance: opts.redis, ttl: opts.sessionTtlSeconds })
    : new MemorySessionStorage<SessionData>(ttlMs);
  const conversationStorage = opts.redis
    ? new RedisAdapter<VersionedState<ConversationData>>({
        instance: opts.redis,
        ttl: opts.sessionTtlSeconds,
      })
    : new MemorySessionStorage<VersionedState<ConversationData>>(ttlMs);

  // Per-chat order, also under @grammyjs/runner's concurrent processing.
  bot.use(sequentialize(chatKey));
  bot.use(
    dropRedelivered(
      opts.redis ? redisUpdateClaims(opts.redis, opts.redisPrefix) : memoryUpdateClaims(),
    ),
  );
  bot.use(
    session({
      initial: initialSession,
      storage: sessionStorage,
      prefix: `${opts.redisPrefix}session:`,
      getSessionKey: chatKey,
    }),
  );
  bot.use(deps.i18n);
  bot.use(
    limit({
      // Generous enough for a fast typist tapping through a flow; a flood gets one notice per window.
      timeFrame: FLOOD_WINDOW_MS,
      limit: 30,
      storageClient: opts.redis ? floodCounter(opts.redis, FLOOD_WINDOW_MS) : "MEMORY_STORE",
      keyPrefix: `${opts.redisPrefix}flood`,
      onLimitExceeded: async (ctx: BotContext) => {
        if (ctx.chat?.type === "private") await ctx.reply(ctx.t("common-slow-down"));
      },
    }),
  );
  bot.use(
    conversations<BotContext, Context>({
      storage: {
        type: "key",
        version: flowVersion(),
        prefix: `${opts.redisPrefix}conversation:`,
        getStorageKey: chatKey,
        adapter: conversationStorage,
      },
      // Each conversation has its own Api: give it the same flood-limit handling as bot.api.
      plugins: [
        async (ctx, next) => {
          ctx.api.config.use(retryPolicy());
          await next();
        },
      ],
    }),
  );

  const flows = categoryFlows(deps);
  for (const [id, builder] of Object.entries(flows)) bot.use(createConversation(builder, id));
  for (const [id, builder] of Object.entries(otherFlows(deps)))
    bot.use(createConversation(builder, id));

  const menu = (ctx: BotContext) => {
    const kb = new InlineKeyboard();
    Object.keys(flows).forEach((category, i) => {
      if (i > 0 && i % 2 === 0) kb.row();
      kb.text(ctx.t(`menu-${category}`), `m:${category}`);
    });
    return kb;
  };

  const priv = bot.chatType("private");
  const groups = bot.chatType(["group", "supergroup"]);

  groups.command(["start", "recharge", "status", "history", "balance"], (ctx) =>
    ctx.reply(ctx.t("common-private-only")),
  );

  priv.command("start", async (ctx) => {
    await deps.reactivateChat(ctx.chat.id);
    await ctx.reply(ctx.t("start-welcome", { name: ctx.from.first_name }), {
      reply_markup: menu(ctx),
    });
  });
  priv.command("recharge", (ctx) => ctx.reply(ctx.t("menu-prompt"), { reply_markup: menu(ctx) }));
  priv.command("help", async (ctx) => {
    const role = roleOf(deps.settings, ctx.from.id);
    const lines = [ctx.t("help-text")];
    if (role !== "customer") lines.push(ctx.t("help-agent"));
    if (role === "admin") lines.push(ctx.t("help-admin"));
    await ctx.reply(lines.join("\n\n"));
  });
  priv.command("cancel", (ctx) => ctx.reply(ctx.t("common-nothing-to-cancel")));
  priv.command("language", (ctx) => {
    const kb = new InlineKeyboard();
    for (const l of LOCALES) kb.text(translator(deps.i18n, l)("language-name"), `lang:${l}`);
    return ctx.reply(ctx.t("language-prompt"), { reply_markup: kb });
  });
  priv.callbackQuery(/^lang:(.+)$/, async (ctx) => {
    const locale = ctx.match[1];
    await ctx.answerCallbackQuery();
    if (!isLocale(locale)) return;
    ctx.session.locale = locale;
    await ctx.i18n.renegotiateLocale();
    await ctx.editMessageText(ctx.t("language-set"));
  });
  priv.callbackQuery(/^m:(.+)$/, async (ctx) => {
    const category = ctx.match[1];
    await ctx.answerCallbackQuery();
    if (category && category in flows) await ctx.conversation.enter(category);
  });

  // Order commands (/status, /history, /balance) are registered here, before the fallbacks.
  priv.use(orderCommands(deps));

  // Buttons of finished conversations and anything else nobody handled.
  bot.on("callback_query", (ctx) =>
    ctx.answerCallbackQuery({ text: ctx.t("common-button-expired") }),
  );
  priv.on("message", (ctx) => ctx.reply(ctx.t("common-unknown-input")));

  bot.catch(async (err) => {
    deps.logger.error(
      { err: err.error instanceof Error ? err.error.message : String(err.error) },
      "bot update failed",
    );
    const ctx = err.ctx;
    if (ctx.chat?.type === "private") {
      await ctx.reply(ctx.t("common-error")).catch(() => {});
    }
  });

  return bot;
}

/** The command menu Telegram shows, in each language; /balance only for admins. */
export async function registerCommands(api: Api, deps: BotDeps): Promise<void> {
  const names = ["start", "recharge", "status", "history", "language", "help", "cancel"];
  for (const locale of LOCALES) {
    const t = translator(deps.i18n, locale);
    const commands = names.map((command) => ({ command, description: t(`cmd-${command}`) }));
    await api.setMyCommands(commands, locale === "en" ? {} : { language_code: locale });
    for (const adminId of deps.settings.adminIds) {
      await api.setMyCommands(
        [...commands, { command: "balance", description: t("cmd-balance") }],
        {
          scope: { type: "chat", chat_id: adminId },
          ...(locale === "en" ? {} : { language_code: locale }),
        },
      );
    }
  }
}
