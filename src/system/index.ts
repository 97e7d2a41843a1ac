import { setTimeout as sleep } from "node:timers/promises";
import type { UserFromGetMe } from "grammy/types";
import type { AnyCategoryModule } from "../categories/index.ts";
import { ensureRefundMarks } from "../complaints/index.ts";
import type { Config } from "../config/index.ts";
import { ensureLedgerIndex } from "../ledger/index-backfill.ts";
import type { SandboxOverrides } from "../local-mode.ts";
import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { type Base, createBase } from "./base.ts";
import { type Parts, wireParts } from "./parts.ts";
import { openMetricsListener, openPublicListener, type PublicListener } from "./server.ts";
import { knowBot, startWorkers, watchTelegram } from "./start.ts";
import { wireRedis } from "./stores.ts";

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
  /** The categories offered (default: the registry, src/categories/index.ts); tests add their own. */
  categories?: readonly AnyCategoryModule[];
}

/** One running process: where it answers, its logger, how to stop it, and the parts it is made of. */
export interface System {
  /** The public listener's URL (and its port: PORT=0 picks one). */
  url: string;
  port: number;
  /** GET here for Prometheus (with the bearer token when METRICS_TOKEN is set). */
  metricsUrl: string;
  logger: Logger;
  /** Stops everything, in the reverse order of starting; a second call does nothing. */
  stop(): Promise<void>;
  /** What the process is built of, as built (tests and benchmarks drive and watch these). */
  parts: SystemParts;
}

/**
 * Builds and starts every part of one process from the configuration: the HTTP server, local mode
 * (embedded sandbox, Bot API emulator, playground) when nothing real is configured, the orders
 * service with its webhook receiver, notifier and reconciler, and the bot. `main.ts` and the
 * end-to-end tests both start the product through here, so tests run exactly what users run. The
 * parts are wired in src/system/parts.ts; this function only says in which order.
 */
export async function startSystem(opts: SystemOptions): Promise<System> {
  const base = createBase(opts);
  const redis = wireRedis(base, opts.redis);
  const listener = await openPublicListener(base);
  const { server } = listener;
  try {
    // The journal export runs on its own thread only over a connection this process made.
    const offThread = redis !== undefined && !opts.redis;
    const parts = await wireParts(base, { ...opts, journalOffThread: offThread }, redis, listener);
    const metricsUrl = await openMetricsListener(base, {
      report: () => parts.money.books.report(),
      // The same export as the back office's download (system/journal-export.ts).
      journalCsv: parts.journalCsv,
    });
    // A journal booked before the read index existed gets it before any statement is read; a
    // complaint refund booked before the order's refund mark existed gets its mark.
    if (redis) {
      await ensureLedgerIndex(redis, base.config.redis.prefix, (added, ms) =>
        base.logger.info({ added, ms }, "ledger read index backfilled"),
      );
      await ensureRefundMarks(redis, base.config.redis.prefix, (marked) =>
        base.logger.info({ marked }, "complaint refund marks backfilled"),
      );
    }
    const stop = await start(base, opts, listener, parts);
    return {
      url: server.url,
      port: server.port,
      metricsUrl,
      logger: base.logger,
      stop,
      parts: { config: base.config, app: listener.app, registry: base.registry, redis, ...parts },
    };
  } catch (err) {
    // A start that fails (a refused token, an unreachable Bot API, a bad SANDBOX_FAULTS, a port
    // in use) leaves nothing listening or running behind it.
    await server.close();
    await base.stops.runAll();
    throw err;
  }
}

/** The parts as built, with the configuration, the public app and the registry they run on. */
type SystemParts = Parts & {
  config: Config;
  app: PublicListener["app"];
  registry: Base["registry"];
  redis: RedisClient | undefined;
};

/**
 * Ready once the bot knows itself; then the catalogue's sync and, unless `workers: false`, the
 * workers and the updates. Returns the stop, which undoes it in the reverse order.
 */
async function start(base: Base, opts: SystemOptions, listener: PublicListener, parts: Parts) {
  const { bot, money, catalogSync, notifier, idleSweeper, topUp } = parts;
  await knowBot(bot, parts.botApi);
  if (parts.telegramOn) watchTelegram(base, bot, parts.telegram);
  listener.gate.ready = true;
  // The provider's operator lookups (after `ready`: the embedded sandbox is served by our own
  // server). Never fails the start: a cached listing or the rules serve meanwhile.
  await catalogSync.start();
  // WhatsApp's customers' messages, handed to the same bot as Telegram's updates.
  const whatsapp = parts.whatsapp?.worker((u) => bot.handleUpdate(u));
  const workers = [
    notifier,
    money.reconciler,
    money.booksCheck,
    idleSweeper,
    ...(topUp ? [topUp.reconciler] : []),
    ...(whatsapp ? [whatsapp] : []),
    ...(base.config.reminders.on ? [parts.reminders] : []),
  ];
  let runner: Awaited<ReturnType<typeof startWorkers>>;
  if (opts.workers !== false) {
    await parts.local?.connect(base.logger);
    runner = await startWorkers(base, {
      bot,
      deps: parts.deps,
      workers,
      hook: parts.hook,
      telegram: parts.telegramOn,
      dashboard: parts.dashboard !== undefined,
    });
    parts.operations.started();
  }
  // Stopped in the reverse order of starting: updates, workers, webhooks in flight, the rest.
  return once(async () => {
    if (runner?.isRunning()) await runner.stop();
    await drained(() => (runner?.size() ?? 0) + (parts.hook?.inHand() ?? 0), base.logger);
    await whatsapp?.stop();
    await idleSweeper.stop();
    await parts.reminders.stop();
    await money.reconciler.stop();
    await money.booksCheck.stop();
    await topUp?.reconciler.stop();
    await notifier.stop();
    await catalogSync.stop();
    await money.webhook.settled();
    await listener.server.close();
    await base.stops.runAll();
  });
}

/** Longest a stop waits for the updates in hand (a flow waiting for another instance's turn). */
const DRAIN_MS = 10_000;

/**
 * Waits for the updates in hand to be handled: the runner's (its stop only stops fetching) and the
 * Telegram webhook's (answered early, Telegram counts them delivered). An update cut off here
 * would lose what it writes last (the conversation's state, the question's idle deadline) once
 * the Redis connection closes, and its user would be told something went wrong.
 */
async function drained(inHand: () => number, logger: Logger): Promise<void> {
  if (inHand() === 0) return;
  logger.info({ updates: inHand() }, "stopping: waiting for the updates in hand");
  const until = Date.now() + DRAIN_MS;
  while (inHand() > 0) {
    if (Date.now() > until) {
      logger.warn({ updates: inHand() }, "stopped with updates still being handled");
      return;
    }
    await sleep(10);
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    await fn();
  };
}
