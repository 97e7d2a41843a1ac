import { type Bot, type Context, webhookCallback } from "grammy";
import type { Context as HonoContext } from "hono";
import type { Logger } from "../logger.ts";
import { errorFields } from "./error-boundary.ts";

export interface TelegramWebhookOptions {
  secretToken: string;
  /**
   * Telegram gets its 200 after at most this long, even while the update is still being handled
   * (an execute may take 30 s, a lookup 40 s with retries). Default 3 s.
   */
  answerWithinMs?: number;
  logger: Logger;
}

/**
 * The Hono handler of Telegram's webhook.
 *
 * Why this shape: grammY's webhookCallback answers Telegram only when the update is handled, and
 * by default throws after 10 s; Hono then answered 500 and Telegram redelivered the update while
 * the first run was still executing. Here the answer goes out when the update is handled or after
 * `answerWithinMs`, whichever is first (onTimeout "return"), and the handling goes on in the
 * background: the chat's turn (chat-order.ts) keeps one chat's updates in order in this process and
 * across instances (the next update, sent once this one was answered, waits), and the update claim
 * (dedupe.ts) keeps its lease renewed until the handling ends, so a redelivery of the same update
 * (to this or another instance) waits for it and is then ignored. A fast update is still answered
 * only once it is done, so an instance that dies mid-update is covered by Telegram's redelivery.
 * The error boundary (error-boundary.ts) is the bot's first middleware, so a handler error never
 * reaches this far; a malformed body or anything else that does is logged here without the context
 * and answered without a 5xx.
 */
export function telegramWebhook<C extends Context>(bot: Bot<C>, opts: TelegramWebhookOptions) {
  const callback = webhookCallback(bot, "hono", {
    secretToken: opts.secretToken,
    onTimeout: "return",
    timeoutMilliseconds: opts.answerWithinMs ?? 3_000,
  });
  return async (c: HonoContext): Promise<Response> => {
    try {
      return await callback(c);
    } catch (err) {
      opts.logger.error({ err: errorFields(err) }, "telegram webhook update not handled");
      // A body that is not an update will not become one on redelivery.
      return c.body(null, err instanceof SyntaxError ? 400 : 200);
    }
  };
}
