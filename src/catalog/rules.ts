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
  | { code: "prefix"; allowed: readonly string[] }
  | { code: "retired_operator" }
  | { code: "amount_format" }
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

/** A Nepali mobile number of exactly 10 digits whose prefix is one of `allowed`. */
export function validateMobileNumber(
  input: string,
  allowed: readonly string[],
): RuleResult<string> {
  const d = digitsOf(input, normalizeNepalNumber);
  if (!d.ok) return d;
  const n = d.value;
  if (n.length !== 10) return fail({ code: "length", expected: 10, actual: n.length });
  if (startsWithAny(n, RETIRED_PREFIXES)) return fail({ code: "retired_operator" });
  if (!startsWithAny(n, allowed)) return fail({ code: "prefix", allowed });
  return ok(n);
}

/** The prefixes an operator's numbers may start with (mobile and data-pack operators). */
export function prefixesFor(op: Operator): readonly string[] | null {
  if (op.category === "mobile" && op.line && op.line in NTC_LINE_PREFIXES) {
    return NTC_LINE_PREFIXES[op.line as keyof typeof NTC_LINE_PREFIXES];
  }
  if (op.category === "datapack" && op.family) return FAMILY_PREFIXES[op.family];
  return null;
}

/** An Indian mobile number: exactly 10 digits. */
export function validateIndiaNumber(input: string): RuleResult<string> {
  const d = digitsOf(input, normalizeIndiaNumber);
  if (!d.ok) return d;
  if (d.value.length !== 10) return fail({ code: "length", expected: 10, actual: d.value.length });
  return ok(d.value);
}

/** A landline: exactly 9 digits without a leading 0 (a typed trunk 0 is dropped first). */
export function validateLandline(input: string): RuleResult<string> {
  const d = digitsOf(input, normalizeNepalNumber);
  if (!d.ok) return d;
  const n = d.value;
  if (n.startsWith("0")) return fail({ code: "leading_zero" });
  if (n.length !== 9) return fail({ code: "length", expected: 9, actual: n.length });
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
 * Parses a typed amount in rupees ("500", "Rs. 1,000", "रु ५००", "533.44") to integer paisa.
 * At most two decimals; anything else is a format error.
 */
export function parseAmountToPaisa(input: string): RuleResult<number> {
  let s = asciiDigits(input).trim().toLowerCase();
  s = s.replace(/^(rs\.?|npr|inr|₹|रु\.?|रू\.?)\s*/u, "").replace(/\/-$/, "");
  s = s.replace(/[,\s]/g, "");
  if (s === "") return fail({ code: "empty" });
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return fail({ code: "amount_format" });
  const rupees = Number(m[1]);
  const paisa = Number((m[2] ?? "").padEnd(2, "0"));
  return ok(rupees * 100 + paisa);
}

export interface AmountBounds {
  minPaisa: number;
  maxPaisa: number;
}

export function validateAmount(input: string, bounds: AmountBounds): RuleResult<number> {
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
