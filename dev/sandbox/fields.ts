import { z } from "zod";
import type { RuleError } from "../../src/catalog/index.ts";
import { toPaisa, toRupeesString } from "../../src/money.ts";

/**
 * Field readers for request bodies: the provider is lenient about JSON types (ids and amounts arrive
 * as numbers or as text), strict about content. Each schema carries the human message the 400
 * answer shows.
 */

const missing = (input: unknown) => input === undefined || input === null || input === "";

function messageFor(name: string, what: string) {
  return (iss: { input?: unknown }) =>
    missing(iss.input) ? `${name} is required` : `${name} must be ${what}`;
}

/** Non-empty text; numbers are taken as their decimal text. */
export function textField(name: string, max = 64) {
  return z
    .union([z.string(), z.number().finite()], { error: messageFor(name, "text") })
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        .min(1, `${name} is required`)
        .max(max, `${name} must be at most ${max} characters`),
    );
}

/** A positive integer id, as a number or digit text. */
export function intField(name: string) {
  return z
    .union(
      [
        z.number().int().positive(),
        z
          .string()
          .trim()
          .regex(/^\d{1,15}$/),
      ],
      {
        error: messageFor(name, "a whole number"),
      },
    )
    .transform((v) => Number(v))
    .pipe(z.number().int().positive(`${name} must be a positive whole number`));
}

/** A client reference: non-empty text or a non-negative integer; kept with its JSON type for echoes. */
export function referenceField(name: string) {
  return z
    .union([z.string(), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)], {
      error: messageFor(name, "text or a whole number"),
    })
    .transform((raw) => ({ raw, text: String(raw).trim() }))
    .refine((r) => r.text.length > 0, `${name} is required`)
    .refine((r) => r.text.length <= 64, `${name} must be at most 64 characters`);
}

const RUPEES_TEXT = /^\d{1,9}(\.\d{1,2})?$/;

/** A rupee amount (number or decimal text, at most two decimals) as integer paisa. */
export function amountField(name: string) {
  return z
    .union([z.number(), z.string()], { error: messageFor(name, "an amount in rupees") })
    .transform((v, ctx) => {
      const text = typeof v === "number" ? String(v) : v.trim();
      if (!RUPEES_TEXT.test(text)) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be an amount in rupees with at most two decimals`,
        });
        return z.NEVER;
      }
      return toPaisa(text);
    });
}

/** The first issue's message: every field schema above carries a complete human sentence. */
export function firstMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  // Union branches nest their own issues; the custom union message is on the outer issue.
  return issue.message;
}

/** The catalogue's rule errors as the sentences a 400 answer shows. */
export function ruleMessage(field: string, e: RuleError): string {
  switch (e.code) {
    case "empty":
      return `${field} is required`;
    case "not_digits":
      return `${field} must contain digits only`;
    case "length":
      return `${field} must have exactly ${e.expected} digits (got ${e.actual})`;
    case "leading_zero":
      return `${field} must not start with 0`;
    case "trunk_zero":
      return `${field} must be the ${e.expected} digits after the leading 0 (got ${e.actual})`;
    case "india_prefix":
      return `${field} must start with 6, 7, 8 or 9`;
    case "phone_mobile_length":
      return `${field} starting with 9 must have 10 digits (got ${e.actual})`;
    case "phone_landline_length":
      return `${field} must have 7 to 9 digits (got ${e.actual})`;
    case "prefix":
      return `${field} must start with ${listOr(e.allowed)}`;
    case "retired_operator":
      return `${field} belongs to SmartCell (961, 988), which no longer operates`;
    case "india_number":
      return `${field} must be a Nepal number, not an Indian one`;
    case "foreign_number":
      return `${field} must be a Nepal number, without another country's code`;
    case "amount_format":
    case "amount_grouping":
    case "amount_currency":
      return `${field} must be an amount in rupees`;
    case "amount_below":
      return `${field} must be at least Rs ${toRupeesString(e.minPaisa)}`;
    case "amount_above":
      return `${field} must be at most Rs ${toRupeesString(e.maxPaisa)}`;
    case "month_range":
      return `${field} must be a month number from 1 to 12`;
    case "too_long":
      return `${field} must be at most ${e.max} characters`;
  }
}

function listOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
