import { z } from "zod";
import { tryToPaisa } from "../money.ts";
import { parseJsonPreservingBigInts } from "../provider/json.ts";
import { NEPAL_UTC_OFFSET_MINUTES, parseProviderTimestamp } from "../provider/timestamp.ts";

/**
 * The decrypted webhook payload (spec 6.2): tolerant of numbers-as-strings, ISO or human timestamps,
 * details nested or missing; strict about what we act on (a status word and an order reference or
 * transaction id). Transaction ids beyond 2^53 stay exact (parsed from the JSON text as strings).
 */

const id = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .pipe(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/));

const optionalText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) =>
    v === null || v === undefined || v === "" ? undefined : String(v).slice(0, 200),
  );

/** The payload schema; zone-less timestamps are read in `utcOffsetMinutes` (PROVIDER_UTC_OFFSET_MINUTES). */
const webhookPayloadSchemaFor = (utcOffsetMinutes: number) =>
  z
    .object({
      status: z.string().trim().min(1).max(40),
      transaction_id: z.union([id, z.literal(""), z.null()]).optional(),
      order_id: z.union([id, z.literal(""), z.null()]).optional(),
      amount: z.union([z.string(), z.number(), z.null()]).optional(),
      timestamp: z.union([z.string().max(100), z.number(), z.null()]).optional(),
      details: z.object({ connection_no: optionalText, operator: optionalText }).nullish(),
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
        amountPaisa: p.amount === undefined || p.amount === null ? null : tryToPaisa(p.amount),
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
