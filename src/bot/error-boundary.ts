import type { I18n } from "@grammyjs/i18n";
import { BotError, type Context, GrammyError, HttpError, type MiddlewareFn } from "grammy";
import type { Logger } from "../logger.ts";
import { localeFromLanguageCode, translator } from "./i18n.ts";

/**
 * The one error boundary of the bot, installed as its first middleware, so that it holds in every
 * transport: long polling through @grammyjs/runner, Telegram's webhook (grammY's webhookCallback
 * does not call bot.catch; an error used to reach Hono, whose default handler printed the whole
 * context, bot token included, and answered 500 so Telegram redelivered) and bot.handleUpdate.
 * Nothing escapes it: the error is logged through pino (which scrubs secrets) with its stack, the
 * user gets the generic error reply where there is a chat to reply in, and the update counts as
 * handled.
 */

const NOT_MODIFIED = /message is not modified/i;

/** "message is not modified": a double tap, or two instances editing to the same text. Harmless. */
export function isNotModified(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && NOT_MODIFIED.test(err.description);
}

/**
 * A failure a retry of the same update cannot fix: Telegram refused the request (4xx other than
 * 429). Such an update is marked done (see dedupe.ts) so that a redelivery does not run it again.
 */
export function isPermanentFailure(err: unknown): boolean {
  return (
    err instanceof GrammyError &&
    err.error_code >= 400 &&
    err.error_code < 500 &&
    err.error_code !== 429
  );
}

/**
 * What may be logged of an error. Never the error object itself: a BotError carries the context,
 * whose `api` holds the bot token; anything else might carry who knows what.
 */
export function errorFields(err: unknown): Record<string, unknown> {
  const e = err instanceof BotError ? err.error : err;
  if (!(e instanceof Error)) return { message: String(e) };
  const fields: Record<string, unknown> = { type: e.name, message: e.message, stack: e.stack };
  if (e instanceof GrammyError) {
    fields.method = e.method;
    fields.error_code = e.error_code;
    fields.description = e.description;
  }
  if (e instanceof HttpError && e.error instanceof Error) fields.cause = e.error.message;
  return fields;
}

export interface ErrorBoundaryDeps {
  logger: Logger;
  // biome-ignore lint/suspicious/noExplicitAny: any bot context's I18n works here
  i18n: I18n<any>;
}

/** Logs a failed update and tells the user; never throws. */
export async function reportUpdateError(
  ctx: Context,
  err: unknown,
  deps: ErrorBoundaryDeps,
): Promise<void> {
  const cause = err instanceof BotError ? err.error : err;
  const update = { updateId: ctx.update.update_id, chatId: ctx.chat?.id };
  if (isNotModified(cause)) {
    deps.logger.debug(update, "message is not modified; ignored");
    return;
  }
  deps.logger.error(
    { ...update, err: errorFields(cause), permanent: isPermanentFailure(cause) },
    "bot update failed",
  );
  if (ctx.chat?.type !== "private") return;
  try {
    await ctx.reply(errorText(ctx, deps));
  } catch (replyErr) {
    deps.logger.warn({ ...update, err: errorFields(replyErr) }, "error reply failed");
  }
}

/** The generic error text in the user's language, even when the error came before i18n ran. */
function errorText(ctx: Context, deps: ErrorBoundaryDeps): string {
  const t = (ctx as { t?: unknown }).t;
  if (typeof t === "function") {
    try {
      return (t as (key: string) => string).call(ctx, "common-error");
    } catch {
      // falls through to the language code
    }
  }
  return translator(deps.i18n, localeFromLanguageCode(ctx.from?.language_code))("common-error");
}

export function errorBoundary<C extends Context>(deps: ErrorBoundaryDeps): MiddlewareFn<C> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      await reportUpdateError(ctx, err, deps).catch(() => undefined);
    }
  };
}
