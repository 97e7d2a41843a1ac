import { type Bot, type Context, webhookCallback } from "grammy";
import type { Update } from "grammy/types";
import type { Context as HonoContext } from "hono";
import type { Logger } from "../logger.ts";
import { readCapped, TooLarge } from "../webhook/read-body.ts";
import { errorFields } from "./error-boundary.ts";

/** Telegram's updates are a few KiB (a message of 4096 characters, a photo's ids); 1 MiB is ample. */
export const TELEGRAM_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

export interface TelegramWebhookOptions {
  secretToken: string;
  /**
   * Telegram gets its 200 after at most this long, even while the update is still being handled
   * (an execute may take 30 s, a lookup 40 s with retries). Default 3 s.
   */
  answerWithinMs?: number;
  logger: Logger;
  /** A larger body is answered 413 without being buffered. Default 1 MiB. */
  bodyLimitBytes?: number;
}

/** A body that is not an update: answered with `status`, the bot never sees it. */
class BodyRefused extends Error {
  constructor(
    readonly status: 400 | 413,
    why: string,
    /** false: the sender may still be writing; the connection is closed after the answer. */
    readonly drained = true,
  ) {
    super(why);
  }
}

/** What the bot may be handed: a JSON object with an update id (Telegram's are non-negative). */
function isUpdate(body: unknown): body is Update {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const id = (body as { update_id?: unknown }).update_id;
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0;
}

/** The body, read within the cap, parsed and checked; BodyRefused otherwise. */
async function readUpdate(req: Request, max: number): Promise<Update> {
  let text: string;
  try {
    text = await readCapped(req, max);
  } catch (err) {
    if (err instanceof TooLarge) throw new BodyRefused(413, "body too large", err.drained);
    throw new BodyRefused(400, "body unreadable");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BodyRefused(400, "body not JSON");
  }
  if (!isUpdate(body)) throw new BodyRefused(400, "body not an update (no numeric update_id)");
  return body;
}

/**
 * The Hono handler of Telegram's webhook, and the updates it still has in hand (a stop waits for
 * them, as it waits for the runner's in polling mode).
 *
 * Why this shape: grammY's webhookCallback answers Telegram only when the update is handled, and
 * by default throws after 10 s; Hono then answered 500 and Telegram redelivered the update while
 * the first run was still executing. Here the answer goes out when the update is handled or after
 * `answerWithinMs` from the body's reading, whichever is first, and the handling goes on in the
 * background: the chat's turn (chat-order.ts) keeps one chat's updates in order in this process and
 * across instances (the next update, sent once this one was answered, waits), and the update claim
 * (dedupe.ts) keeps its lease renewed until the handling ends, so a redelivery of the same update
 * (to this or another instance) waits for it and is then ignored. A fast update is still answered
 * only once it is done, so an instance that dies mid-update is covered by Telegram's redelivery.
 * One answered early is Telegram's no more: `inHand` counts it until it ends, so a graceful stop
 * does not close Redis under it (its last writes, the conversation's step, would be lost and the
 * user told that something went wrong). The error boundary (error-boundary.ts) is the bot's first
 * middleware, so a handler error never reaches this far; anything else that does is logged here
 * without the context and answered without a 5xx.
 *
 * The body: grammY checks the secret token header first, and only then is the body read (the
 * adapter's `update`), within `bodyLimitBytes` (413 past it), and handed to the bot only when it is
 * a JSON object with a numeric update_id (400 otherwise, the bot's middleware never running).
 */
export function telegramWebhook<C extends Context>(bot: Bot<C>, opts: TelegramWebhookOptions) {
  const max = opts.bodyLimitBytes ?? TELEGRAM_WEBHOOK_MAX_BODY_BYTES;
  const answerWithinMs = opts.answerWithinMs ?? 3_000;
  // grammY's own "hono" adapter, with the body read within the cap and checked. grammY reads
  // `update` only after the secret token matched; `read` is told once the body is an update.
  const adapter = (c: HonoContext, read: () => void) => {
    let answer!: (res: Response) => void;
    return {
      get update() {
        return readUpdate(c.req.raw, max).then((u) => {
          read();
          return u;
        });
      },
      header: c.req.header("X-Telegram-Bot-Api-Secret-Token"),
      end: () => answer(c.body("")),
      respond: (json: string) => answer(c.body(json, 200, { "Content-Type": "application/json" })),
      unauthorized: () => answer(c.body("", 401)),
      handlerReturn: new Promise<Response>((resolve) => {
        answer = resolve;
      }),
    };
  };
  // No timeout of grammY's: its "return" answers early but leaves nothing to wait on.
  const callback = webhookCallback(bot, adapter, {
    secretToken: opts.secretToken,
    timeoutMilliseconds: Number.POSITIVE_INFINITY,
  });
  const handling = new Set<Promise<void>>();
  const refused = (c: HonoContext, err: unknown): Response => {
    // A body that is not an update will not become one on redelivery.
    if (err instanceof BodyRefused) {
      opts.logger.warn({ why: err.message, limit: max }, "telegram webhook: body refused");
      if (!err.drained) c.header("Connection", "close");
      return c.body(null, err.status);
    }
    opts.logger.error({ err: errorFields(err) }, "telegram webhook update not handled");
    return c.body(null, 200);
  };
  const handler = async (c: HonoContext): Promise<Response> => {
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    let answerNow = () => {};
    const timeUp = new Promise<undefined>((resolve) => {
      answerNow = () => resolve(undefined);
    });
    const work = callback(c, () => {
      timer = setTimeout(answerNow, answerWithinMs);
    });
    const tracked: Promise<void> = work
      .then(
        () => undefined,
        (err: unknown) => {
          // Answered already (early): the failure can only be logged.
          if (answered) refused(c, err);
        },
      )
      .finally(() => {
        clearTimeout(timer);
        handling.delete(tracked);
      });
    handling.add(tracked);
    try {
      return (await Promise.race([work, timeUp])) ?? c.body("");
    } catch (err) {
      return refused(c, err);
    } finally {
      answered = true;
    }
  };
  return Object.assign(handler, {
    /** Updates whose handling has not ended (answered early or not). */
    inHand: () => handling.size,
  });
}
