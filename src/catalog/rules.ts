import { parseTypedAmount, type Region, typedCurrency } from "../money.ts";
import {
  FAMILY_PREFIXES,
  type Family,
  NTC_LINE_PREFIXES,
  type Operator,
  RETIRED_PREFIXES,
} from "./operators.ts";

/**
 * Number, amount and month rules (spec sections 1 and 8), as pure functions returning either the
 * normalised value or an error code with parameters, so each edge can phrase the error itself.
 */

export type RuleError =
  | { code: "empty" }
  | { code: "not_digits" }
  | { code: "length"; expected: number; actual: number }
  | { code: "leading_zero" }
  /** A typed trunk 0 before a number whose length is wrong once the 0 is dropped ("014123456"). */
  | { code: "trunk_zero"; expected: number; actual: number }
  /** An Indian mobile number not starting with 6, 7, 8 or 9 (no such series exists). */
  | { code: "india_prefix" }
  /** A Nepali phone starting with 9 (a mobile) that does not have 10 digits. */
  | { code: "phone_mobile_length"; actual: number }
  /** A Nepali phone not starting with 9 (a landline) outside 7 to 9 digits. */
  | { code: "phone_landline_length"; actual: number }
  | { code: "prefix"; allowed: readonly string[] }
  | { code: "retired_operator" }
  /** A Nepal number asked, and an Indian one typed ("+91 98765 43210"): not "digits only". */
  | { code: "india_number" }
  /** A Nepal number asked, and another country's code typed ("+44…", "0044…"). */
  | { code: "foreign_number" }
  | { code: "amount_format" }
  /** A comma that is not between digit groups ("20,00"): refused, never read as a bigger amount. */
  | { code: "amount_grouping" }
  /** A sign of the other country's rupees ("Rs 500" asked in ₹): refused, never read as ₹. */
  | { code: "amount_currency"; typed: Region }
  | { code: "amount_below"; minPaisa: number }
  | { code: "amount_above"; maxPaisa: number }
  | { code: "month_range" }
  | { code: "too_long"; max: number };

export type RuleResult<T> = { ok: true; value: T } | { ok: false; error: RuleError };

const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
const fail = <T>(error: RuleError): RuleResult<T> => ({ ok: false, error });

const DEVANAGARI_ZERO = 0x0966;

/** Devanagari digits (०-९) to ASCII; other characters unchanged. */
export function asciiDigits(input: string): string {
  return input.replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO));
}

/** Removes what people type around numbers: spaces, dashes, dots, brackets, slashes. */
function stripSeparators(input: string): string {
  return asciiDigits(input).replace(/[\s\-–.()/\u00a0\u200b]/g, "");
}

/**
 * Normalises a Nepali phone number as typed: "+977 984-123 4567", "00977…", "०९८४१२३४५६७" and
 * "09841234567" all become "9841234567". Returns the digits, or null when anything but digits is left.
 */
export function normalizeNepalNumber(input: string): string | null {
  let s = stripSeparators(input);
  if (s.startsWith("+977")) s = s.slice(4);
  else if (s.startsWith("00977")) s = s.slice(5);
  else if (s.startsWith("977") && s.length === 13) s = s.slice(3);
  if (!/^\d*$/.test(s)) return null;
  // A trunk 0 before a 10-digit mobile number or a landline number.
  if (s.startsWith("0") && s.length >= 9) s = s.replace(/^0+/, "");
  return s;
}

/** Normalises an Indian mobile number: "+91 98765 43210", "098765 43210" -> "9876543210". */
export function normalizeIndiaNumber(input: string): string | null {
  let s = stripSeparators(input);
  if (s.startsWith("+91")) s = s.slice(3);
  else if (s.startsWith("0091")) s = s.slice(4);
  else if (s.startsWith("91") && s.length === 12) s = s.slice(2);
  if (!/^\d*$/.test(s)) return null;
  if (s.startsWith("0") && s.length === 11) s = s.slice(1);
  return s;
}

function startsWithAny(value: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => value.startsWith(p));
}

/** The mobile operator family from the prefix, for auto-detection (override possible). */
export function detectOperator(input: string): Family | "retired" | null {
  const n = normalizeNepalNumber(input);
  if (!n) return null;
  if (startsWithAny(n, FAMILY_PREFIXES.ncell)) return "ncell";
  if (startsWithAny(n, FAMILY_PREFIXES.ntc)) return "ntc";
  if (startsWithAny(n, RETIRED_PREFIXES)) return "retired";
  return null;
}

/** The NTC line (prepaid / postpaid / CDMA) from the prefix. */
export function detectNtcLine(input: string): keyof typeof NTC_LINE_PREFIXES | null {
  const n = normalizeNepalNumber(input);
  if (!n) return null;
  for (const line of ["prepaid", "postpaid", "cdma"] as const) {
    if (startsWithAny(n, NTC_LINE_PREFIXES[line])) return line;
  }
  return null;
}

function digitsOf(input: string, normalize: (s: string) => string | null): RuleResult<string> {
  if (input.trim() === "") return fail({ code: "empty" });
  const n = normalize(input);
  if (n === null || n === "") return fail({ code: "not_digits" });
  return ok(n);
}

/**
 * A Nepal number's digits (`normalizeNepalNumber`); a number typed with another country's code
 * ("+91…", "0091…", "+44…") is said to be one, where its "+" would otherwise read as "digits only".
 */
function nepalDigits(input: string): RuleResult<string> {
  const s = stripSeparators(input);
  if (/^(\+|00)91/.test(s)) return fail({ code: "india_number" });
  // Only "+" says a country for sure: "00…" may be a trunk 0 typed twice ("0098…" is taken).
  if (/^\+(?!977)\d/.test(s)) return fail({ code: "foreign_number" });
  return digitsOf(input, normalizeNepalNumber);
}

/** A Nepali mobile number of exactly 10 digits whose prefix is one of `allowed`. */
export function validateMobileNumber(
  input: string,
  allowed: readonly string[],
): RuleResult<string> {
  const d = nepalDigits(input);
  if (!d.ok) return d;
  const n = d.value;
  if (n.length !== 10) return fail({ code: "length", expected: 10, actual: n.length });
  if (startsWithAny(n, RETIRED_PREFIXES)) return fail({ code: "retired_operator" });
  if (!startsWithAny(n, allowed)) return fail({ code: "prefix", allowed });
  return ok(n);
}

/** The prefixes an operator's numbers may start with, by its prefix rule (operator data). */
export function prefixesFor(op: Operator): readonly string[] | null {
  if (op.prefixes === "line" && op.line && op.line in NTC_LINE_PREFIXES) {
    return NTC_LINE_PREFIXES[op.line as keyof typeof NTC_LINE_PREFIXES];
  }
  if (op.prefixes === "family" && op.family) return FAMILY_PREFIXES[op.family];
  return null;
}

/** An Indian number of exactly 10 digits (mobile or DTH subscriber id). */
export function validateIndiaNumber(input: string): RuleResult<string> {
  const d = digitsOf(input, normalizeIndiaNumber);
  if (!d.ok) return d;
  if (d.value.length !== 10) return fail({ code: "length", expected: 10, actual: d.value.length });
  return ok(d.value);
}

/** An Indian mobile number: 10 digits, starting with 6, 7, 8 or 9 (the only mobile series). */
export function validateIndiaMobile(input: string): RuleResult<string> {
  const r = validateIndiaNumber(input);
  if (r.ok && !/^[6-9]/.test(r.value)) return fail({ code: "india_prefix" });
  return r;
}

/** Whether the number as typed starts with a trunk 0 (not an international "00977"). */
function typedTrunkZero(input: string): boolean {
  const s = stripSeparators(input);
  return s.startsWith("0") && !s.startsWith("00977");
}

/** A landline: exactly 9 digits without a leading 0 (a typed trunk 0 is dropped first). */
export function validateLandline(input: string): RuleResult<string> {
  const d = nepalDigits(input);
  if (!d.ok) return d;
  const n = d.value;
  if (n.startsWith("0")) return fail({ code: "leading_zero" });
  if (n.length !== 9) {
    // "014123456" counts its 0 as one of the nine: say so rather than "has 8 digits".
    if (typedTrunkZero(input)) return fail({ code: "trunk_zero", expected: 9, actual: n.length });
    return fail({ code: "length", expected: 9, actual: n.length });
  }
  return ok(n);
}

/**
 * A Nepali phone as a bill's contact: a mobile (10 digits starting with 9) or a landline of 7 to
 * 9 digits not starting with 9 (with or without its area code); "+977", spaces, dashes and a
 * trunk 0 are dropped. The errors say which of the two the input looked like.
 */
export function validateNepalPhone(input: string): RuleResult<string> {
  const d = nepalDigits(input);
  if (!d.ok) return d;
  const n = d.value.replace(/^0+/, "");
  if (n === "") return fail({ code: "not_digits" });
  if (n.startsWith("9")) {
    return n.length === 10 ? ok(n) : fail({ code: "phone_mobile_length", actual: n.length });
  }
  if (n.length < 7 || n.length > 9)
    return fail({ code: "phone_landline_length", actual: n.length });
  return ok(n);
}

/** Customer ids, usernames, SC numbers: printable, trimmed, bounded. */
export function validateAccountId(input: string, max = 40): RuleResult<string> {
  const s = asciiDigits(input).trim();
  if (s === "") return fail({ code: "empty" });
  if (s.length > max) return fail({ code: "too_long", max });
  if (!/^[A-Za-z0-9@._\-/]+$/.test(s)) return fail({ code: "not_digits" });
  return ok(s);
}

/**
 * Parses a typed amount in rupees ("500", "Rs. 1,000", "रु ५००", "533.44") to integer paisa; the
 * rules (decimals, where commas may stand) are the money module's.
 */
export function parseAmountToPaisa(input: string): RuleResult<number> {
  return parseTypedAmount(input);
}

export interface AmountBounds {
  minPaisa: number;
  maxPaisa: number;
}

/** `region`: whose rupees are asked for; an amount typed with the other's sign is refused. */
export function validateAmount(
  input: string,
  bounds: AmountBounds,
  region?: Region,
): RuleResult<number> {
  const typed = typedCurrency(input);
  if (region !== undefined && typed !== undefined && typed !== region)
    return fail({ code: "amount_currency", typed });
  const p = parseAmountToPaisa(input);
  if (!p.ok) return p;
  return checkAmount(p.value, bounds);
}

export function checkAmount(paisa: number, bounds: AmountBounds): RuleResult<number> {
  if (!Number.isSafeInteger(paisa)) return fail({ code: "amount_format" });
  if (paisa < bounds.minPaisa) return fail({ code: "amount_below", minPaisa: bounds.minPaisa });
  if (paisa > bounds.maxPaisa) return fail({ code: "amount_above", maxPaisa: bounds.maxPaisa });
  return ok(paisa);
}

/** Nepali month number 1..12 (water bills). */
export function validateMonth(input: string | number): RuleResult<number> {
  const s = asciiDigits(String(input)).trim();
  if (!/^\d{1,2}$/.test(s)) return fail({ code: "month_range" });
  const m = Number(s);
  if (m < 1 || m > 12) return fail({ code: "month_range" });
  return ok(m);
}

/** Nepali (Bikram Sambat) month names, 1 = Baisakh, for buttons instead of numbers. */
export const NEPALI_MONTHS = [
  "Baisakh",
  "Jestha",
  "Asar",
  "Shrawan",
  "Bhadra",
  "Asoj",
  "Kartik",
  "Mangsir",
  "Poush",
  "Magh",
  "Falgun",
  "Chaitra",
] as const;
