import type { Logger } from "../logger.ts";
import { NOT_SENT_PREFIX } from "../telegram/api.ts";
import { refusalKind } from "./errors.ts";
import { HeldSend } from "./rate-hold.ts";

/**
 * A failed WhatsApp call as the Bot API would answer it (the router's answers into WhatsApp
 * chats), so the bot's callers read Meta's refusals as they read Telegram's.
 */

export type ApiAnswer =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after: number } };

export interface ApiError {
  code?: number;
  status?: number;
  message: string;
  mayHaveArrived?: boolean;
}
export const asApiError = (err: unknown): ApiError =>
  (err instanceof Error ? err : new Error(String(err))) as ApiError;

/**
 * Meta refusing the business, not this recipient (errors.ts: the token, a permission, a policy
 * block, a country restriction, the account locked, a payment issue), by its code whatever the
 * HTTP status (Meta answers some with 400); any 401 or 403 without a recipient's code too: every
 * chat would get the same answer.
 */
export const refusesAccount = (e: ApiError): boolean => {
  const kind = refusalKind(e.code);
  return kind === "account" || (kind !== "recipient" && (e.status === 401 || e.status === 403));
};

/**
 * Meta refusing the approved template itself (paused, disabled, missing in that language, its
 * parameters not ours: errors.ts), not this message: every push outside the window gets the same
 * until someone fixes the template in WhatsApp Manager.
 */
export const refusesTemplate = (e: ApiError): boolean => refusalKind(e.code) === "template";

/**
 * A failed call as the Bot API would answer it, so its callers (the notifier above all) read it
 * as they read Telegram's: lost on the way (or not Meta's answer at all: a store error after the
 * send) is thrown like a lost answer ("may have arrived": the caller decides, the notifier counts
 * a possible duplicate); the recipient unreachable is a 403 (the notifier marks the chat inactive,
 * as Telegram's "bot was blocked"); only Meta's refusal of the message itself is a 400 (the
 * notifier gives up on it). Everything else is a 503 whose description is marked NOT_SENT_PREFIX:
 * nothing went out, so the notifier neither counts a possible duplicate nor uses up the resends of
 * a push that may have arrived, and tries it again for as long as the trouble lasts (its time
 * bound): never reached; Meta unavailable; the business refused (an account locked for an hour, a
 * permission revoked: a 403 would mark every chat pushed to meanwhile inactive and drop its push);
 * the template refused (a 400 would dead-letter every push outside the window at once); and a rate
 * limit. A rate limit is no 429: that pauses the whole notifier, Telegram's pushes included, and a
 * spam limit may stand for hours; the router holds WhatsApp's sends instead (rate-hold.ts). Each is
 * told by Meta's code, whatever the HTTP status it came with (errors.ts: refusalKind).
 */
export function failureAnswer(e: ApiError): ApiAnswer {
  if (e.mayHaveArrived || typeof e.status !== "number") throw new Error(`WhatsApp: ${e.message}`);
  const description = `WhatsApp error ${e.code ?? e.status}: ${e.message}`;
  // By Meta's code first: an account's or Meta's own trouble may come as a 400 (errors.ts).
  const kind = refusalKind(e.code);
  if (kind === "recipient")
    return { ok: false, error_code: 403, description: `Forbidden: ${description}` };
  // "later": 131049 (errors.ts); a 400 would dead-letter the push at once instead of waiting.
  const passing =
    kind === "rate" || kind === "template" || kind === "unavailable" || kind === "later";
  if (passing || e.status === 0 || e.status >= 500 || refusesAccount(e))
    return { ok: false, error_code: 503, description: `${NOT_SENT_PREFIX}${description}` };
  return { ok: false, error_code: e.status >= 400 ? e.status : 400, description };
}

/**
 * The log line of a failed call: the business or the template refused is an error (every send, or
 * every template, fails alike until someone fixes it in WhatsApp Manager; `RechargeWhatsAppRefused`
 * alerts on their codes), a send held by a rate limit says little (the limit was logged when met).
 */
export function logFailure(
  logger: Logger,
  at: { method: string; chatId: number },
  err: unknown,
  e: ApiError,
): void {
  const refused = typeof e.status === "number" && !e.mayHaveArrived;
  const fields = { ...at, status: e.status, code: e.code, err: e.message };
  if (err instanceof HeldSend) logger.debug({ ...at, code: e.code }, "whatsapp send held");
  else if (refused && refusesAccount(e))
    logger.error(
      fields,
      "whatsapp refuses the business account; sends are retried until it is fixed",
    );
  else if (refused && refusesTemplate(e))
    logger.error(
      fields,
      "whatsapp refuses the template; sends outside the window are retried until it is fixed",
    );
  else logger.warn(fields, "whatsapp send failed");
}
