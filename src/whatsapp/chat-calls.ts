import type { Logger } from "../logger.ts";
import { NOT_SENT_PREFIX } from "../telegram/api.ts";
import { accountOfCall } from "../telegram/call-account.ts";
import { type ApiAnswer, asApiError, failureAnswer, logFailure } from "./bot-api-failure.ts";
import { isWhatsAppChat } from "./chat-ids.ts";
import { answeredChat } from "./held.ts";
import { answeredAsSent, type WithheldDeps, withholds } from "./withheld.ts";

type Payload = Record<string, unknown>;

/** A call handed on to Telegram with another payload (a released account's Telegram chat). */
export interface PassAs {
  pass: Payload;
}

/** The calls that carry a released account's message to its other chat (edits name this chat's messages). */
const CARRIED: ReadonlySet<string> = new Set(["sendMessage", "sendDocument"]);

/** Edits of an earlier message: its id is this chat's, so it is never carried anywhere else. */
const EDITS: ReadonlySet<string> = new Set(["editMessageText", "editMessageReplyMarkup"]);

/**
 * An edit of an earlier message (a receipt brought to its outcome) to a chat whose number was
 * released: the message is in a chat another person may read now, so it is not edited there, and
 * never answered as sent (review s25-left, 1). "Can't be edited" (notify/api-errors.ts
 * `isUneditable`): an edit carrying a lost push's outcome hands it back to be pushed anew, as its
 * order's account (`withAccount`: the old holder's other chat, else dead-lettered).
 */
const NOT_EDITED: ApiAnswer = {
  ok: false,
  error_code: 400,
  description:
    "Bad Request: message can't be edited: not delivered: the chat's WhatsApp number was released",
};

/**
 * A send for an account with no chat left: refused as the message's own fault (400), so the
 * notifier dead-letters it at once (replayable, `RechargePushesFailing` alerts: a customer is not
 * told) and writes it on the order's timeline as not delivered. Not a chat gone (403): that would
 * mark the id inactive and drop the account's later pushes unrecorded.
 */
const NO_CHAT_LEFT: ApiAnswer = {
  ok: false,
  error_code: 400,
  description:
    "Bad Request: not delivered: the account's WhatsApp number was released and no chat of it remains",
};

/**
 * A message refused as not delivered (400: dead-lettered, on the order's timeline), nothing sent:
 * addressed to a released account's chat that now acts as another account (its number registered
 * to it, or linked to it) when it may be either's, or when it is the other account's but the chat
 * no longer acts as that one; or a released account's document whose only other chat is Telegram's.
 */
const notDelivered = (why: string): ApiAnswer => ({
  ok: false,
  error_code: 400,
  description: `Bad Request: not delivered: ${why}`,
});

/** Who a WhatsApp chat stands for now beside its own account: its number's account, its link's. */
export interface ChatNow {
  /** The account the chat's number is registered to (null: nobody). */
  holder: number | null;
  /** The account the chat is linked to (accounts/links.ts; null: none). */
  link: number | null;
}

/** What `chatCalls` needs of the router's deps (router.ts RouterDeps). */
export interface ChatCallsDeps extends WithheldDeps {
  logger: Logger;
  /** The WhatsApp chat of the number a fresh WhatsApp account holds now; null: none. */
  chatOfAccount?: (accountId: number) => Promise<number | null>;
  /**
   * Where a kept-back account's messages go instead (accounts/released-reach.ts): "held" nowhere
   * (withheld), another chat (a WhatsApp one is carried here, a Telegram one handed on), null:
   * the account has no chat left. Absent: withheld.
   */
  reachOf?: (account: number) => Promise<"held" | { chatId: number } | null>;
  /** Whether Telegram is configured (a released account's Telegram chat can be reached). */
  telegram?: boolean;
  /** Who the chat stands for now (`ChatNow`); absent: its own account only. */
  chatNowOf?: (chatId: number) => Promise<ChatNow>;
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
  /** A call into WhatsApp chat `chatId` for `account`'s messages (kept back while it is blocked). */
  async function sent(
    method: string,
    p: Payload,
    chatId: number,
    account: number,
    signal?: AbortSignal,
  ): Promise<ApiAnswer | PassAs> {
    let blocked: boolean;
    try {
      blocked = await withholds(deps, method, chatId, account);
    } catch (err) {
      return notSent(logger, { method, chatId }, err);
    }
    if (!blocked) return carried(method, p, chatId, signal);
    if (account === chatId) return whose(method, p, chatId, signal);
    return elsewhere(method, p, chatId, account, signal);
  }

  /**
   * A message addressed to a released (or held) account's own chat: whose it is decides, never the
   * chat id alone, as the chat may act as the number's next holder now (linked to their account):
   * the sender names the message's account (telegram/call-account.ts). The chat's old account's
   * goes to its old holder's other chat (`elsewhere`); another account's goes to this chat only
   * while the chat acts as that account (its number and its link both name it), else is not
   * delivered; one of no named account is not delivered either once the number was released
   * (it may be the new holder's, even when the chat stands for nobody now: never carried to the
   * old holder; review s24-j). The old holder's senders name their account (`withAccount`).
   */
  async function whose(method: string, p: Payload, chatId: number, signal?: AbortSignal) {
    const owner = accountOfCall();
    let now: ChatNow;
    try {
      now = (await deps.chatNowOf?.(chatId)) ?? { holder: null, link: null };
    } catch (err) {
      return notSent(logger, { method, chatId }, err);
    }
    // The chat's own account named in an answer to its chat (withheld.ts): while its number is
    // still its own (a hold, its own user id writing) it is that writer's; after a release, not.
    if (owner === chatId && answeredChat() === chatId && now.holder === chatId) {
      return carried(method, p, chatId, signal);
    }
    if (owner !== undefined && owner !== chatId) {
      if (now.holder === owner && now.link === owner) return carried(method, p, chatId, signal);
      logger.warn(
        { chatId, account: owner, method },
        "whatsapp message not delivered: the chat no longer acts as its account",
      );
      return notDelivered("the chat no longer acts as the message's account");
    }
    const other = [now.holder, now.link].some((a) => a !== null && a !== chatId);
    if (owner === undefined && other && CARRIED.has(method)) {
      logger.warn(
        { chatId, method },
        "whatsapp message not delivered: the chat stands for another account now",
      );
      return notDelivered(
        "the released chat stands for another account now; whose message it is is unknown",
      );
    }
    // Unattached and carried: never to the old holder once released (review s24-j, blocker 1).
    return elsewhere(method, p, chatId, chatId, signal, owner === undefined);
  }

  async function carried(method: string, p: Payload, chatId: number, signal?: AbortSignal) {
    try {
      return { ok: true, result: await call(method, p, chatId, signal) } as const;
    } catch (err) {
      const e = asApiError(err);
      logFailure(logger, { method, chatId }, err, e);
      return failureAnswer(e);
    }
  }

  /**
   * A message of a blocked account: withheld while a hold waits; once its number was released,
   * carried to the account's other chat (its old holder's: the number it holds now, a joined
   * Telegram chat), or refused when it has none (`NO_CHAT_LEFT`: dead-lettered and alerted, the
   * order's timeline records the push not delivered; never answered as sent). An edit is never
   * carried (its message is this chat's): once released it is refused (`NOT_EDITED`).
   */
  async function elsewhere(
    method: string,
    p: Payload,
    chatId: number,
    account: number,
    signal?: AbortSignal,
    unattached = false,
  ): Promise<ApiAnswer | PassAs> {
    let reach: "held" | { chatId: number } | null = "held";
    try {
      // An edit asks too: held (withheld) or released (not edited) tells its answer.
      const asks = CARRIED.has(method) || EDITS.has(method);
      if (deps.reachOf && asks) reach = await deps.reachOf(account);
      if (reach === "held") {
        logger.info({ chatId, method }, "whatsapp message withheld: the chat's account is held");
        return { ok: true, result: await answeredAsSent(deps, method, p, chatId, textOf(p)) };
      }
    } catch (err) {
      return notSent(logger, { method, chatId }, err);
    }
    if (EDITS.has(method)) {
      logger.warn(
        { chatId, method },
        "whatsapp edit not delivered: the chat's number was released",
      );
      return NOT_EDITED;
    }
    if (unattached) {
      // Whose it is is unknown (the new holder's, who may have left the chat): never carried.
      logger.warn({ chatId, method }, "whatsapp message not delivered: its account is not said");
      return notDelivered(
        "the account's WhatsApp number was released; whose message it is is unknown",
      );
    }
    if (reach !== null && !isWhatsAppChat(reach.chatId) && !telegramCarries(method)) {
      // A document (its upload is not rewritten), or Telegram not configured: never answered as sent.
      logger.warn(
        { account, method },
        "whatsapp message not delivered: its other chat is Telegram's, which cannot take it",
      );
      return notDelivered(
        "the released account's other chat is a Telegram chat, which cannot take this message",
      );
    }
    if (reach === null) {
      logger.warn({ account, method }, "whatsapp message not delivered: the account has no chat");
      return NO_CHAT_LEFT;
    }
    const to = { ...p, chat_id: reach.chatId };
    logger.info({ account, method, to: reach.chatId }, "released account's message carried");
    if (isWhatsAppChat(reach.chatId)) return carried(method, to, reach.chatId, signal);
    return { pass: to };
  }

  /** A Telegram chat can take the call: a text (an upload's body is not rewritten). */
  const telegramCarries = (method: string) => deps.telegram === true && method === "sendMessage";

  /**
   * A call for a fresh WhatsApp account: carried out in the chat of the number it holds now (its
   * message ids are that chat's); with no number, as a released account's (`elsewhere`).
   */
  async function freshAnswer(
    method: string,
    p: Payload,
    account: number,
    signal?: AbortSignal,
  ): Promise<ApiAnswer | PassAs> {
    let chatId: number | null;
    try {
      chatId = (await deps.chatOfAccount?.(account)) ?? null;
    } catch (err) {
      return notSent(logger, { method, chatId: account }, err);
    }
    if (chatId !== null) return sent(method, p, chatId, account, signal);
    // Released in turn: its old holder's other chat, as for any released account (`elsewhere`).
    logger.info({ account, method }, "whatsapp message not sent: the account holds no number");
    return elsewhere(method, p, account, account, signal);
  }

  return { sent, freshAnswer };
}
