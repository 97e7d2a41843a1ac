import type { Logger } from "../logger.ts";
import { NOT_SENT_PREFIX } from "../telegram/api.ts";
import { type ApiAnswer, asApiError, failureAnswer, logFailure } from "./bot-api-failure.ts";
import { answeredAsSent, type WithheldDeps, withheld } from "./withheld.ts";

type Payload = Record<string, unknown>;

/** What `chatCalls` needs of the router's deps (router.ts RouterDeps). */
export interface ChatCallsDeps extends WithheldDeps {
  logger: Logger;
  /** The WhatsApp chat of the number a fresh WhatsApp account holds now; null: none. */
  chatOfAccount?: (accountId: number) => Promise<number | null>;
}

/**
 * A store read before the send failed (the per-push hold check, the fresh account's chat: a
 * Redis or script error): nothing went out, so it is a 503 that says so (bot-api-failure.ts), and
 * the notifier tries again, never counting a possible duplicate (review s23-c, note 7).
 */
function notSent(logger: Logger, at: { method: string; chatId: number }, err: unknown): ApiAnswer {
  const message = asApiError(err).message;
  logger.warn({ ...at, err: message }, "whatsapp message not sent: a store read before it failed");
  return { ok: false, error_code: 503, description: `${NOT_SENT_PREFIX}store: ${message}` };
}

type Call = (method: string, p: Payload, chatId: number, signal?: AbortSignal) => Promise<unknown>;

/** The calls into WhatsApp chats: withheld, or carried out by `call`; a fresh account's in its chat. */
export function chatCalls(deps: ChatCallsDeps, call: Call, textOf: (p: Payload) => string) {
  const { logger } = deps;
  /** A call into WhatsApp chat `chatId` for `account`'s messages (withheld while it is held). */
  async function sent(
    method: string,
    p: Payload,
    chatId: number,
    account: number,
    signal?: AbortSignal,
  ): Promise<ApiAnswer> {
    let kept: unknown;
    try {
      kept = await withheld(deps, method, p, chatId, textOf(p), account);
    } catch (err) {
      return notSent(logger, { method, chatId }, err);
    }
    if (kept !== null) return { ok: true, result: kept };
    try {
      return { ok: true, result: await call(method, p, chatId, signal) };
    } catch (err) {
      const e = asApiError(err);
      logFailure(logger, { method, chatId }, err, e);
      return failureAnswer(e);
    }
  }

  /**
   * A call for a fresh WhatsApp account: carried out in the chat of the number it holds now (its
   * message ids are that chat's), never passed to Telegram; with no number, answered as sent.
   */
  async function freshAnswer(
    method: string,
    p: Payload,
    account: number,
    signal?: AbortSignal,
  ): Promise<ApiAnswer> {
    let chatId: number | null;
    try {
      chatId = (await deps.chatOfAccount?.(account)) ?? null;
    } catch (err) {
      return notSent(logger, { method, chatId: account }, err);
    }
    if (chatId !== null) return sent(method, p, chatId, account, signal);
    try {
      logger.info({ account, method }, "whatsapp message not sent: the account holds no number");
      return { ok: true, result: await answeredAsSent(deps, method, p, account, textOf(p)) };
    } catch (err) {
      return notSent(logger, { method, chatId: account }, err);
    }
  }

  return { sent, freshAnswer };
}
