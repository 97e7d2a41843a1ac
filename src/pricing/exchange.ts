/**
 * Indian rupees into Nepal rupees, for India orders paid from a Nepal-rupee balance (issue 15).
 * The rate is NPR per 1 INR as the merchant writes it ("1.6", at most four decimals), held as an
 * integer of ten-thousandths (1.6 -> 16 000), so a conversion is one integer multiplication and a
 * rounding, never a float.
 */

/** Ten-thousandths of a rupee per rupee: the rate's unit (a rate of 1.6 is 16 000). */
export const RATE_SCALE = 10_000;

/** The official peg (NPR 1.60 = INR 1), the default of INR_TO_NPR_RATE. */
export const DEFAULT_INR_TO_NPR_RATE = "1.6";

const RATE = /^(\d{1,3})(?:\.(\d{1,4}))?$/;

/** A rate's text ("1.6", "1.6015") as ten-thousandths, or why it is not one. */
export function parseRate(text: string): { ok: true; rateE4: number } | { ok: false; why: string } {
  const m = RATE.exec(text.trim());
  if (!m)
    return {
      ok: false,
      why: `must be Nepal rupees per 1 Indian rupee with at most four decimals, e.g. "1.6" (got ${JSON.stringify(text)})`,
    };
  const rateE4 = Number(m[1]) * RATE_SCALE + Number((m[2] ?? "").padEnd(4, "0"));
  if (rateE4 <= 0) return { ok: false, why: "must be above zero" };
  return { ok: true, rateE4 };
}

/** A rate as a person reads it: 16 000 -> "1.60", 16 015 -> "1.6015" (at least two decimals). */
export function formatRate(rateE4: number): string {
  if (!Number.isSafeInteger(rateE4) || rateE4 <= 0) throw new RangeError("rate must be positive");
  const whole = Math.floor(rateE4 / RATE_SCALE);
  const frac = String(rateE4 % RATE_SCALE)
    .padStart(4, "0")
    .replace(/0{1,2}$/, "");
  return `${whole}.${frac}`;
}

/**
 * Paisa of Indian rupees as paisa of Nepal rupees at `rateE4`, rounded UP to the whole paisa:
 * the balance is never charged less than the rate says (₹0.01 at 1.6 is रु 0.016: 2 paisa).
 */
export function inrToNprPaisa(inrPaisa: number, rateE4: number): number {
  if (!Number.isSafeInteger(inrPaisa) || inrPaisa < 0)
    throw new RangeError("inrPaisa must be a non-negative safe integer");
  if (!Number.isSafeInteger(rateE4) || rateE4 <= 0) throw new RangeError("rate must be positive");
  // BigInt: paisa × ten-thousandths may pass 2^53 for large amounts.
  const scaled = BigInt(inrPaisa) * BigInt(rateE4);
  const scale = BigInt(RATE_SCALE);
  const npr = Number((scaled + scale - 1n) / scale);
  if (!Number.isSafeInteger(npr))
    throw new RangeError("the converted amount exceeds a safe integer");
  return npr;
}

/**
 * What an India order takes from a Nepal-rupee balance: the rate used, the total (amount + fee −
 * discount in ₹) converted, and the fee converted (booked as fee income, in the books' rupees).
 * Each rounded up on its own; the fee never exceeds the total.
 */
export interface NprCharge {
  rateE4: number;
  /** NPR paisa held at confirm and captured on success. */
  totalPaisa: number;
  /** NPR paisa of the fee, booked from sales into fee income on success. */
  feePaisa: number;
}

export function nprCharge(
  price: { totalPaisa: number; feePaisa: number },
  rateE4: number,
): NprCharge {
  const totalPaisa = inrToNprPaisa(price.totalPaisa, rateE4);
  return {
    rateE4,
    totalPaisa,
    feePaisa: Math.min(inrToNprPaisa(price.feePaisa, rateE4), totalPaisa),
  };
}
