import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { type RunnerHandle, run } from "@grammyjs/runner";
import { serve } from "@hono/node-server";
import { webhookCallback } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Redis } from "ioredis";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { BotContext } from "./bot/context.ts";
import { createBot, registerCommands } from "./bot/create-bot.ts";
import type { BotDeps } from "./bot/deps.ts";
import { createI18n, localeFromLanguageCode } from "./bot/i18n.ts";
import { memoryLimits, redisLimits } from "./bot/limits.ts";
import { notificationRender } from "./bot/notification-render.ts";
import { createCatalog } from "./catalog/index.ts";
import type { Config } from "./config.ts";
import { secretsOf } from "./config.ts";
import { createHttpApp, type HealthCheck } from "./http/app.ts";
import { createLogger, type Logger } from "./logger.ts";
import {
  createMemoryNotificationQueue,
  createNotifier,
  createRedisNotificationQueue,
  createSendPacer,
  memoryPaceStore,
  redisPaceStore,
} from "./notify/index.ts";
import {
  createMemoryLease,
  createMemoryOrderStore,
  createMoneyPathMetrics,
  createOrders,
  createReconciler,
  createRedisLease,
  createRedisOrderStore,
} from "./orders/index.ts";
import { type BotApiEmulator, createBotApiEmulator } from "./playground/emulator/index.ts";
import {
  createPlayground,
  PLAYGROUND_ADMIN_ID,
  PLAYGROUND_AGENT_ID,
} from "./playground/web/index.ts";
import { createProviderClient } from "./provider/index.ts";
import { createRedis, redisAnswers } from "./redis.ts";
import { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox/index.ts";
import { createWebhookRoutes } from "./webhook/routes.ts";

/** The bot token of the local playground; the emulator accepts only this one. */
export const PLAYGROUND_TOKEN = "7000000001:local-playground-token";

export interface SystemOptions {
  config: Config;
  logger?: Logger;
  now?: () => number;
  /** Overrides of the embedded sandbox (delays, faults) for tests and demos. */
  sandbox?: Partial<Omit<SandboxOptions, "accounts">>;
  /** Skip getMe (benchmarks, tests with a known bot). */
  botInfo?: UserFromGetMe;
  /** Unique per process; defaults to hostname-pid. */
  instanceName?: string;
  /** Start polling / notifier / reconciler (default true); tests may drive parts by hand. */
  workers?: boolean;
  /** Use an existing Redis connection instead of config.redis.url (tests). */
  redis?: Redis;
}

/**
 * Builds and starts every part of one process from the configuration: the HTTP server, the
 * embedded sandbox and playground when nothing real is configured, the orders service with its
 * webhook receiver, notifier and reconciler, and the bot. `main.ts` and the end-to-end tests both
 * start the product through here, so tests run exactly what users run.
 */
export async function startSystem(opts: SystemOptions) {
  const { config } = opts;
  const logger =
    opts.logger ?? createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  const now = opts.now ?? Date.now;
  const instance = opts.instanceName ?? `${hostname()}-${process.pid}`;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = createMoneyPathMetrics(registry);
  const stops: Array<() => Promise<void> | void> = [];
  const health: HealthCheck[] = [];

  const ownRedis = !opts.redis && config.redis.url ? createRedis(config.redis.url) : undefined;
  const redis = opts.redis ?? ownRedis;
  if (ownRedis) {
    ownRedis.on("error", (err) => logger.warn({ err: err.message }, "redis error"));
    stops.push(async () => {
      await ownRedis.quit().catch(() => ownRedis.disconnect());
    });
  }
  if (redis) health.push({ name: "redis", check: () => redisAnswers(redis) });
  const prefix = config.redis.prefix;

  // Listen first (the embedded parts need our own URL), answer 503 until everything is wired.
  const app = createHttpApp({ registry, health });
  let ready = false;
  const server = serve({
    fetch: (req, env) => (ready ? app.fetch(req, env) : new Response("starting", { status: 503 })),
    hostname: config.http.host,
    port: config.http.port,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const localHost = ["0.0.0.0", "::", ""].includes(config.http.host)
    ? "127.0.0.1"
    : config.http.host;
  const selfUrl = `http://${localHost.includes(":") ? `[${localHost}]` : localHost}:${port}`;

  const catalog = createCatalog(config.catalog);

  let sandbox: Sandbox | undefined;
  if (config.mode.embeddedSandbox) {
    sandbox = createSandbox({
      accounts: [
        {
          token: config.sandbox.token,
          webhook: { url: `${selfUrl}${config.webhook.path}`, secret: config.webhook.secret },
        },
      ],
      delays: config.sandbox.delays,
      rateLimitPerSecond: config.sandbox.rateLimitPerSecond,
      faults: config.sandbox.faults,
      ntcMobileMaxAmount: config.catalog.ntcMobileMaxAmount,
      waterOperatorId: config.catalog.waterOperatorId,
      electricityOperatorId: config.catalog.electricityOperatorId,
      logger,
      ...(opts.now ? { now: opts.now } : {}),
      ...opts.sandbox,
    });
    app.route("/sandbox/api/v1", sandbox.app);
    stops.push(() => sandbox?.close());
  }

  const provider = createProviderClient({
    baseUrl: config.provider.baseUrl ?? `${selfUrl}/sandbox/api/v1`,
    token: config.mode.embeddedSandbox ? config.sandbox.token : config.provider.token,
    lookupTimeoutMs: config.provider.lookupTimeoutMs,
    executeTimeoutMs: config.provider.executeTimeoutMs,
    maxRetries: config.provider.maxRetries,
    paths: config.provider.paths,
    logger,
  });
  stops.push(() => provider.close());

  const memoryQueue = redis ? undefined : createMemoryNotificationQueue({ now });
  const store = redis
    ? createRedisOrderStore({ redis, prefix, now })
    : createMemoryOrderStore({ outbox: memoryQueue!, now });
  const queue = redis ? createRedisNotificationQueue({ redis, prefix, logger }) : memoryQueue!;
  const orders = createOrders({ store, provider, logger, now, metrics });

  const webhook = createWebhookRoutes({
    secret: config.webhook.secret,
    keyMode: config.webhook.keyMode,
    maxBodyBytes: config.webhook.maxBodyBytes,
    confirmFinal: config.webhook.confirmFinalWithStatusQuery,
    orders,
    provider,
    logger,
    now,
    metrics,
  });
  app.route(config.webhook.path, webhook);

  // The playground's demo agent and admin get their roles unless real ids are configured.
  const roles = {
    agentIds:
      config.mode.playground && config.bot.agentIds.length === 0
        ? [PLAYGROUND_AGENT_ID]
        : config.bot.agentIds,
    adminIds:
      config.mode.playground && config.bot.adminIds.length === 0
        ? [PLAYGROUND_ADMIN_ID]
        : config.bot.adminIds,
  };

  let emulator: BotApiEmulator | undefined;
  let apiRoot: string | undefined = config.bot.apiRoot;
  if (config.mode.playground) {
    emulator = createBotApiEmulator({ token: PLAYGROUND_TOKEN });
    app.route("/telegram", emulator.app);
    apiRoot = `${selfUrl}/telegram`;
    stops.push(() => emulator?.close());
    app.route(
      "/",
      createPlayground({
        emulator,
        sandbox,
        sandboxToken: config.sandbox.token,
        ...roles,
      }),
    );
  }
  const token = config.bot.token ?? PLAYGROUND_TOKEN;

  const botI18n = createI18n<BotContext>(
    (ctx) => ctx.session?.locale ?? localeFromLanguageCode(ctx.from?.language_code),
  );
  const limitSettings = {
    dailyCapPaisa: config.bot.dailySpendCapRupees * 100,
    ordersPerHour: config.bot.ordersPerHour,
    now,
  };
  const deps: BotDeps = {
    catalog,
    provider,
    orders,
    limits: redis ? redisLimits(redis, prefix, limitSettings) : memoryLimits(limitSettings),
    i18n: botI18n,
    settings: {
      ...roles,
      idleMs: config.bot.conversationIdleMs,
      dailyCapPaisa: limitSettings.dailyCapPaisa,
    },
    logger,
    reactivateChat: (chatId) => queue.reactivateChat(chatId),
  };
  const bot = createBot(deps, {
    token,
    ...(apiRoot ? { apiRoot } : {}),
    ...(opts.botInfo ? { botInfo: opts.botInfo } : {}),
    ...(redis ? { redis } : {}),
    redisPrefix: prefix,
    sessionTtlSeconds: config.bot.sessionTtlSeconds,
  });

  const notifier = createNotifier({
    queue,
    orders,
    api: bot.api,
    // Telegram's flood limits are per bot: with Redis every process draws on one shared budget.
    pacer: createSendPacer({
      store: redis ? redisPaceStore(redis, prefix) : memoryPaceStore(),
      now,
    }),
    render: notificationRender(botI18n),
    logger,
    consumerName: instance,
    claimIdleMs: config.notifier.claimIdleMs,
    lockMs: config.notifier.lockMs,
    metrics,
    now,
  });
  const reconciler = createReconciler({
    orders,
    provider,
    lease: redis ? createRedisLease(redis, prefix) : createMemoryLease(now),
    logger,
    now,
    intervalMs: config.reconciler.intervalMs,
    minAgeMs: config.reconciler.minAgeMs,
    maxAgeMs: config.reconciler.maxAgeMs,
    notFoundGraceMs: config.reconciler.notFoundGraceMs,
    executeTimeoutMs: config.provider.executeTimeoutMs,
    adminChatIds: [...roles.adminIds],
    metrics,
  });

  // Telegram webhook mode: the path and secret derive from the token, so they cannot be guessed.
  const tokenHash = createHash("sha256").update(token).digest("hex");
  const telegramWebhookPath = `/telegram-webhook/${tokenHash.slice(0, 32)}`;
  const telegramSecret = tokenHash.slice(32, 64);
  if (config.http.publicUrl) {
    app.post(telegramWebhookPath, webhookCallback(bot, "hono", { secretToken: telegramSecret }));
  }

  ready = true;
  const stopServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ("closeAllConnections" in server)
        (server as { closeAllConnections(): void }).closeAllConnections();
    });

  let runner: RunnerHandle | undefined;
  if (opts.workers !== false) {
    await bot.init();
    if (sandbox) {
      const connected = await sandbox.connectWebhook(config.sandbox.token);
      logger.info({ connected }, "sandbox webhook connected");
    }
    await registerCommands(bot.api, deps).catch((err) =>
      logger.warn({ err: String(err) }, "setMyCommands failed"),
    );
    notifier.start();
    reconciler.start();
    if (config.http.publicUrl) {
      await bot.api.setWebhook(`${config.http.publicUrl}${telegramWebhookPath}`, {
        secret_token: telegramSecret,
        drop_pending_updates: false,
      });
    } else {
      await bot.api.deleteWebhook();
      runner = run(bot);
    }
  }

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    if (runner?.isRunning()) await runner.stop();
    await reconciler.stop();
    await notifier.stop();
    await webhook.settled();
    await stopServer();
    for (const s of stops.reverse()) {
      await Promise.resolve(s()).catch((err) => logger.warn({ err: String(err) }, "stop failed"));
    }
  }

  return {
    config,
    url: selfUrl,
    port,
    app,
    bot,
    deps,
    orders,
    store,
    queue,
    provider,
    sandbox,
    emulator,
    notifier,
    reconciler,
    webhook,
    registry,
    logger,
    redis,
    stop,
  };
}

export type System = Awaited<ReturnType<typeof startSystem>>;
