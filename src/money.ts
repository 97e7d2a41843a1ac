/**
 * Money, in one place. Inside the program every amount is integer paisa (a safe integer); rupees
 * exist only as text at the edges: the provider's and the sandbox's decimal strings and numbers, what
 * a user types, and what a chat message shows. Binary floating point cannot scale decimals
 * (533.44 * 100 = 53343.99999999999), so every conversion here works on decimal digits.
 *
 * Imports nothing of the program: every layer may use it.
 */

// ---------------------------------------------------------------------------------------------
// The wire: decimal text and JSON numbers as the provider (and the sandbox standing in for it) write.

/** A decimal literal, optionally signed, with optional fraction and exponent ("1e-7" from String(n)). */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** Thousands grouping as PHP's number_format writes it: "1,250.00". */
const WIRE_GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * Integer paisa from a rupee amount, rounding half away from zero at the second decimal.
 * Throws RangeError when the value is not a finite decimal amount or does not fit a safe integer.
 */
export function toPaisa(value: string | number): number {
  // Whole rupees as a JSON number (the provider's usual amount, on every webhook): exact in binary,
  // no digits to work on. `|| 0` makes -0 the 0 the decimal path gives.
  if (Number.isSafeInteger(value) && Number.isSafeInteger((value as number) * 100))
    return (value as number) * 100 || 0;
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("amount is not a finite number");
    // String(n) is the shortest text that round-trips to n, i.e. what the provider wrote.
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
    if (WIRE_GROUPED.test(text)) text = text.replaceAll(",", "");
  } else {
    throw new RangeError("amount is neither a number nor a string");
  }
  const m = DECIMAL.exec(text);
  const intDigits = m?.[2] ?? "";
  const fracDigits = m?.[3] ?? "";
  if (!m || (intDigits === "" && fracDigits === "")) {
    throw new RangeError(`amount "${text.slice(0, 40)}" is not a decimal number`);
  }
  const negative = m[1] === "-";
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  const digits = (intDigits + fracDigits).replace(/^0+(?=\d)/, "");
  // Position of the decimal point inside `digits`, after applying the exponent.
  const leadingZerosRemoved = intDigits.length + fracDigits.length - digits.length;
  const point = intDigits.length - leadingZerosRemoved + exponent;
  if (/^0*$/.test(digits)) return 0;
  if (point > 20) throw new RangeError("amount is too large");
  if (point < -4) return 0; // below a thousandth of a paisa: rounds to zero

  // Integer paisa digits are everything up to two places after the point; the third decides rounding.
  const shifted = point >= 0 ? digits : "0".repeat(-point) + digits;
  const at = Math.max(point, 0);
  const padded = shifted.padEnd(at + 3, "0");
  let paisa = BigInt(padded.slice(0, at + 2) || "0");
  if (Number(padded.charAt(at + 2)) >= 5) paisa += 1n;
  const result = Number(paisa);
  if (!Number.isSafeInteger(result)) throw new RangeError("amount is too large");
  return negative && result !== 0 ? -result : result;
}

/** toPaisa that answers null instead of throwing, for tolerant parsing. */
export function tryToPaisa(value: unknown): number | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  try {
    return toPaisa(value);
  } catch {
    return null;
  }
}

function assertPaisa(paisa: number): void {
  if (!Number.isSafeInteger(paisa)) throw new RangeError("paisa must be a safe integer");
}

/** Sign, whole rupees and the two paisa digits of a paisa amount, by integer arithmetic only. */
function split(paisa: number): { sign: string; rupees: string; rest: string } {
  assertPaisa(paisa);
  const abs = Math.abs(paisa);
  return {
    sign: paisa < 0 ? "-" : "",
    rupees: String(Math.floor(abs / 100)),
    rest: String(abs % 100).padStart(2, "0"),
  };
}

/** Rupees as the provider writes them in requests: "50" for whole rupees, else "533.40". */
export function toRupeesString(paisa: number): string {
  const { sign, rupees, rest } = split(paisa);
  return rest === "00" ? `${sign}${rupees}` : `${sign}${rupees}.${rest}`;
}

/** Rupees with two decimals always, as in the provider's balances and bills: "150.00". */
export function toDecimalString(paisa: number): string {
  const { sign, rupees, rest } = split(paisa);
  return `${sign}${rupees}.${rest}`;
}

/** Rupees as a JSON number (the nearest double to the exact decimal, which JSON prints exactly). */
export function toRupeesNumber(paisa: number): number {
  return Number(toRupeesString(paisa));
}

/**
 * Paisa of a rupee amount written in code or configuration (`rupeesToPaisa(50)`, a daily cap, a package
 * price). Exact for any amount with at most two decimals; throws RangeError otherwise.
 */
export function rupeesToPaisa(amount: number): number {
  const paisa = toPaisa(amount);
  if (toRupeesNumber(paisa) !== amount)
    throw new RangeError(`${amount} has more than two decimals`);
  return paisa;
}

// ---------------------------------------------------------------------------------------------
// Display.

export type Region = "np" | "in";

/** Indian/Nepali grouping of a digit string: the last three digits, then groups of two (1,00,000). */
function groupLakh(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3);
  const pairs = head.replace(/\B(?=(\d{2})+$)/g, ",");
  return `${pairs},${digits.slice(-3)}`;
}

/** The chat languages, as money.ts knows them (it imports nothing; the bot's Locale is the same list). */
type MoneyLocale = "en" | "ne" | "hi";

/**
 * The sign before an amount. The currency follows the region of the order (NPR for Nepal, INR for
 * India), not the language; the language decides how NPR is written: "Rs" in English, "रु" in
 * Nepali and Hindi (₹ would say INR to a Hindi reader). INR is ₹ in all three.
 */
const SIGN: Record<Region, Record<MoneyLocale, string>> = {
  np: { en: "Rs ", ne: "रु ", hi: "रु " },
  in: { en: "₹", ne: "₹", hi: "₹" },
};

export interface MoneyStyle {
  region?: Region | undefined;
  /** A chat locale; anything else (or none) is English. */
  locale?: string | undefined;
}

/**
 * An amount as a chat message shows it: "Rs 1,00,000", "रु 533.40", "₹299" for India. Lakh/crore
 * grouping in all three languages, paisa only when there are some. Digits stay Latin in every
 * language and every sign is one parseTypedAmount accepts, so an amount shown can be typed back.
 */
export function formatMoney(paisa: number, style: MoneyStyle = {}): string {
  const { sign, rupees: whole, rest } = split(paisa);
  const text = rest === "00" ? groupLakh(whole) : `${groupLakh(whole)}.${rest}`;
  const locale: MoneyLocale = style.locale === "ne" || style.locale === "hi" ? style.locale : "en";
  return `${sign}${SIGN[style.region ?? "np"][locale]}${text}`;
}

/** formatMoney in English: for texts without a reader's language (logs, admin, the default render). */
export function formatRupees(paisa: number, region: Region = "np"): string {
  return formatMoney(paisa, { region });
}

// ---------------------------------------------------------------------------------------------
// What a user types.

type TypedAmountError = { code: "empty" } | { code: "amount_format" } | { code: "amount_grouping" };
export type TypedAmount = { ok: true; value: number } | { ok: false; error: TypedAmountError };

const DEVANAGARI_ZERO = 0x0966;
/** Whole rupees with commas where people put them: thousands (10,000) or lakh/crore (1,00,000). */
const THOUSANDS = /^\d{1,3}(?:,\d{3})+$/;
const LAKH = /^\d{1,2}(?:,\d{2})*,\d{3}$/;
/** At most nine rupee digits (Rs 99,99,99,999) keeps any sum of amounts far inside a safe integer. */
const TYPED = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * Whose rupees a typed amount's sign names: "Rs 500", "NPR 500", "रु 500" Nepal's, "₹500" and
 * "INR 500" India's; undefined without a sign.
 */
export function typedCurrency(input: string): Region | undefined {
  const m = /^(rs\.?|npr|inr|₹|रु\.?|रू\.?)/u.exec(input.trim().toLowerCase());
  if (!m) return undefined;
  return m[1] === "inr" || m[1] === "₹" ? "in" : "np";
}

/**
 * A typed amount in rupees ("500", "Rs. 1,000", "रु ५००", "1,00,000", "533.44") as integer paisa.
 * At most two decimals. A comma anywhere but between digit groups ("20,00", "1,,000", ",100") is
 * refused with its own reason instead of being dropped, which would read a bigger amount.
 */
export function parseTypedAmount(input: string): TypedAmount {
  let s = input.replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - DEVANAGARI_ZERO));
  s = s.trim().toLowerCase();
  s = s.replace(/^(rs\.?|npr|inr|₹|रु\.?|रू\.?)\s*/u, "").replace(/\/-$/, "");
  s = s.replace(/\s/g, "");
  if (s === "") return { ok: false, error: { code: "empty" } };
  if (s.includes(",")) {
    const dot = s.indexOf(".");
    const whole = dot < 0 ? s : s.slice(0, dot);
    if (!THOUSANDS.test(whole) && !LAKH.test(whole)) {
      return { ok: false, error: { code: "amount_grouping" } };
    }
    s = whole.replaceAll(",", "") + (dot < 0 ? "" : s.slice(dot));
  }
  const m = TYPED.exec(s);
  if (!m) return { ok: false, error: { code: "amount_format" } };
  return { ok: true, value: Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0")) };
}
