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
 * A call to the Cloud API that failed. `status` is the HTTP status (0: no answer); `code`,
 * `subcode` and `details` are Meta's when it answered with its error body. `mayHaveArrived` is
 * true when the request went out and its answer was lost or was a 5xx: the message may be on the
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
