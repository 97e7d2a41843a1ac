import { createHash } from "node:crypto";
import { type RunnerHandle, run } from "@grammyjs/runner";
import { GrammyError } from "grammy";
import { registerCommands } from "../../conversations/index.ts";
import type { BotDeps } from "../bot/deps.ts";
import { errorFields } from "../bot/error-boundary.ts";
import { telegramWebhook } from "../bot/webhook-transport.ts";
import type { TelegramContact } from "../telegram/api.ts";
import type { Base } from "./base.ts";
import type { BotApiTarget, ProductBot } from "./bot.ts";
import type { HttpApp } from "./server.ts";

/**
 * Telegram webhook mode (PUBLIC_URL set): the path and secret derive from the token, so they
 * cannot be guessed. Mounted before the start; Telegram is told of it by startWorkers.
 */
export function mountTelegramWebhook(base: Base, app: HttpApp, bot: ProductBot, token: string) {
  const { config, logger } = base;
  if (!config.http.publicUrl) return undefined;
  const tokenHash = createHash("sha256").update(token).digest("hex");
  const path = `/telegram-webhook/${tokenHash.slice(0, 32)}`;
  const secret = tokenHash.slice(32, 64);
  const handler = telegramWebhook(bot, {
    secretToken: secret,
    answerWithinMs: config.bot.webhookAnswerMs,
    logger,
  });
  app.post(path, handler);
  base.webhookPosts.add(path);
  return {
    url: `${config.http.publicUrl}${path}`,
    path,
    secret,
    /** Updates still being handled, answered to Telegram or not (the stop waits for them). */
    inHand: handler.inHand,
  };
}
export type TelegramHook = ReturnType<typeof mountTelegramWebhook>;

/**
 * The bot must know itself (getMe) before anything reports ready. Every Bot API call is bounded
 * (src/telegram/api.ts), so a dead Bot API or a refused token fails the start here instead of
 * hanging it.
 */
export async function knowBot(bot: ProductBot, target: BotApiTarget): Promise<void> {
  try {
    // Not bot.init(): it retries network errors forever, whatever the API's own policy says.
    if (!bot.isInited()) bot.botInfo = await bot.api.getMe();
  } catch (err) {
    throw new Error(getMeFailure(err, target.apiRoot));
  }
}

/** Why the start stopped at getMe, in words an operator can act on (never the token itself). */
function getMeFailure(err: unknown, apiRoot: string | undefined): string {
  const where = apiRoot ?? "https://api.telegram.org";
  if (err instanceof GrammyError && (err.error_code === 401 || err.error_code === 404)) {
    return `Telegram rejected the bot token: getMe answered ${err.error_code} ${err.description}. Check BOT_TOKEN.`;
  }
  const why = err instanceof Error ? err.message : String(err);
  return `The Telegram Bot API at ${where} did not answer getMe (${why}). Check the network and TELEGRAM_API_ROOT.`;
}

const TELEGRAM_STALE_MS = 120_000;

/**
 * Telegram's reachability is reported on /healthz without failing it: an unreachable Telegram is
 * the same for every instance, and a load balancer that took them all out of service for it would
 * only add an outage of the webhook receiver and the notifier's backlog to Telegram's.
 */
export function watchTelegram(base: Base, bot: ProductBot, telegram: TelegramContact): void {
  base.health.push({
    name: "telegram",
    critical: false,
    check: async () => telegram.recent(TELEGRAM_STALE_MS),
  });
  // An idle bot makes no calls (webhook mode without traffic): ask getMe now and then.
  let probing = false;
  const probe = setInterval(() => {
    if (probing || telegram.recent(TELEGRAM_STALE_MS / 4)) return;
    probing = true;
    void bot.api
      .getMe()
      .catch((err) => base.logger.warn({ err: errorFields(err) }, "Telegram Bot API unreachable"))
      .finally(() => {
        probing = false;
      });
  }, TELEGRAM_STALE_MS / 4);
  probe.unref();
  base.stops.add(() => clearInterval(probe));
}

interface Workers {
  start(): void;
  stop(): Promise<void>;
}

/**
 * Once ready: the bot's commands, the notifier and reconciler, and the updates (Telegram's webhook
 * when PUBLIC_URL is set, long polling otherwise). Returns the polling runner, if any.
 */
export async function startWorkers(
  base: Base,
  parts: {
    bot: ProductBot;
    deps: BotDeps;
    workers: Workers[];
    hook: TelegramHook;
    /** False when WhatsApp runs alone: no command menu, no webhook, no polling. */
    telegram: boolean;
    /** The back office runs: /dashboard joins the admins' and agents' menus. */
    dashboard?: boolean;
  },
): Promise<RunnerHandle | undefined> {
  const { bot, hook } = parts;
  if (parts.telegram) {
    await registerCommands(bot.api, parts.deps, { dashboard: parts.dashboard === true }).catch(
      (err) => base.logger.warn({ err: String(err) }, "setMyCommands failed"),
    );
  }
  for (const w of parts.workers) w.start();
  if (!parts.telegram) return undefined;
  if (hook) {
    await bot.api.setWebhook(hook.url, { secret_token: hook.secret, drop_pending_updates: false });
    return undefined;
  }
  await bot.api.deleteWebhook();
  // The runner would console.error a failed getUpdates (outside pino's scrubbing): it stays silent
  // and the failure is logged here instead; it keeps polling with its own backoff.
  bot.api.config.use(async (prev, method, payload, signal) => {
    const failed = (err: Record<string, unknown>) => {
      if (method === "getUpdates" && !signal?.aborted)
        base.logger.warn({ err }, "fetching updates failed; polling again");
    };
    try {
      const res = await prev(method, payload, signal);
      if (!res.ok) failed({ error_code: res.error_code, description: res.description });
      return res;
    } catch (err) {
      failed(errorFields(err));
      throw err;
    }
  });
  return run(bot, { runner: { silent: true } });
}
