import { z } from "zod";
import { tryToPaisa } from "../money.ts";

/**
 * Reading the provider's JSON: the primitives that tolerate the documented variations (numbers as
 * strings, ids as strings or numbers) and the envelopes (success, two error shapes).
 */
// ---------------------------------------------------------------------------------------------
// Wire primitives

/**
 * An object member that may come as `[]` when empty: the provider is a PHP service, whose
 * json_encode writes an empty array so (its error bodies' `"data": []`). Read as absent, so a
 * signed answer is not lost over a member with nothing in it (review s32-books 1).
 */
export const phpEmptyAsAbsent = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? undefined : v), schema);

/** An identifier: string or number on the wire, always a non-empty string here. */
export const wireId = z
  .union([z.string(), z.number().finite()])
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .pipe(z.string().min(1));

/**
 * Whether a reference the provider echoed (an answer's `order_id` / `reference_no`, read by
 * `wireId`: a number as its digits, text trimmed) names the one we sent. The spec has
 * `reference_no` a number for some categories and text for others, and ids as strings or numbers,
 * JSON or form-encoded: a number cannot carry leading zeros, so text "0042" sent comes back as 42.
 * Both sides are trimmed and a run of digits is compared without its leading zeros; anything else
 * must be equal as text. We mint references as digits without a leading zero (orders/model.ts),
 * so only a listing's reference (a data pack's, a DTH's) can have them.
 */
export function sameReference(echoed: string, sent: string): boolean {
  return canonicalReference(echoed) === canonicalReference(sent);
}

function canonicalReference(ref: string): string {
  const t = ref.trim();
  return /^\d+$/.test(t) ? t.replace(/^0+(?=\d)/, "") : t;
}

/** Text that some pages send as a number. */
export const wireText = z
  .union([z.string(), z.number().finite()])
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()));

/** A rupee amount (number, or decimal text like "533.44") as integer paisa. */
export const wirePaisa = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const paisa = tryToPaisa(v);
  if (paisa === null) {
    ctx.addIssue({ code: "custom", message: "not a decimal amount" });
    return z.NEVER;
  }
  return paisa;
});

/** Optional amount: absent, null or "" read as null. */
export const wireOptionalPaisa = z
  .union([wirePaisa, z.literal(""), z.null()])
  .optional()
  .transform((v) => (typeof v === "number" ? v : null));

export const wireOptionalText = z
  .union([wireText, z.null()])
  .optional()
  .transform((v) => (typeof v === "string" && v !== "" ? v : null));

export const wireStatus = z
  .string()
  .trim()
  .min(1)
  .transform((s) => s.toLowerCase());

export function textOf(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** A record whose values are turned into text (bill rows, undocumented records). */
export const wireTextRecord = z
  .record(z.string(), z.unknown())
  .transform((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, textOf(v)])));

// ---------------------------------------------------------------------------------------------
// Envelopes: {error, message, data} on success; error shape A {error: true, message} and shape B
// {status: string|boolean, message, data: []}; India plans use {status: true, message, data}.

export type Envelope =
  | { outcome: "ok"; message: string; data: unknown }
  | { outcome: "error"; message: string }
  | { outcome: "unrecognised" };

const FAILURE_WORDS = new Set(["false", "failed", "failure", "fail", "error", "0", "no"]);
const SUCCESS_WORDS = new Set(["true", "success", "successful", "ok", "1", "yes"]);

/** true/false from a boolean, 0/1 or their text; undefined when it is neither. */
function boolish(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (FAILURE_WORDS.has(word)) return false;
    if (SUCCESS_WORDS.has(word)) return true;
  }
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The provider's human message from any body shape, or null. */
export function messageOf(body: unknown): string | null {
  if (!isRecord(body)) return null;
  for (const key of ["message", "msg", "error_message"] as const) {
    const v = body[key];
    if (typeof v === "string" && v.trim() !== "") return v.trim();
  }
  // Some PHP services put the text in `error` itself; "true"/"false" there is a flag, not a message.
  const error = body.error;
  if (typeof error === "string" && error.trim() !== "" && boolish(error) === undefined) {
    return error.trim();
  }
  return null;
}

export function readEnvelope(body: unknown): Envelope {
  if (!isRecord(body)) return { outcome: "unrecognised" };
  const message = messageOf(body) ?? "";
  if ("error" in body) {
    const isError = boolish(body.error);
    if (isError === true) return { outcome: "error", message };
    if (isError === false) return { outcome: "ok", message, data: body.data };
    // `error` holding a message text: an error all the same.
    if (typeof body.error === "string" && body.error.trim() !== "") {
      return { outcome: "error", message };
    }
    return { outcome: "unrecognised" };
  }
  if ("status" in body) {
    const ok = boolish(body.status);
    if (ok === false) return { outcome: "error", message };
    if (ok === true) return { outcome: "ok", message, data: body.data };
    return { outcome: "unrecognised" };
  }
  if ("data" in body) return { outcome: "ok", message, data: body.data };
  return { outcome: "unrecognised" };
}

/**
 * Error shape B exactly as the status endpoints send it (spec 7): `status` false or a failure word,
 * a `message`, `data` a blank array. Only this body is the provider itself refusing a status query.
 */
export const wireStatusError = z.object({
  status: z
    .union([z.boolean(), z.string()])
    .refine((v) => boolish(v) === false, "status is not a failure"),
  message: z.string().trim().min(1),
  data: z.array(z.unknown()).length(0),
});

/** Provider messages that say a status query's id is unknown to it. */
export const NOT_FOUND_MESSAGE =
  /not\s*found|no\s+(such|record|transaction|order|data)|does\s*n[o']t\s+exist|invalid\s+order/i;
