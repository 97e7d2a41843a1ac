import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatMoney,
  formatRupees,
  parseTypedAmount,
  rupeesToPaisa,
  toDecimalString,
  toPaisa,
  toRupeesNumber,
  toRupeesString,
} from "../../src/money.ts";

/** The money module: wire text, display and typed amounts (src/money.ts). */

const UP_TO_1E12 = fc.integer({ min: -1e12, max: 1e12 });

describe("wire text", () => {
  it("writes two decimals for balances and bills", () => {
    expect(toDecimalString(15000)).toBe("150.00");
    expect(toDecimalString(53344)).toBe("533.44");
    expect(toDecimalString(5)).toBe("0.05");
    expect(toDecimalString(0)).toBe("0.00");
    expect(toDecimalString(-235)).toBe("-2.35");
    expect(() => toDecimalString(0.5)).toThrow(RangeError);
  });

  it("property: paisa -> decimal string -> paisa is the identity up to 10^12", () => {
    fc.assert(
      fc.property(UP_TO_1E12, (paisa) => {
        expect(toPaisa(toDecimalString(paisa))).toBe(paisa);
        expect(toPaisa(toRupeesString(paisa))).toBe(paisa);
      }),
    );
  });

  it("property: no float drift through the JSON number up to 10^12 paisa", () => {
    fc.assert(
      fc.property(UP_TO_1E12, (paisa) => {
        const wire = JSON.parse(JSON.stringify({ a: toRupeesNumber(paisa) })) as { a: number };
        expect(toPaisa(wire.a)).toBe(paisa);
        expect(String(wire.a)).toBe(toRupeesString(paisa).replace(/(\.\d)0$/, "$1"));
      }),
    );
  });

  it("property: a whole-rupee number gives what its decimal text gives, refusals included", () => {
    const viaText = (n: number) => {
      try {
        return toPaisa(String(n));
      } catch (err) {
        return err instanceof RangeError ? "RangeError" : err;
      }
    };
    const viaNumber = (n: number) => {
      try {
        return toPaisa(n);
      } catch (err) {
        return err instanceof RangeError ? "RangeError" : err;
      }
    };
    const edges = [0, -0, 1, -1, 150, 90_071_992_547_409, 90_071_992_547_410, 2 ** 53 - 1];
    for (const n of edges) expect(Object.is(viaNumber(n), viaText(n))).toBe(true);
    expect(viaNumber(2 ** 53 - 1)).toBe("RangeError");
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(Object.is(viaNumber(n), viaText(n))).toBe(true);
      }),
    );
  });

  it("rupeesToPaisa is exact for amounts with up to two decimals and refuses more", () => {
    expect(rupeesToPaisa(533.44)).toBe(53344); // 533.44 * 100 would be 53343.99999999999
    expect(rupeesToPaisa(1.1)).toBe(110);
    expect(rupeesToPaisa(25_000)).toBe(2_500_000);
    expect(() => rupeesToPaisa(1.005)).toThrow(RangeError);
    expect(() => rupeesToPaisa(0.1 + 0.2)).toThrow(RangeError);
    fc.assert(
      fc.property(fc.nat({ max: 1e10 }), fc.integer({ min: 0, max: 99 }), (r, p) => {
        const amount = Number(`${r}.${String(p).padStart(2, "0")}`);
        expect(rupeesToPaisa(amount)).toBe(r * 100 + p);
      }),
    );
  });
});

describe("display", () => {
  it.each([
    [0, "Rs 0"],
    [15000, "Rs 150"],
    [53340, "Rs 533.40"],
    [5, "Rs 0.05"],
    [100_000, "Rs 1,000"],
    [1_000_000, "Rs 10,000"],
    [10_000_000, "Rs 1,00,000"],
    [1_234_567_850, "Rs 1,23,45,678.50"],
    [-150_000, "-Rs 1,500"],
  ])("formats %d paisa as %s", (paisa, text) => {
    expect(formatRupees(paisa)).toBe(text);
  });

  it("shows India's amounts in ₹", () => {
    expect(formatRupees(29_900, "in")).toBe("₹299");
    expect(formatRupees(500_000, "in")).toBe("₹5,000");
  });

  it("property: lakh/crore grouping as en-IN writes it, paisa only when there are some", () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e14 }), (paisa) => {
        const whole = Math.floor(paisa / 100).toLocaleString("en-IN");
        const rest = paisa % 100;
        const expected = rest === 0 ? whole : `${whole}.${String(rest).padStart(2, "0")}`;
        expect(formatRupees(paisa)).toBe(`Rs ${expected}`);
      }),
    );
  });
});

describe("display per language", () => {
  it.each([
    ["en", "np", 10_000_000, "Rs 1,00,000"],
    ["ne", "np", 10_000_000, "रु 1,00,000"],
    ["hi", "np", 10_000_000, "रु 1,00,000"],
    ["en", "in", 29_900, "₹299"],
    ["ne", "in", 29_900, "₹299"],
    ["hi", "in", 29_900, "₹299"],
    ["ne", "np", 1_234_567_850, "रु 1,23,45,678.50"],
    ["hi", "in", 1_234_567_850, "₹1,23,45,678.50"],
    ["hi", "np", 53_340, "रु 533.40"],
    ["ne", "np", -150_000, "-रु 1,500"],
    ["xx", "np", 300_000, "Rs 3,000"],
  ] as const)("%s, %s: %d paisa as %s", (locale, region, paisa, text) => {
    expect(formatMoney(paisa, { region, locale })).toBe(text);
  });

  it("is formatRupees in English, Nepal by default", () => {
    expect(formatMoney(300_000)).toBe("Rs 3,000");
    expect(formatMoney(300_000, { locale: "en" })).toBe(formatRupees(300_000));
    expect(formatMoney(29_900, { region: "in" })).toBe(formatRupees(29_900, "in"));
  });

  const LOCALE = fc.constantFrom("en", "ne", "hi");
  const REGION = fc.constantFrom("np" as const, "in" as const);

  it("property: lakh/crore grouping in every language; the number without its sign is the paisa", () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e14 }), LOCALE, REGION, (paisa, locale, region) => {
        const shown = formatMoney(paisa, { region, locale });
        const number = shown.replace(/^(Rs |रु |₹)/, "");
        expect(number).not.toBe(shown);
        expect(number).toMatch(/^\d{1,2}(,\d{2})*,\d{3}(\.\d{2})?$|^\d{1,3}(\.\d{2})?$/);
        expect(Math.floor(paisa / 100).toLocaleString("en-IN")).toBe(
          number.replace(/\.\d{2}$/, ""),
        );
        expect(toPaisa(number.replaceAll(",", ""))).toBe(paisa);
      }),
    );
  });

  it("property: an amount as shown in any language reads back as the same paisa", () => {
    fc.assert(
      fc.property(fc.nat({ max: 999_999_999_99 }), LOCALE, REGION, (paisa, locale, region) => {
        expect(parseTypedAmount(formatMoney(paisa, { region, locale }))).toEqual({
          ok: true,
          value: paisa,
        });
      }),
    );
  });
});

describe("typed amounts", () => {
  it("keeps Devanagari digits and currency words", () => {
    expect(parseTypedAmount("रु ५००")).toEqual({ ok: true, value: 50_000 });
    expect(parseTypedAmount("१,००,०००")).toEqual({ ok: true, value: 10_000_000 });
    expect(parseTypedAmount("NPR 1,000.50")).toEqual({ ok: true, value: 100_050 });
  });

  it("refuses a misplaced comma with its own code, other junk as a format error", () => {
    expect(parseTypedAmount("20,00")).toEqual({ ok: false, error: { code: "amount_grouping" } });
    expect(parseTypedAmount("1,,000")).toEqual({ ok: false, error: { code: "amount_grouping" } });
    expect(parseTypedAmount("lots")).toEqual({ ok: false, error: { code: "amount_format" } });
    expect(parseTypedAmount(" ")).toEqual({ ok: false, error: { code: "empty" } });
  });

  it("property: an amount as the bot shows it reads back as the same paisa", () => {
    fc.assert(
      fc.property(fc.nat({ max: 999_999_999_99 }), fc.constantFrom("np", "in"), (paisa, region) => {
        const region_ = region as "np" | "in";
        expect(parseTypedAmount(formatRupees(paisa, region_))).toEqual({ ok: true, value: paisa });
      }),
    );
  });

  it("property: commas never change the amount read; they are accepted or refused", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{0,8}$/),
        fc.uniqueArray(fc.nat({ max: 9 }), { minLength: 1, maxLength: 4 }),
        (digits, positions) => {
          let typed = digits;
          for (const at of [...positions].sort((a, b) => b - a)) {
            const i = Math.min(at, typed.length);
            typed = `${typed.slice(0, i)},${typed.slice(i)}`;
          }
          const r = parseTypedAmount(typed);
          if (r.ok) expect(r.value).toBe(Number(digits) * 100);
          else expect(r.error.code).toBe("amount_grouping");
        },
      ),
    );
  });
});
