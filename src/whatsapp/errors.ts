import { z } from "zod";

/** Meta's error codes the product acts on (whatsapp-notes.md §2). */
export const WA_ERROR = {
  /** More than 24 h since the user's last message: only a template may be sent. */
  reengagement: 131047,
  /** The number's throughput limit: back off and send again. */
  throughput: 130429,
  /** Too many messages to one user: back off and send again. */
  pairRate: 131056,
  /** Not deliverable (not on WhatsApp, old app, marketing cap). */
  undeliverable: 131026,
  /** The access token is invalid or expired. */
  auth: 190,
} as const;

/** Codes that mean "not now": the message was refused, so sending it again is safe. */
export const RETRYABLE_CODES: ReadonlySet<number> = new Set([
  WA_ERROR.throughput,
  WA_ERROR.pairRate,
]);

/**
 * What a refusal of Meta's says, by its code (Meta: "build your error handling around `code`"),
 * whatever the HTTP status it came with: Meta answers the account's and its own troubles with 400
 * as often as with 403, 429 or 5xx.
 *  - `rate`: a rate or spam limit of the number, the app or the pair; sent again after a wait
 *    that holds back WhatsApp's sends only (rate-hold.ts), never Telegram's.
 *  - `account`: the business refused (token, permission, policy block, country restriction,
 *    account locked, payment issue, unregistered number): the same for every chat, until someone
 *    fixes the account; sent again meanwhile.
 *  - `template`: the approved template refused for every message (paused, disabled, missing in
 *    that language, its parameters not matching ours): the same for every push outside the 24 h
 *    window, until someone fixes the template; sent again meanwhile, as for `account`.
 *  - `unavailable`: Meta cannot take messages now (downtime, service unavailable, maintenance).
 *  - `later`: not now for this recipient (131049, Meta's cap on marketing messages a person gets,
 *    "to maintain a healthy ecosystem"): Meta says to try again later (about a day); nothing went
 *    out. Sent again like `unavailable`, without holding anyone else's sends.
 *  - `recipient`: this recipient cannot be reached (not on WhatsApp, an old app).
 *  - `message`: this message is refused (a bad parameter, an unsupported type, outside the 24 h
 *    window: the router then sends the template); sending it again gives the same answer.
 * Nothing went out for the first three: sending again is no possible duplicate.
 */
export type RefusalKind =
  | "rate"
  | "account"
  | "template"
  | "unavailable"
  | "later"
  | "recipient"
  | "message";

const RATE_CODES: ReadonlySet<number> = new Set([
  4, // the app's call limit
  80007, // the WhatsApp Business Account's rate limit
  WA_ERROR.throughput,
  131048, // spam rate limit: the number may send fewer messages for a while
  WA_ERROR.pairRate,
]);
const ACCOUNT_CODES: ReadonlySet<number> = new Set([
  0, // AuthException
  3, // the app lacks the capability
  10, // permission denied
  WA_ERROR.auth,
  368, // temporarily blocked for policy violations
  130497, // the business may not message users in this country
  131005, // access denied
  131031, // the business account is locked
  131037, // the number's display name needs approval
  131042, // business eligibility: a payment issue
  131045, // the number's certificate is wrong (registration)
  133010, // the number is not registered
]);
/**
 * Refusals of the template itself, not of this message's words (Meta's error codes page): every
 * push outside the window gets the same until the template is fixed in WhatsApp Manager. 132005
 * (translated text too long) and 132007 (a format or policy violation of these words) stay refusals
 * of the message.
 */
const TEMPLATE_CODES: ReadonlySet<number> = new Set([
  132000, // the number of parameters does not match the template's
  132001, // the template does not exist in that language (or is not approved)
  132012, // a parameter's format does not match the template's
  132015, // the template is paused (low quality)
  132016, // the template is disabled (paused too often)
]);
/** 132001: the template is missing in the language asked for (another language may have it). */
export const TEMPLATE_MISSING = 132001;
const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([
  1, // API unknown: a temporary issue, Meta says to wait and retry
  2, // API service: temporary downtime or overload
  131000, // something went wrong
  131016, // service unavailable
  131057, // the business account is in maintenance mode
]);
const RECIPIENT_CODES: ReadonlySet<number> = new Set([WA_ERROR.undeliverable]);
/** 131049: the marketing cap per person ("healthy ecosystem"); Meta: try again later. */
export const MARKETING_CAP = 131049;

/** The kind of a refusal by Meta's code; undefined without one (the HTTP status then decides). */
export function refusalKind(code: number | undefined): RefusalKind | undefined {
  if (code === undefined) return undefined;
  if (RATE_CODES.has(code)) return "rate";
  // 200-299: an API permission the token lacks.
  if (ACCOUNT_CODES.has(code) || (code >= 200 && code <= 299)) return "account";
  if (TEMPLATE_CODES.has(code)) return "template";
  if (UNAVAILABLE_CODES.has(code)) return "unavailable";
  if (code === MARKETING_CAP) return "later";
  if (RECIPIENT_CODES.has(code)) return "recipient";
  return "message";
}

/**
 * A 5xx with one of these codes is Meta refusing the request before taking it (a limit, the
 * account, the template), not a lost answer. Meta's own trouble (1, 2, 131000, 131016, 131057:
 * "unknown", "temporary downtime or overload", "something went wrong", "service unavailable",
 * "maintenance") is not: its docs say to wait and try again, never that nothing went out, and a
 * front end giving up on an overloaded back end after it took the message answers just so. At a 5xx
 * those stay "may have arrived" (a possible duplicate, at most 8 sends of a push); with a 4xx
 * they send nothing (bot-api-failure.ts).
 */
export const sentNothing = (code: number | undefined): boolean => {
  const kind = refusalKind(code);
  return kind === "rate" || kind === "account" || kind === "template" || kind === "later";
};

/**
 * How long after a late `failed` status (the send was accepted, Meta failed it after) its words
 * are sent again (late-resend.ts); undefined: not sent again (the recipient unreachable, this
 * message refused, the account or the template refused: a warn line and the status counter).
 * 131047 at once, as the template; Meta's own trouble and the rate limits after a minute; 131049
 * after about a day (Meta: "retry later"; the cap counts per 24 hours).
 */
export function lateRetryDelayMs(code: number | undefined): number | undefined {
  if (code === WA_ERROR.reengagement) return 0;
  const kind = refusalKind(code);
  if (kind === "later") return 24 * 3_600_000;
  if (kind === "unavailable" || kind === "rate") return 60_000;
  return undefined;
}

/**
 * A call to the Cloud API that failed. `status` is the HTTP status (0: no answer); `code`,
 * `subcode` and `details` are Meta's when it answered with its error body. `mayHaveArrived` is
 * true when the request went out and its answer was lost or was a 5xx (unless its code says Meta
 * took nothing: sentNothing): the message may be on the
 * customer's phone, and the Cloud API has no idempotency key, so sending it again may show it twice.
 */
export class WhatsAppApiError extends Error {
  readonly status: number;
  readonly code?: number;
  readonly subcode?: number;
  readonly details?: string;
  readonly mayHaveArrived: boolean;
  constructor(
    message: string,
    fields: {
      status: number;
      code?: number | undefined;
      subcode?: number | undefined;
      details?: string | undefined;
      mayHaveArrived: boolean;
    },
  ) {
    super(message);
    this.name = "WhatsAppApiError";
    this.status = fields.status;
    if (fields.code !== undefined) this.code = fields.code;
    if (fields.subcode !== undefined) this.subcode = fields.subcode;
    if (fields.details !== undefined) this.details = fields.details;
    this.mayHaveArrived = fields.mayHaveArrived;
  }
}

const metaErrorSchema = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.coerce.number().int().optional(),
    error_subcode: z.coerce.number().int().optional(),
    error_data: z.object({ details: z.string().optional() }).optional(),
    fbtrace_id: z.string().optional(),
  }),
});

export interface MetaError {
  message?: string | undefined;
  code?: number | undefined;
  subcode?: number | undefined;
  details?: string | undefined;
  fbtraceId?: string | undefined;
}

/** Meta's `{error:{message,type,code,error_subcode,error_data:{details},fbtrace_id}}`, when it is one. */
export function parseMetaError(body: unknown): MetaError | undefined {
  const r = metaErrorSchema.safeParse(body);
  if (!r.success) return undefined;
  const e = r.data.error;
  return {
    message: e.message,
    code: e.code,
    subcode: e.error_subcode,
    details: e.error_data?.details,
    fbtraceId: e.fbtrace_id,
  };
}

/**
 * A resend (router.ts `resendFailed`) that failed before any send was made (its chat's words or
 * the person's language not read: Redis): certainly nothing went out, so it may go again freely.
 */
export class NothingSent extends Error {
  constructor(cause: unknown) {
    super(`nothing sent: ${String(cause)}`, { cause });
    this.name = "NothingSent";
  }
}
