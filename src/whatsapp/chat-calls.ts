import type { Logger } from "../logger.ts";
import { NOT_SENT_PREFIX } from "../telegram/api.ts";
import { accountOfCall } from "../telegram/call-account.ts";
import { type ApiAnswer, asApiError, failureAnswer, logFailure } from "./bot-api-failure.ts";
import { isFreshWaAccount, isWhatsAppChat } from "./chat-ids.ts";
import { answeredChat } from "./held.ts";
import { answeredAsSent, WITHHELD, type WithheldDeps, withholds } from "./withheld.ts";

type Payload = Record<string, unknown>;

/** A call handed on to Telegram with another payload (a released account's Telegram chat). */
export interface PassAs {
  pass: Payload;
}

/** The calls that carry a released account's message to its other chat (edits name this chat's messages). */
const CARRIED: ReadonlySet<string> = new Set(["sendMessage", "sendDocument"]);

/** Edits of an earlier message: its id is this chat's, so it is never carried anywhere else. */
const EDITS: ReadonlySet<string> = new Set(["editMessageText", "editMessageReplyMarkup"]);

/** The start of every refused edit's description (`notEditable`). */
export const NOT_EDITED_PREFIX = "Bad Request: message can't be edited: not delivered: ";

/**
 * An edit of an earlier message (a receipt brought to its outcome) to a chat whose number was
 * released: the message is in a chat another person may read now, so it is not edited there, and
 * never answered as sent (review s25-left, 1). "Can't be edited" (notify/api-errors.ts
 * `isUneditable`): an edit carrying a lost push's outcome hands it back to be pushed anew, as its
 * order's account (`withAccount`: the old holder's other chat, else dead-lettered).
 */
const NOT_EDITED: ApiAnswer = notEditable("the chat's WhatsApp number was released");

/** An edit to a released chat, refused (`NOT_EDITED`). */
function notEdited(logger: Logger, at: { chatId: number; method: string }): ApiAnswer {
  logger.warn(at, "whatsapp edit not delivered: the chat's number was released");
  return NOT_EDITED;
}

/**
 * Why the router refused a message as not delivered (`notDelivered`): each final, none sent.
 * Exported so its senders (system/reminders.ts) and the tests read the same words (review s25-a, S2).
 */
export const REFUSALS = {
  /** A released account with no chat left (`NO_CHAT_LEFT`). */
  noChatLeft: "the account's WhatsApp number was released and no chat of it remains",
  /** Another account's message, the chat no longer acting as it, its own chat unable to take it. */
  notActing: "the chat no longer acts as the message's account, and its own chat cannot take this",
  /** A released chat's unnamed message while the chat stands for another account. */
  standsForAnother:
    "the released chat stands for another account now; whose message it is is unknown",
  /** A released chat's unnamed message (`elsewhere`, unattached). */
  unknownOwner: "the account's WhatsApp number was released; whose message it is is unknown",
  /** A released account's document (or no Telegram) while its only other chat is Telegram's. */
  telegramCannot:
    "the released account's other chat is a Telegram chat, which cannot take this message",
} as const;

/** The start of every `notDelivered` description. */
export const NOT_DELIVERED_PREFIX = "Bad Request: not delivered: ";

/** Whether a Bot API error description is one of the router's refusals (`REFUSALS`): final. */
export const isRouterRefusal = (description: string): boolean =>
  description.startsWith(NOT_DELIVERED_PREFIX) || description.startsWith(NOT_EDITED_PREFIX);

/**
 * An edit the router refuses (nothing sent): "can't be edited" (notify/api-errors.ts
 * `isUneditable`), so an edit carrying a lost push's outcome hands it back to be pushed anew as
 * its account's (review s25-f, N3), and final like every refusal.
 */
function notEditable(why: string): ApiAnswer {
  return { ok: false, error_code: 400, description: `${NOT_EDITED_PREFIX}${why}` };
}

/** A refusal as the method takes it: an edit's as uneditable, any other as not delivered. */
const refused = (method: string, why: string): ApiAnswer =>
  EDITS.has(method) ? notEditable(why) : notDelivered(why);

/**
 * A send for an account with no chat left: refused as the message's own fault (400), so the
 * notifier dead-letters it at once (replayable, `RechargePushesFailing` alerts: a customer is not
 * told) and writes it on the order's timeline as not delivered. Not a chat gone (403): that would
 * mark the id inactive and drop the account's later pushes unrecorded.
 */
const NO_CHAT_LEFT: ApiAnswer = {
  ok: false,
  error_code: 400,
  description: `${NOT_DELIVERED_PREFIX}${REFUSALS.noChatLeft}`,
};

/**
 * A message refused as not delivered (400: dead-lettered, on the order's timeline), nothing sent:
 * addressed to a released account's chat that now acts as another account (its number registered
 * to it, or linked to it) when it may be either's; another account's edit or document the chat no
 * longer takes (`ownChat`); or a released account's document whose only other chat is Telegram's.
 */
const notDelivered = (why: string): ApiAnswer => ({
  ok: false,
  error_code: 400,
  description: `${NOT_DELIVERED_PREFIX}${why}`,
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

/** A Telegram chat can take the call: a text (an upload's body is not rewritten). */
const telegramCarries = (deps: Pick<ChatCallsDeps, "telegram">, method: string) =>
  deps.telegram === true && method === "sendMessage";

/**
 * Another account's message the chat no longer takes (`named`), sent to the account's own chat
 * instead: its Telegram chat (a Telegram account's id is its chat's), or its WhatsApp chat (a
 * WhatsApp-born account's, by `viaWhatsApp`, with that chat's own holds). An edit (its message is
 * this chat's), a document for Telegram, or no Telegram: refused as not delivered (400: final,
 * dead-lettered, on the order's timeline), never answered as sent.
 */
function ownChat(
  deps: ChatCallsDeps,
  at: { method: string; p: Payload; chatId: number; owner: number },
  viaWhatsApp: (to: Payload) => Promise<ApiAnswer | PassAs>,
): Promise<ApiAnswer | PassAs> | ApiAnswer | PassAs {
  const { method, chatId, owner } = at;
  const to = { ...at.p, chat_id: owner };
  if (CARRIED.has(method) && isWhatsAppChat(owner)) return viaWhatsApp(to);
  if (CARRIED.has(method) && !isWhatsAppChat(owner) && telegramCarries(deps, method)) {
    deps.logger.info({ chatId, account: owner, method }, "message carried to its account's chat");
    return { pass: to };
  }
  deps.logger.warn(
    { chatId, account: owner, method },
    "whatsapp message not delivered: the chat no longer acts as its account",
  );
  return refused(method, REFUSALS.notActing);
}

/** Who `chatId` stands for now (`ChatNow`; no reader: its own account only), or a failed read's 503. */
async function chatNowOr(deps: ChatCallsDeps, method: string, chatId: number) {
  try {
    return (await deps.chatNowOf?.(chatId)) ?? { holder: null, link: null };
  } catch (err) {
    return notSent(deps.logger, { method, chatId }, err);
  }
}

type Call = (method: string, p: Payload, chatId: number, signal?: AbortSignal) => Promise<unknown>;

/** A call carried out in the chat: its result, or the failure as the Bot API would answer it. */
async function carry(
  logger: Logger,
  call: Call,
  at: { method: string; p: Payload; chatId: number; signal?: AbortSignal },
): Promise<ApiAnswer> {
  const { method, chatId } = at;
  try {
    return { ok: true, result: await call(method, at.p, chatId, at.signal) };
  } catch (err) {
    const e = asApiError(err);
    logFailure(logger, { method, chatId }, err, e);
    return failureAnswer(e);
  }
}

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
    const owner = accountOfCall();
    // Another account's message: the chat's own account's holds say nothing of it (review s25-a, B1).
    if (account === chatId && owner !== undefined && owner !== chatId && WITHHELD.has(method))
      return named(method, p, chatId, owner, signal);
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
   * A message addressed to a WhatsApp chat that names another account than the chat's own (a
   * linked Telegram account's order result, notice, top-up notice, reminder, idle notice): carried
   * to the chat only while the chat acts as that account (its number and its link both name it),
   * whether or not the chat's own account is held; else it goes to that account's own chat
   * (`ownChat`), so a new writer from the number never reads it (review s25-a, B1, S1). A fresh
   * account's goes as one addressed to it (`freshAnswer`: its chat, its own hold; N2). Costs one
   * `chatNowOf` read (2 Redis commands) per such message; none for the chat's own or unnamed ones.
   */
  async function named(
    method: string,
    p: Payload,
    chatId: number,
    owner: number,
    signal?: AbortSignal,
  ): Promise<ApiAnswer | PassAs> {
    if (isFreshWaAccount(owner)) return freshAnswer(method, p, owner, signal, chatId);
    const now = await chatNowOr(deps, method, chatId);
    if ("ok" in now) return now;
    if (now.holder === owner && now.link === owner) return carried(method, p, chatId, signal);
    return ownChat(deps, { method, p, chatId, owner }, (to) =>
      sent(method, to, owner, owner, signal),
    );
  }

  /**
   * A message addressed to a released (or held) account's own chat, naming that account or none
   * (another account's is `named`'s): whose it is decides, never the chat id alone, as the chat may
   * act as the number's next holder now (linked to their account). The chat's old account's goes
   * to its old holder's other chat (`elsewhere`); one of no named account is not delivered once the
   * number was released (it may be the new holder's, even when the chat stands for nobody now:
   * never carried to the old holder; review s24-j). The old holder's senders name their account
   * (`withAccount`, telegram/call-account.ts).
   */
  async function whose(method: string, p: Payload, chatId: number, signal?: AbortSignal) {
    const owner = accountOfCall();
    const now = await chatNowOr(deps, method, chatId);
    if ("ok" in now) return now;
    // The chat's own account named in an answer to its chat (withheld.ts): while its number is
    // still its own (a hold, its own user id writing) it is that writer's; after a release, not.
    if (owner === chatId && answeredChat() === chatId && now.holder === chatId) {
      return carried(method, p, chatId, signal);
    }
    const other = [now.holder, now.link].some((a) => a !== null && a !== chatId);
    if (owner === undefined && other && CARRIED.has(method)) {
      logger.warn(
        { chatId, method },
        "whatsapp message not delivered: the chat stands for another account now",
      );
      return notDelivered(REFUSALS.standsForAnother);
    }
    // Unattached and carried: never to the old holder once released (review s24-j, blocker 1).
    return elsewhere(method, p, chatId, chatId, signal, owner === undefined);
  }

  const carried = (method: string, p: Payload, chatId: number, signal?: AbortSignal) =>
    carry(logger, call, { method, p, chatId, signal });

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
    if (EDITS.has(method)) return notEdited(logger, { chatId, method });
    if (unattached) {
      // Whose it is is unknown (the new holder's, who may have left the chat): never carried.
      logger.warn({ chatId, method }, "whatsapp message not delivered: its account is not said");
      return notDelivered(REFUSALS.unknownOwner);
    }
    if (reach !== null && !isWhatsAppChat(reach.chatId) && !telegramCarries(deps, method)) {
      // A document (its upload is not rewritten), or Telegram not configured: never answered as sent.
      logger.warn(
        { account, method },
        "whatsapp message not delivered: its other chat is Telegram's, which cannot take it",
      );
      return notDelivered(REFUSALS.telegramCannot);
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

  /**
   * A call for a fresh WhatsApp account: carried out in the chat of the number it holds now (its
   * message ids are that chat's); with no number, as a released account's (`elsewhere`).
   * `addressed`: the chat a message naming the account was addressed to (`named`); an edit of
   * that chat's message is refused once the account's chat is another.
   */
  async function freshAnswer(
    method: string,
    p: Payload,
    account: number,
    signal?: AbortSignal,
    addressed?: number,
  ): Promise<ApiAnswer | PassAs> {
    let chatId: number | null;
    try {
      chatId = (await deps.chatOfAccount?.(account)) ?? null;
    } catch (err) {
      return notSent(logger, { method, chatId: account }, err);
    }
    if (addressed !== undefined && chatId !== addressed && !CARRIED.has(method)) {
      logger.warn({ account, method }, "whatsapp message not delivered: its chat is another now");
      return refused(method, REFUSALS.notActing);
    }
    if (chatId !== null) return sent(method, p, chatId, account, signal);
    // Released in turn: its old holder's other chat, as for any released account (`elsewhere`).
    logger.info({ account, method }, "whatsapp message not sent: the account holds no number");
    return elsewhere(method, p, account, account, signal);
  }

  return { sent, freshAnswer };
}
