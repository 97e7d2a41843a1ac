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
export const webhookPayloadSchemaFor = (utcOffsetMinutes: number) =>
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
export const webhookPayloadSchema = webhookPayloadSchemaFor(NEPAL_UTC_OFFSET_MINUTES);
export type WebhookPayload = z.output<typeof webhookPayloadSchema>;

const schemas = new Map<number, typeof webhookPayloadSchema>([
  [NEPAL_UTC_OFFSET_MINUTES, webhookPayloadSchema],
]);

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Not decided here: the schema (zod) decides. */
const UNDECIDED = Symbol("undecided");
type Undecided = typeof UNDECIDED;

/** `id | "" | null`, optional, as the schema reads it; UNDECIDED for anything it would refuse. */
function idOf(v: unknown): string | null | undefined | Undecided {
  if (v === undefined || v === null) return v;
  if (typeof v === "string") {
    const t = v.trim();
    if (ID.test(t)) return t;
    return v === "" ? "" : UNDECIDED;
  }
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0)) {
    return String(v);
  }
  return UNDECIDED;
}

/** optionalText as the schema reads it; UNDECIDED for anything it would refuse. */
function textOf(v: unknown): string | undefined | Undecided {
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "string") return v.slice(0, 200);
  if (typeof v === "number" && Number.isFinite(v)) return String(v).slice(0, 200);
  return UNDECIDED;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The schema's reading of the usual payload, without zod: every field of the shapes the provider
 * sends, the same output field for field (test/unit/webhook-payload.test.ts compares the two on
 * generated payloads). Anything unusual, and anything the schema would refuse, is UNDECIDED and
 * goes to the schema, which has the last word. zod's parse of a payload was most of the checks'
 * cost after the decryption.
 */
function readUsual(json: unknown, utcOffsetMinutes: number): WebhookPayload | Undecided {
  if (!isRecord(json)) return UNDECIDED;
  const { status, amount, timestamp, details } = json;
  if (typeof status !== "string") return UNDECIDED;
  const word = status.trim();
  if (word.length < 1 || word.length > 40) return UNDECIDED;
  const transactionId = idOf(json.transaction_id);
  const orderId = idOf(json.order_id);
  if (transactionId === UNDECIDED || orderId === UNDECIDED) return UNDECIDED;
  const reference = orderId || undefined;
  const txId = transactionId || undefined;
  if (reference === undefined && txId === undefined) return UNDECIDED;
  if (
    !(
      amount === undefined ||
      amount === null ||
      typeof amount === "string" ||
      (typeof amount === "number" && Number.isFinite(amount))
    )
  ) {
    return UNDECIDED;
  }
  if (
    !(
      timestamp === undefined ||
      timestamp === null ||
      (typeof timestamp === "string" && timestamp.length <= 100) ||
      (typeof timestamp === "number" && Number.isFinite(timestamp))
    )
  ) {
    return UNDECIDED;
  }
  let connectionNo: string | undefined | Undecided;
  let operator: string | undefined | Undecided;
  if (details === undefined || details === null) {
    connectionNo = undefined;
    operator = undefined;
  } else if (isRecord(details)) {
    connectionNo = textOf(details.connection_no);
    operator = textOf(details.operator);
    if (connectionNo === UNDECIDED || operator === UNDECIDED) return UNDECIDED;
  } else {
    return UNDECIDED;
  }
  const packageName = textOf(json.package_name);
  if (packageName === UNDECIDED) return UNDECIDED;
  return {
    status: word.toLowerCase(),
    reference,
    transactionId: txId,
    amountPaisa: amount === undefined || amount === null ? null : tryToPaisa(amount),
    timestampMs: parseProviderTimestamp(timestamp, utcOffsetMinutes),
    connectionNo,
    operator,
    packageName,
  };
}

function schemaFor(utcOffsetMinutes: number): typeof webhookPayloadSchema {
  let schema = schemas.get(utcOffsetMinutes);
  if (!schema) {
    schema = webhookPayloadSchemaFor(utcOffsetMinutes);
    schemas.set(utcOffsetMinutes, schema);
  }
  return schema;
}

/** The fast path alone: the payload, or undefined when it leaves the decision to the schema (tests). */
export function readUsualPayload(
  json: unknown,
  utcOffsetMinutes: number = NEPAL_UTC_OFFSET_MINUTES,
): WebhookPayload | undefined {
  const usual = readUsual(json, utcOffsetMinutes);
  return usual === UNDECIDED ? undefined : usual;
}

/** Plaintext JSON -> payload, or null for anything unreadable (the caller answers generically). */
export function parseWebhookPayload(
  plaintext: string,
  utcOffsetMinutes: number = NEPAL_UTC_OFFSET_MINUTES,
): WebhookPayload | null {
  const schema = schemaFor(utcOffsetMinutes);
  let json: unknown;
  try {
    json = parseJsonPreservingBigInts(plaintext);
  } catch {
    return null;
  }
  const usual = readUsual(json, utcOffsetMinutes);
  if (usual !== UNDECIDED) return usual;
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The schema's reading alone (tests compare it with the fast path's). */
export function parseWebhookPayloadWithSchema(
  plaintext: string,
  utcOffsetMinutes: number = NEPAL_UTC_OFFSET_MINUTES,
): WebhookPayload | null {
  let json: unknown;
  try {
    json = parseJsonPreservingBigInts(plaintext);
  } catch {
    return null;
  }
  const parsed = schemaFor(utcOffsetMinutes).safeParse(json);
  return parsed.success ? parsed.data : null;
}
