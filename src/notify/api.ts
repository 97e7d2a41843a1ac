import { Api } from "grammy";
import { boundedRetry, DEFAULT_BOT_API_POLICY } from "../telegram/api.ts";

export interface NotifierApiOptions {
  /** Bot API root (the emulator's URL in the playground); Telegram's by default. */
  apiRoot?: string;
  /** Retries of one call after a 429 / 5xx / network error. Default 2 (3 attempts). */
  maxRetryAttempts?: number;
  /** A 429 asking for a longer wait than this is not waited out but handed to the notifier. Default 5. */
  maxDelaySeconds?: number;
  /** One attempt is aborted after this long. Default 5 s. */
  timeoutMs?: number;
}

/**
 * A grammY Api for the notifier whose calls are bounded (src/telegram/api.ts), so one flood
 * wait or a dead network cannot stall the worker past its send lock; the notifier pauses itself
 * for longer waits. The bot passes its own bot.api instead, which has the same policy.
 */
export function createNotifierApi(token: string, opts: NotifierApiOptions = {}): Api {
  const api = new Api(token, opts.apiRoot ? { apiRoot: opts.apiRoot } : undefined);
  api.config.use(
    boundedRetry({
      attempts: (opts.maxRetryAttempts ?? DEFAULT_BOT_API_POLICY.attempts - 1) + 1,
      maxDelayMs: (opts.maxDelaySeconds ?? DEFAULT_BOT_API_POLICY.maxDelayMs / 1000) * 1000,
      timeoutMs: opts.timeoutMs ?? DEFAULT_BOT_API_POLICY.timeoutMs,
    }),
  );
  return api;
}
