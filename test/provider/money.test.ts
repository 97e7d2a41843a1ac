import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toPaisa, toRupeesNumber, toRupeesString, tryToPaisa } from "../../src/money.ts";
import { parseJsonPreservingBigInts, parseProviderTimestamp } from "../../src/provider/index.ts";

describe("toPaisa", () => {
  it("reads the provider's amount strings exactly", () => {
    expect(toPaisa("533.44")).toBe(53344);
    expect(toPaisa("50")).toBe(5000);
    expect(toPaisa("5732.72")).toBe(573272);
    expect(toPaisa("0.05")).toBe(5);
    expect(toPaisa(".5")).toBe(50);
    expect(toPaisa("  100.1 ")).toBe(10010);
    expect(toPaisa("1,250.00")).toBe(125000);
    expect(toPaisa("0")).toBe(0);
  });

  it("reads JSON numbers without binary floating-point drift", () => {
    // 533.44 * 100 === 53343.99999999999 and 1.005 * 100 === 100.49999999999999 in IEEE doubles
    expect(toPaisa(533.44)).toBe(53344);
    expect(toPaisa(1.005)).toBe(101);
    expect(toPaisa(0.1 + 0.2)).toBe(30);
    expect(toPaisa(50)).toBe(5000);
    expect(toPaisa(1e-7)).toBe(0);
    expect(toPaisa(2e5)).toBe(20000000);
  });

  it("rounds half away from zero at the second decimal", () => {
    expect(toPaisa("533.445")).toBe(53345);
    expect(toPaisa("533.4449")).toBe(53344);
    expect(toPaisa("0.005")).toBe(1);
    expect(toPaisa("0.004999")).toBe(0);
    expect(toPaisa("-0.005")).toBe(-1);
    expect(toPaisa("-2.345")).toBe(-235);
    expect(toPaisa("-0.004")).toBe(0);
  });

  it("refuses what is not an amount", () => {
    for (const bad of ["", " ", "abc", "5 0", "1.2.3", "Rs 50", "+", "1,25.0", "--1"]) {
      expect(() => toPaisa(bad), bad).toThrow(RangeError);
      expect(tryToPaisa(bad)).toBeNull();
    }
    expect(() => toPaisa(Number.NaN)).toThrow(RangeError);
    expect(() => toPaisa(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => toPaisa("1e30")).toThrow(RangeError);
    expect(() => toPaisa("900719925474099.99")).toThrow(RangeError);
    expect(tryToPaisa(null)).toBeNull();
    expect(tryToPaisa({})).toBeNull();
  });
});

describe("toRupeesString / toRupeesNumber", () => {
  it("writes whole rupees without decimals, others with two", () => {
    expect(toRupeesString(5000)).toBe("50");
    expect(toRupeesString(53344)).toBe("533.44");
    expect(toRupeesString(53340)).toBe("533.40");
    expect(toRupeesString(5)).toBe("0.05");
    expect(toRupeesString(0)).toBe("0");
    expect(toRupeesString(-235)).toBe("-2.35");
    expect(toRupeesNumber(53344)).toBe(533.44);
    expect(toRupeesNumber(5000)).toBe(50);
    expect(JSON.stringify({ amount: toRupeesNumber(10010) })).toBe('{"amount":100.1}');
  });

  it("refuses non-integer paisa", () => {
    expect(() => toRupeesString(1.5)).toThrow(RangeError);
    expect(() => toRupeesNumber(Number.MAX_SAFE_INTEGER + 2)).toThrow(RangeError);
  });

  it("round-trips any paisa amount through the rupee string", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (paisa) => {
        expect(toPaisa(toRupeesString(paisa))).toBe(paisa);
      }),
    );
  });

  it("round-trips realistic amounts through the rupee JSON number", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (paisa) => {
        const wire = JSON.parse(JSON.stringify({ amount: toRupeesNumber(paisa) })) as {
          amount: number;
        };
        expect(toPaisa(wire.amount)).toBe(paisa);
      }),
    );
  });

  it("reads back any two-decimal rupee text as the same paisa", () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e12 }), fc.integer({ min: 0, max: 99 }), (rupees, cents) => {
        const text = `${rupees}.${String(cents).padStart(2, "0")}`;
        expect(toPaisa(text)).toBe(rupees * 100 + cents);
        expect(toRupeesString(toPaisa(text))).toBe(cents === 0 ? String(rupees) : text);
      }),
    );
  });
});

describe("parseJsonPreservingBigInts", () => {
  it("keeps integers beyond 2^53 as exact text and leaves everything else alone", () => {
    const parsed = parseJsonPreservingBigInts(
      '{"transaction_id": 12345678901234567890, "neg": -98765432109876543210, "safe": 9007199254740991,' +
        ' "amount": 533.44, "s": "99999999999999999999 in \\"quotes\\"", "list": [1, 18446744073709551615]}',
    );
    expect(parsed).toEqual({
      transaction_id: "12345678901234567890",
      neg: "-98765432109876543210",
      safe: 9007199254740991,
      amount: 533.44,
      s: '99999999999999999999 in "quotes"',
      list: [1, "18446744073709551615"],
    });
  });

  it("finds an unsafe integer of exactly 16 digits, after shorter runs of digits", () => {
    // 2^53 + 1 has 16 digits; the runs before it (15 digits, a date) must not hide it.
    expect(
      parseJsonPreservingBigInts(
        '{"a": 123456789012345, "t": "2026-11-26T18:00:00Z", "b": 9007199254740993}',
      ),
    ).toEqual({ a: 123456789012345, t: "2026-11-26T18:00:00Z", b: "9007199254740993" });
  });

  it("still rejects invalid JSON", () => {
    expect(() => parseJsonPreservingBigInts("<html>12345678901234567890</html>")).toThrow();
    expect(() => parseJsonPreservingBigInts("")).toThrow();
  });
});

describe("parseProviderTimestamp", () => {
  it('reads the status format "December 21,2024 9:03pm" in Nepal Time by default', () => {
    // 21:03 at UTC+05:45 is 15:18 UTC
    expect(parseProviderTimestamp("December 21,2024 9:03pm")).toBe(Date.UTC(2024, 11, 21, 15, 18));
    expect(parseProviderTimestamp("December 21,2024 9:03am")).toBe(Date.UTC(2024, 11, 21, 3, 18));
    expect(parseProviderTimestamp("January 1,2025 12:00am")).toBe(Date.UTC(2024, 11, 31, 18, 15));
    expect(parseProviderTimestamp("January 1,2025 12:30pm")).toBe(Date.UTC(2025, 0, 1, 6, 45));
  });

  it("tolerates small variations of that format and honours a configured offset", () => {
    const expected = Date.UTC(2024, 11, 21, 15, 18);
    expect(parseProviderTimestamp("December 21, 2024 9:03 PM")).toBe(expected);
    expect(parseProviderTimestamp("Dec 21,2024 09:03pm")).toBe(expected);
    expect(parseProviderTimestamp("December 21,2024 9:03:30pm")).toBe(expected + 30_000);
    expect(parseProviderTimestamp("December 21,2024 9:03pm", 330)).toBe(
      Date.UTC(2024, 11, 21, 15, 33),
    );
    expect(parseProviderTimestamp("December 21,2024 9:03pm", 0)).toBe(
      Date.UTC(2024, 11, 21, 21, 3),
    );
  });

  it("reads ISO 8601 with and without a zone", () => {
    expect(parseProviderTimestamp("2024-12-21T15:18:00Z")).toBe(Date.UTC(2024, 11, 21, 15, 18));
    expect(parseProviderTimestamp("2024-12-21T15:18:00.123Z")).toBe(
      Date.UTC(2024, 11, 21, 15, 18, 0, 123),
    );
    expect(parseProviderTimestamp("2024-12-21T21:03:00+05:45")).toBe(
      Date.UTC(2024, 11, 21, 15, 18),
    );
    expect(parseProviderTimestamp("2024-12-21T10:00:00-0500")).toBe(Date.UTC(2024, 11, 21, 15, 0));
    // zone-less: the provider's local time
    expect(parseProviderTimestamp("2024-12-21 21:03:00")).toBe(Date.UTC(2024, 11, 21, 15, 18));
  });

  it("reads Unix times", () => {
    expect(parseProviderTimestamp(1734794280)).toBe(1734794280000);
    expect(parseProviderTimestamp(1734794280123)).toBe(1734794280123);
    expect(parseProviderTimestamp("1734794280")).toBe(1734794280000);
  });

  it("answers null for what it cannot read", () => {
    for (const bad of [
      "",
      "yesterday",
      "Foo 21,2024 9:03pm",
      "February 30,2024 9:03pm",
      "December 21,2024 13:03pm",
      "December 21,2024 9:63pm",
      "2024-13-01T00:00:00Z",
      "2024-12-21T25:00:00Z",
      null,
      undefined,
      {},
      -5,
    ]) {
      expect(parseProviderTimestamp(bad), String(bad)).toBeNull();
    }
  });
});
