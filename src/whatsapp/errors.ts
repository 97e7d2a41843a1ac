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
 *  - `rate`: a rate or spam limit of the number, the app or the pair; sent again after a wait.
 *  - `account`: the business refused (token, permission, policy block, country restriction,
 *    account locked, payment issue, unregistered number): the same for every chat, until someone
 *    fixes the account; sent again meanwhile.
 *  - `unavailable`: Meta cannot take messages now (downtime, service unavailable, maintenance).
 *  - `recipient`: this recipient cannot be reached (not on WhatsApp, an old app).
 *  - `message`: this message is refused (a bad parameter, an unsupported type, outside the 24 h
 *    window: the router then sends the template); sending it again gives the same answer.
 * Nothing went out for the first three: sending again is no possible duplicate.
 */
export type RefusalKind = "rate" | "account" | "unavailable" | "recipient" | "message";

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
const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([
  1, // API unknown: a temporary issue, Meta says to wait and retry
  2, // API service: temporary downtime or overload
  131000, // something went wrong
  131016, // service unavailable
  131057, // the business account is in maintenance mode
]);
const RECIPIENT_CODES: ReadonlySet<number> = new Set([WA_ERROR.undeliverable]);

/** The kind of a refusal by Meta's code; undefined without one (the HTTP status then decides). */
export function refusalKind(code: number | undefined): RefusalKind | undefined {
  if (code === undefined) return undefined;
  if (RATE_CODES.has(code)) return "rate";
  // 200-299: an API permission the token lacks.
  if (ACCOUNT_CODES.has(code) || (code >= 200 && code <= 299)) return "account";
  if (UNAVAILABLE_CODES.has(code)) return "unavailable";
  if (RECIPIENT_CODES.has(code)) return "recipient";
  return "message";
}

/**
 * A 5xx with one of these codes is Meta saying it took nothing (a limit, the account, an outage
 * it names), not a lost answer: 1 and 131000 ("unknown", "something went wrong") say too little.
 */
export const sentNothing = (code: number | undefined): boolean => {
  const kind = refusalKind(code);
  return (
    kind === "rate" ||
    kind === "account" ||
    (kind === "unavailable" && code !== 1 && code !== 131000)
  );
};

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
