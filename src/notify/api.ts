import { autoRetry } from "@grammyjs/auto-retry";
import { Api } from "grammy";

export interface NotifierApiOptions {
  /** Bot API root (the emulator's URL in the playground); Telegram's by default. */
  apiRoot?: string;
  /** Retries of one call after a 429 / 5xx / network error. Default 3. */
  maxRetryAttempts?: number;
  /** A 429 asking for a longer wait than this is not waited out but handed to the notifier. Default 10. */
  maxDelaySeconds?: number;
}

/**
 * A grammY Api for the notifier with @grammyjs/auto-retry installed and bounded, so one flood wait
 * cannot stall the worker for minutes; the notifier pauses itself for longer waits. The bot may pass
 * its own bot.api instead, as long as auto-retry is installed on it.
 */
export function createNotifierApi(token: string, opts: NotifierApiOptions = {}): Api {
  const api = new Api(token, opts.apiRoot ? { apiRoot: opts.apiRoot } : undefined);
  api.config.use(
    autoRetry({
      maxRetryAttempts: opts.maxRetryAttempts ?? 3,
      maxDelaySeconds: opts.maxDelaySeconds ?? 10,
    }),
  );
  return api;
}
