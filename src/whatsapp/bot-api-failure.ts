import { NOT_SENT_PREFIX } from "../telegram/api.ts";
import { WA_ERROR } from "./errors.ts";

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

/** Meta's "not now" codes: throughput and the pair rate (the client retried them already). */
const NOT_NOW: ReadonlySet<number> = new Set([WA_ERROR.throughput, WA_ERROR.pairRate]);

/**
 * Meta's codes that refuse the business, not this recipient (its error codes reference): the
 * token (190), permissions (10, 200-299), a policy block (368), a country restriction (130497),
 * the account locked (131031). Meta answers them (and any other refusal of the caller) with 401
 * or 403; every chat would get the same answer.
 */
const ACCOUNT_CODES: ReadonlySet<number> = new Set([WA_ERROR.auth, 10, 368, 130497, 131031]);
export const refusesAccount = (e: ApiError): boolean =>
  e.status === 401 ||
  e.status === 403 ||
  (e.code !== undefined && (ACCOUNT_CODES.has(e.code) || (e.code >= 200 && e.code <= 299)));

/** This recipient cannot be reached (not on WhatsApp, terms not accepted, an old app). */
const RECIPIENT_GONE: ReadonlySet<number> = new Set([WA_ERROR.undeliverable]);

/**
 * A failed call as the Bot API would answer it, so its callers (the notifier above all) read it
 * as they read Telegram's: lost on the way (or not Meta's answer at all: a store error after the
 * send) is thrown like a lost answer ("may have arrived": the caller decides, the notifier counts
 * a possible duplicate); "not now" is a 429 with a wait; never reached is a 503 (tried again,
 * its description marked NOT_SENT_PREFIX: nothing went out, so no possible duplicate);
 * the recipient unreachable is a 403 (the notifier marks the chat inactive, as Telegram's "bot
 * was blocked"); the business refused (an account locked for an hour, a permission revoked) is a
 * marked 503 too, never a 403: that would mark every chat pushed to meanwhile inactive and drop its
 * push; only Meta's refusal of the message itself is a 400 (the notifier gives up on it).
 */
export function failureAnswer(e: ApiError): ApiAnswer {
  if (e.mayHaveArrived || typeof e.status !== "number") throw new Error(`WhatsApp: ${e.message}`);
  const description = `WhatsApp error ${e.code ?? e.status}: ${e.message}`;
  if (e.code !== undefined && NOT_NOW.has(e.code))
    return { ok: false, error_code: 429, description, parameters: { retry_after: 5 } };
  if (e.code !== undefined && RECIPIENT_GONE.has(e.code))
    return { ok: false, error_code: 403, description: `Forbidden: ${description}` };
  if (e.status === 0 || e.status >= 500 || refusesAccount(e))
    // Marked as sending nothing: the notifier neither counts a possible duplicate nor uses up the
    // resends of a push that may have arrived; it retries for as long as an outage lasts.
    return { ok: false, error_code: 503, description: `${NOT_SENT_PREFIX}${description}` };
  return { ok: false, error_code: e.status >= 400 ? e.status : 400, description };
}
