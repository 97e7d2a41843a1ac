import { z } from "zod";
import { tryToPaisa } from "../money.ts";
import { parseJsonPreservingBigInts } from "../provider/json.ts";
import { NEPAL_UTC_OFFSET_MINUTES, parseProviderTimestamp } from "../provider/timestamp.ts";

/**
 * The decrypted webhook payload (spec 6.2): tolerant of numbers-as-strings, ISO or human timestamps,
 * details nested, missing or PHP's `[]`, any shape in the fields only kept; strict about what we act on (a status word and an order reference or
 * transaction id). Transaction ids beyond 2^53 stay exact (parsed from the JSON text as strings).
 */

const id = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .pipe(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/));

/** Text we only keep (never act on): anything but a string or a number is none. */
const textOf = (v: unknown): string | undefined =>
  (typeof v === "string" || typeof v === "number") && v !== ""
    ? String(v).slice(0, 200)
    : undefined;
const optionalText = z.unknown().optional().transform(textOf);

/**
 * `details` as an object, anything else as none: the provider is a PHP service, whose json_encode
 * writes an empty array as `[]` (its error bodies' `"data": []`). A field we only keep must not
 * cost a signed result (review s32-books 1).
 */
const details = z
  .unknown()
  .optional()
  .transform((v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    const d = v as Record<string, unknown>;
    return { connection_no: textOf(d.connection_no), operator: textOf(d.operator) };
  });

/** The payload schema; zone-less timestamps are read in `utcOffsetMinutes` (PROVIDER_UTC_OFFSET_MINUTES). */
const webhookPayloadSchemaFor = (utcOffsetMinutes: number) =>
  z
    .object({
      status: z.string().trim().min(1).max(40),
      transaction_id: z.union([id, z.literal(""), z.null()]).optional(),
      order_id: z.union([id, z.literal(""), z.null()]).optional(),
      // Kept, not acted on: an amount or a time that cannot be read is none ([], {}, long text).
      amount: z.unknown().optional(),
      timestamp: z
        .unknown()
        .optional()
        .transform((v) => (typeof v === "string" && v.length > 100 ? null : v)),
      details,
      package_name: optionalText,
    })
    .transform((p, ctx) => {
      const reference = p.order_id || undefined;
      const transactionId = p.transaction_id || undefined;
      if (reference === undefined && transactionId === undefined) {
        ctx.addIssue({ code: "custom", message: "neither order_id nor transaction_id" });
        return z.NEVER;
      }
      return {
        status: p.status.toLowerCase(),
        reference,
        transactionId,
        amountPaisa: tryToPaisa(p.amount),
        timestampMs: parseProviderTimestamp(p.timestamp, utcOffsetMinutes),
        connectionNo: p.details?.connection_no,
        operator: p.details?.operator,
        packageName: p.package_name,
      };
    });
const webhookPayloadSchema = webhookPayloadSchemaFor(NEPAL_UTC_OFFSET_MINUTES);
export type WebhookPayload = z.output<typeof webhookPayloadSchema>;

const schemas = new Map<number, typeof webhookPayloadSchema>([
  [NEPAL_UTC_OFFSET_MINUTES, webhookPayloadSchema],
]);

/** Plaintext JSON -> payload, or null for anything unreadable (the caller answers generically). */
export function parseWebhookPayload(
  plaintext: string,
  utcOffsetMinutes: number = NEPAL_UTC_OFFSET_MINUTES,
): WebhookPayload | null {
  let schema = schemas.get(utcOffsetMinutes);
  if (!schema) {
    schema = webhookPayloadSchemaFor(utcOffsetMinutes);
    schemas.set(utcOffsetMinutes, schema);
  }
  let json: unknown;
  try {
    json = parseJsonPreservingBigInts(plaintext);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
