import type { UserFromGetMe } from "grammy/types";
import type { Config } from "./config/index.ts";
import { exportJournalCsv } from "./ledger/index.ts";
import type { LocalMode, LocalModeContext, SandboxOverrides } from "./local-mode.ts";
import type { Logger } from "./logger.ts";
import type { RedisClient } from "./redis/connection.ts";
import { type Base, createBase } from "./system/base.ts";
import { botDeps, wireBot, wireIdleSweeper, wireNotifier } from "./system/bot.ts";
import { wireCatalog } from "./system/catalog.ts";
import { wireMoneyPath } from "./system/money-path.ts";
import { watchOperations } from "./system/operations.ts";
import { type Listeners, openListeners } from "./system/server.ts";
import { knowBot, mountTelegramWebhook, startWorkers, watchTelegram } from "./system/start.ts";
import { wireRedis, wireStores } from "./system/stores.ts";
import { wireTopUps } from "./system/top-up.ts";

export interface SystemOptions {
  config: Config;
  logger?: Logger;
  now?: () => number;
  /** Overrides of the embedded sandbox (delays, faults) for tests and demos. */
  sandbox?: SandboxOverrides;
  /** Skip getMe (benchmarks, tests with a known bot). */
  botInfo?: UserFromGetMe;
  /** Unique per process; defaults to hostname-pid. */
  instanceName?: string;
  /** Start polling / notifier / reconciler (default true); tests may drive parts by hand. */
  workers?: boolean;
  /** Use an existing Redis connection instead of config.redis.url (tests). */
  redis?: RedisClient;
}

/**
 * Builds and starts every part of one process from the configuration: the HTTP server, local mode
 * (embedded sandbox, Bot API emulator, playground) when nothing real is configured, the orders
 * service with its webhook receiver, notifier and reconciler, and the bot. `main.ts` and the
 * end-to-end tests both start the product through here, so tests run exactly what users run. The
 * parts are wired in src/system/; this function only says in which order.
 */
export async function startSystem(opts: SystemOptions) {
  const base = createBase(opts);
  const redis = wireRedis(base, opts.redis);
  const listeners = await openListeners(base);
  const { app, gate, server } = listeners;
  try {
    const parts = await wire(base, opts, redis, listeners);
    const {
      local,
      bot,
      deps,
      notifier,
      reconciler,
      webhook,
      catalogSync,
      books,
      booksCheck,
      idleSweeper,
    } = parts;
    listeners.books.report = () => books.report();
    listeners.books.journalCsv = (range) => exportJournalCsv(parts.stores.ledger, range);
    await knowBot(bot, parts.target);
    watchTelegram(base, bot, parts.telegram);
    gate.ready = true;
    // The provider's operator lookups (after `ready`: the embedded sandbox is served by our own
    // server). Never fails the start: a cached listing or the rules serve meanwhile.
    await catalogSync.start();

    let runner: Awaited<ReturnType<typeof startWorkers>>;
    if (opts.workers !== false) {
      await local?.connect(base.logger);
      const workers = [
        notifier,
        reconciler,
        booksCheck,
        idleSweeper,
        ...(parts.topUp ? [parts.topUp.reconciler] : []),
      ];
      runner = await startWorkers(base, { bot, deps, workers, hook: parts.hook });
      parts.operations.started();
    }
    // Stopped in the reverse order of starting: updates, workers, webhooks in flight, the rest.
    const stop = once(async () => {
      if (runner?.isRunning()) await runner.stop();
      await idleSweeper.stop();
      await reconciler.stop();
      await booksCheck.stop();
      await parts.topUp?.reconciler.stop();
      await notifier.stop();
      await catalogSync.stop();
      await webhook.settled();
      await server.close();
      await base.stops.runAll();
    });
    return {
      config: base.config,
      url: server.url,
      port: server.port,
      /** GET here for Prometheus (with the bearer token when METRICS_TOKEN is set). */
      metricsUrl: listeners.metricsUrl,
      app,
      bot,
      deps,
      orders: parts.orders,
      store: parts.stores.store,
      /** The merchant's books: the order store holds and settles each order's price in them. */
      ledger: parts.stores.ledger,
      /** The admin's books: report (as /books shows it) and the scheduled check. */
      books,
      booksCheck,
      queue: parts.stores.queue,
      provider: parts.provider,
      /** Keeps the catalogue's offer in step with the provider's operator lookups. */
      catalogSync,
      sandbox: local?.sandbox,
      emulator: local?.emulator,
      notifier,
      reconciler,
      webhook,
      /** Adding money online (undefined without a gateway); `khalti` is the local stand-in. */
      topUps: parts.topUp?.topUps,
      topUpReconciler: parts.topUp?.reconciler,
      khalti: local?.khaltiStandIn,
      registry: base.registry,
      logger: base.logger,
      redis,
      stop,
    };
  } catch (err) {
    // A start that fails (a refused token, an unreachable Bot API, a bad SANDBOX_FAULTS) leaves
    // nothing listening or running behind it.
    await server.close();
    await base.stops.runAll();
    throw err;
  }
}

/** Every part, built and mounted, nothing started yet; local mode replaces the real outside. */
async function wire(
  base: Base,
  opts: SystemOptions,
  redis: RedisClient | undefined,
  { app, gate, server }: Listeners,
) {
  const { config } = base;
  const local = await loadLocalMode(base, {
    app,
    selfUrl: server.url,
    sandbox: opts.sandbox,
    now: opts.now,
  });
  if (local) gate.early = local.servesEarly;
  const roles = local?.roles ?? { agentIds: config.bot.agentIds, adminIds: config.bot.adminIds };
  const stores = wireStores(base, redis);
  const money = wireMoneyPath(base, {
    app,
    stores,
    target: local?.provider ?? { baseUrl: config.provider.baseUrl, token: config.provider.token },
    adminIds: roles.adminIds,
  });
  const { provider, orders } = money;
  const { catalog, catalogSync } = wireCatalog(base, provider, redis);
  const deps = botDeps(base, { catalog, provider, orders, stores, roles, books: money.books });
  // Pushes go through the bot's API, which exists once wireBot has run (they start after that).
  let send = async (_chatId: number, _text: string): Promise<void> => {
    throw new Error("the bot is not wired yet");
  };
  const topUp = wireTopUps(base, {
    app,
    stores,
    selfUrl: server.url,
    standIn: local?.khalti,
    adminIds: roles.adminIds,
    i18n: deps.i18n,
    send: (chatId, text) => send(chatId, text),
  });
  if (topUp) deps.topUps = topUp.topUps;
  const operations = watchOperations(base, {
    redis,
    stores,
    provider: money.providerWatch,
    gateway: topUp !== undefined,
  });
  if (local && deps.accounts) {
    await local.attachBooks({
      ledger: stores.ledger,
      accounts: deps.accounts,
      logger: base.logger,
    });
  }
  // Without the emulator BOT_TOKEN is set (loadConfig: no BOT_TOKEN means the playground).
  const target = local?.botApi ?? { token: config.bot.token ?? "", apiRoot: config.bot.apiRoot };
  const { bot, telegram } = wireBot(base, deps, { target, redis, botInfo: opts.botInfo });
  send = async (chatId, text) => {
    await bot.api.sendMessage(chatId, text);
  };
  const notifier = wireNotifier(base, { stores, orders, bot, deps });
  const idleSweeper = wireIdleSweeper(base, { stores, bot, deps });
  const hook = mountTelegramWebhook(base, app, bot, target.token);
  return {
    ...money,
    local,
    stores,
    deps,
    target,
    bot,
    telegram,
    notifier,
    idleSweeper,
    hook,
    catalogSync,
    topUp,
    operations,
  };
}

export type System = Awaited<ReturnType<typeof startSystem>>;

/**
 * Local mode is one plug (src/local-mode.ts), imported only when the configuration uses it, so a
 * production process (real provider, real Telegram) never loads the sandbox or the emulator.
 */
async function loadLocalMode(
  base: Base,
  at: Pick<LocalModeContext, "app" | "selfUrl" | "sandbox" | "now">,
): Promise<LocalMode | undefined> {
  const { config } = base;
  if (!config.mode.embeddedSandbox && !config.mode.playground) return undefined;
  const { startLocalMode } = await import("./local-mode.ts");
  const local = startLocalMode({ ...at, config, logger: base.logger });
  base.stops.add(() => local.close());
  return local;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    await fn();
  };
}
