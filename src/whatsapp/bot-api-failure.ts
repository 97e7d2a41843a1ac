import { NOT_SENT_PREFIX } from "../telegram/api.ts";
import { refusalKind } from "./errors.ts";

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
 * A failed call as the Bot API would answer it, so its callers (the notifier above all) read it
 * as they read Telegram's: lost on the way (or not Meta's answer at all: a store error after the
 * send) is thrown like a lost answer ("may have arrived": the caller decides, the notifier counts
 * a possible duplicate); a rate limit is a 429 with a wait; never reached, and Meta saying it is
 * unavailable, is a 503 (tried again, its description marked NOT_SENT_PREFIX: nothing went out, so
 * no possible duplicate);
 * the recipient unreachable is a 403 (the notifier marks the chat inactive, as Telegram's "bot
 * was blocked"); the business refused (an account locked for an hour, a permission revoked) is a
 * marked 503 too, never a 403: that would mark every chat pushed to meanwhile inactive and drop its
 * push; only Meta's refusal of the message itself is a 400 (the notifier gives up on it). Each is
 * told by Meta's code, whatever the HTTP status it came with (errors.ts: refusalKind).
 */
export function failureAnswer(e: ApiError): ApiAnswer {
  if (e.mayHaveArrived || typeof e.status !== "number") throw new Error(`WhatsApp: ${e.message}`);
  const description = `WhatsApp error ${e.code ?? e.status}: ${e.message}`;
  // By Meta's code first: an account's or Meta's own trouble may come as a 400 (errors.ts).
  const kind = refusalKind(e.code);
  if (kind === "rate")
    return { ok: false, error_code: 429, description, parameters: { retry_after: 5 } };
  if (kind === "recipient")
    return { ok: false, error_code: 403, description: `Forbidden: ${description}` };
  if (kind === "unavailable" || e.status === 0 || e.status >= 500 || refusesAccount(e))
    // Marked as sending nothing: the notifier neither counts a possible duplicate nor uses up the
    // resends of a push that may have arrived; it retries for as long as an outage lasts.
    return { ok: false, error_code: 503, description: `${NOT_SENT_PREFIX}${description}` };
  return { ok: false, error_code: e.status >= 400 ? e.status : 400, description };
}
