import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatRate,
  inrToNprPaisa,
  nprCharge,
  parseRate,
  RATE_SCALE,
} from "../../src/pricing/index.ts";

/** ₹ into रु for India orders paid from a Nepal-rupee balance: integer arithmetic, rounded up. */
describe("INR to NPR", () => {
  it("converts at the peg exactly when the figure is exact", () => {
    expect(inrToNprPaisa(10_000, 16_000)).toBe(16_000); // ₹100 -> Rs 160
    expect(inrToNprPaisa(29_900, 16_000)).toBe(47_840); // ₹299 -> Rs 478.40
    expect(inrToNprPaisa(0, 16_000)).toBe(0);
  });

  it("rounds up to the whole paisa, never down", () => {
    expect(inrToNprPaisa(1, 16_000)).toBe(2); // 1.6 paisa
    expect(inrToNprPaisa(3, 16_000)).toBe(5); // 4.8 paisa
    expect(inrToNprPaisa(10_001, 16_015)).toBe(16_017); // 16016.6015 paisa
    expect(inrToNprPaisa(5, 10_001)).toBe(6); // 5.0005 paisa
  });

  it("is exact for amounts whose product passes 2^53", () => {
    const big = Number.MAX_SAFE_INTEGER - 1;
    expect(() => inrToNprPaisa(big, 16_000)).toThrow(RangeError);
    // 1e13 × 16 000 = 1.6e17, far past 2^53: a float product would lose the last digits.
    expect(inrToNprPaisa(10_000_000_000_001, 16_000)).toBe(16_000_000_000_002);
  });

  it("refuses what is not integer paisa or a positive rate", () => {
    expect(() => inrToNprPaisa(1.5, 16_000)).toThrow(RangeError);
    expect(() => inrToNprPaisa(-1, 16_000)).toThrow(RangeError);
    expect(() => inrToNprPaisa(100, 0)).toThrow(RangeError);
    expect(() => inrToNprPaisa(100, 1.6)).toThrow(RangeError);
  });

  it("property: the least whole paisa at or above amount × rate", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 1, max: 9_999_999 }),
        (inr, rate) => {
          const npr = inrToNprPaisa(inr, rate);
          const exact = BigInt(inr) * BigInt(rate);
          // npr × scale ≥ inr × rate > (npr − 1) × scale
          expect(BigInt(npr) * BigInt(RATE_SCALE) >= exact).toBe(true);
          expect(BigInt(npr - 1) * BigInt(RATE_SCALE) < exact).toBe(true);
        },
      ),
    );
  });

  it("property: monotonic in the amount and the rate, and never below the ₹ figure at a rate ≥ 1", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: RATE_SCALE, max: 50_000 }),
        (inr, more, rate) => {
          expect(inrToNprPaisa(inr + more, rate)).toBeGreaterThanOrEqual(inrToNprPaisa(inr, rate));
          expect(inrToNprPaisa(inr, rate + 1)).toBeGreaterThanOrEqual(inrToNprPaisa(inr, rate));
          expect(inrToNprPaisa(inr, rate)).toBeGreaterThanOrEqual(inr);
        },
      ),
    );
  });

  it("a charge: the total and the fee converted on their own, the fee never above the total", () => {
    expect(nprCharge({ totalPaisa: 10_150, feePaisa: 150 }, 16_000)).toEqual({
      rateE4: 16_000,
      totalPaisa: 16_240,
      feePaisa: 240,
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (total, fee, rate) => {
          const c = nprCharge({ totalPaisa: total, feePaisa: fee }, rate);
          expect(c.totalPaisa).toBe(inrToNprPaisa(total, rate));
          expect(c.feePaisa).toBeLessThanOrEqual(c.totalPaisa);
        },
      ),
    );
  });
});

describe("the rate's text", () => {
  it("reads NPR per INR with at most four decimals into ten-thousandths", () => {
    expect(parseRate("1.6")).toEqual({ ok: true, rateE4: 16_000 });
    expect(parseRate("1.6015")).toEqual({ ok: true, rateE4: 16_015 });
    expect(parseRate("001.60")).toEqual({ ok: true, rateE4: 16_000 });
    expect(parseRate("0.0001")).toEqual({ ok: true, rateE4: 1 });
    for (const bad of ["", "1.", ".6", "1.60001", "-1.6", "1,6", "1e1", "1.6 INR", "0"]) {
      expect(parseRate(bad).ok).toBe(false);
    }
  });

  it("shows a rate with at least two decimals, and reads back what it shows", () => {
    expect(formatRate(16_000)).toBe("1.60");
    expect(formatRate(16_015)).toBe("1.6015");
    expect(formatRate(16_010)).toBe("1.601");
    expect(formatRate(20_000)).toBe("2.00");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999 }), (rate) => {
        expect(parseRate(formatRate(rate))).toEqual({ ok: true, rateE4: rate });
      }),
    );
  });
});
