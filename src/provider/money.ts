/**
 * Rupee <-> paisa conversion at the provider edge. Amounts arrive as JSON numbers (533.44) or
 * decimal strings ("533.44", "50", "1,250.00"); binary floating point cannot be trusted to scale them
 * (533.44 * 100 = 53343.99999999999), so the decimal text is parsed digit by digit.
 */

/** A decimal literal, optionally signed, with optional fraction and exponent ("1e-7" from String(n)). */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** Thousands grouping as PHP's number_format writes it: "1,250.00". */
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * Integer paisa from a rupee amount, rounding half away from zero at the second decimal.
 * Throws RangeError when the value is not a finite decimal amount or does not fit a safe integer.
 */
export function toPaisa(value: string | number): number {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("amount is not a finite number");
    // String(n) is the shortest text that round-trips to n, i.e. what the provider wrote.
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
    if (GROUPED.test(text)) text = text.replaceAll(",", "");
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

/** Rupees as the provider writes them: "50" for whole rupees, otherwise two decimals ("533.40"). */
export function toRupeesString(paisa: number): string {
  assertPaisa(paisa);
  const abs = Math.abs(paisa);
  const rupees = Math.floor(abs / 100);
  const rest = abs % 100;
  const sign = paisa < 0 ? "-" : "";
  return rest === 0 ? `${sign}${rupees}` : `${sign}${rupees}.${String(rest).padStart(2, "0")}`;
}

/** Rupees as a JSON number (the nearest double to the exact decimal, which JSON prints exactly). */
export function toRupeesNumber(paisa: number): number {
  return Number(toRupeesString(paisa));
}
