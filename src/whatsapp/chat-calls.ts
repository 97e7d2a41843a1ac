import type { Logger } from "../logger.ts";
import { type ApiAnswer, asApiError, failureAnswer, logFailure } from "./bot-api-failure.ts";
import { answeredAsSent, type WithheldDeps, withheld } from "./withheld.ts";

type Payload = Record<string, unknown>;

/** What `chatCalls` needs of the router's deps (router.ts RouterDeps). */
export interface ChatCallsDeps extends WithheldDeps {
  logger: Logger;
  /** The WhatsApp chat of the number a fresh WhatsApp account holds now; null: none. */
  chatOfAccount?: (accountId: number) => Promise<number | null>;
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
    try {
      const kept = await withheld(deps, method, p, chatId, textOf(p), account);
      if (kept !== null) return { ok: true, result: kept };
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
    try {
      const chatId = (await deps.chatOfAccount?.(account)) ?? null;
      if (chatId !== null) return sent(method, p, chatId, account, signal);
      logger.info({ account, method }, "whatsapp message not sent: the account holds no number");
      return { ok: true, result: await answeredAsSent(deps, method, p, account, textOf(p)) };
    } catch (err) {
      const e = asApiError(err);
      logFailure(logger, { method, chatId: account }, err, e);
      return failureAnswer(e);
    }
  }

  return { sent, freshAnswer };
}
