import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "../../src/catalog/operators.ts";
import {
  DEFAULT_PRICE_SCHEDULE,
  margin,
  type PriceSchedule,
  PriceScheduleError,
  parsePriceSchedule,
  quote,
} from "../../src/pricing/index.ts";

const schedule = (json: unknown): PriceSchedule => parsePriceSchedule(json, "test.json");
const q = (s: PriceSchedule, amountPaisa: number, category: Category = "mobile", operatorId = 5) =>
  quote(s, { category, operatorId, amountPaisa });

describe("price schedule: quotes", () => {
  it("without a schedule the customer pays the face amount, in every category", () => {
    for (const category of CATEGORIES) {
      expect(q(DEFAULT_PRICE_SCHEDULE, 50_000, category)).toEqual({
        amountPaisa: 50_000,
        feePaisa: 0,
        discountPaisa: 0,
        totalPaisa: 50_000,
      });
    }
  });

  it("adds a flat fee, written in rupees", () => {
    const s = schedule({ categories: { water: { fee: { flat: "5" } } } });
    expect(q(s, 53_344, "water", 46)).toEqual({
      amountPaisa: 53_344,
      feePaisa: 500,
      discountPaisa: 0,
      totalPaisa: 53_844,
    });
    expect(q(s, 53_344, "mobile").feePaisa).toBe(0);
  });

  it("rounds a percentage half up to the paisa", () => {
    const s = schedule({ default: { fee: { percent: "1" } } });
    expect(q(s, 10_050).feePaisa).toBe(101); // 100.5 paisa
    expect(q(s, 10_049).feePaisa).toBe(100); // 100.49 paisa
    expect(q(s, 10_051).feePaisa).toBe(101); // 100.51 paisa
    const fine = schedule({ default: { fee: { percent: "0.01" } } });
    expect(q(fine, 5_000).feePaisa).toBe(1); // 0.5 paisa rounds up
    expect(q(fine, 4_999).feePaisa).toBe(0);
  });

  it("holds a percentage fee within its min and max", () => {
    const s = schedule({ default: { fee: { percent: "2", min: "1", max: "20" } } });
    expect(q(s, 1_000).feePaisa).toBe(100); // 2 % = 20 paisa, below Rs 1
    expect(q(s, 50_000).feePaisa).toBe(1_000); // 2 % of Rs 500 = Rs 10, inside
    expect(q(s, 500_000).feePaisa).toBe(2_000); // Rs 100 capped at Rs 20
  });

  it("takes a flat or percentage discount off the total", () => {
    const flat = schedule({ default: { discount: { flat: "2.50" } } });
    expect(q(flat, 10_000)).toEqual({
      amountPaisa: 10_000,
      feePaisa: 0,
      discountPaisa: 250,
      totalPaisa: 9_750,
    });
    const pct = schedule({ default: { discount: { percent: "1.5", max: "10" } } });
    expect(q(pct, 10_000).discountPaisa).toBe(150);
    expect(q(pct, 100_000).discountPaisa).toBe(1_000); // Rs 15 capped at Rs 10
  });

  it("lets a discount exceed the fee, but never the amount plus fee", () => {
    const s = schedule({ default: { fee: { flat: "1" }, discount: { flat: "3" } } });
    expect(q(s, 10_000)).toEqual({
      amountPaisa: 10_000,
      feePaisa: 100,
      discountPaisa: 300,
      totalPaisa: 9_800,
    });
    // Rs 3 off Rs 1.50 + Rs 1 fee: the discount given (and shown) is Rs 2.50, the total zero.
    expect(q(s, 150)).toEqual({
      amountPaisa: 150,
      feePaisa: 100,
      discountPaisa: 250,
      totalPaisa: 0,
    });
    const all = schedule({ default: { discount: { percent: "100" } } });
    expect(q(all, 12_345).totalPaisa).toBe(0);
  });

  it("chooses operator over category over default, for the fee and the discount each", () => {
    const s = schedule({
      default: { fee: { flat: "1" }, discount: { flat: "0.10" } },
      categories: {
        mobile: {
          fee: { flat: "2" },
          operators: { "6": { fee: { flat: "3" } }, "14": { discount: { flat: "0.50" } } },
        },
      },
    });
    expect(q(s, 10_000, "mobile", 6)).toMatchObject({ feePaisa: 300, discountPaisa: 10 });
    expect(q(s, 10_000, "mobile", 14)).toMatchObject({ feePaisa: 200, discountPaisa: 50 });
    expect(q(s, 10_000, "mobile", 5)).toMatchObject({ feePaisa: 200, discountPaisa: 10 });
    expect(q(s, 10_000, "landline", 6)).toMatchObject({ feePaisa: 100, discountPaisa: 10 });
  });

  it("scopes an operator rule to its category (India and Nepal ids may coincide)", () => {
    const s = schedule({ categories: { india: { operators: { "5": { fee: { flat: "9" } } } } } });
    expect(q(s, 10_000, "india", 5).feePaisa).toBe(900);
    expect(q(s, 10_000, "mobile", 5).feePaisa).toBe(0);
  });

  it("refuses an amount that is not integer paisa", () => {
    expect(() => q(DEFAULT_PRICE_SCHEDULE, 10.5)).toThrow(RangeError);
    expect(() => q(DEFAULT_PRICE_SCHEDULE, -1)).toThrow(RangeError);
  });

  it("prices the example file as its README section says", () => {
    const s = parsePriceSchedule(
      JSON.parse(readFileSync(new URL("../../prices.example.json", import.meta.url), "utf8")),
      "prices.example.json",
    );
    expect(q(s, 50_000, "mobile", 5)).toMatchObject({ feePaisa: 500, totalPaisa: 50_500 });
    expect(q(s, 5_000, "mobile", 5)).toMatchObject({ feePaisa: 100, totalPaisa: 5_100 });
    expect(q(s, 50_000, "mobile", 6)).toMatchObject({ feePaisa: 0, totalPaisa: 50_000 });
    expect(q(s, 10_000, "datapack", 2)).toMatchObject({ discountPaisa: 100, totalPaisa: 9_900 });
    expect(q(s, 53_344, "water", 46)).toMatchObject({ feePaisa: 500, totalPaisa: 53_844 });
    expect(q(s, 100_000, "electricity", 118)).toMatchObject({
      feePaisa: 1_000,
      discountPaisa: 250,
      totalPaisa: 100_750,
    });
    expect(q(s, 29_900, "india", 101)).toMatchObject({ feePaisa: 449, totalPaisa: 30_349 });
    expect(q(s, 50_000, "dth", 7)).toMatchObject({ feePaisa: 0, discountPaisa: 0 });
  });
});

describe("price schedule: the file's figures", () => {
  const feeOf = (v: unknown) => schedule({ default: { fee: { flat: v } } }).default.fee;
  const pctOf = (v: unknown) => schedule({ default: { fee: { percent: v } } }).default.fee;

  it("reads rupees as text or a JSON number, exactly", () => {
    expect(feeOf("2.50")).toEqual({ kind: "flat", paisa: 250 });
    expect(feeOf("5")).toEqual({ kind: "flat", paisa: 500 });
    expect(feeOf(2.5)).toEqual({ kind: "flat", paisa: 250 });
    expect(feeOf("533.44")).toEqual({ kind: "flat", paisa: 53_344 }); // 533.44 * 100 is not 53344 in floats
    expect(feeOf(0.29)).toEqual({ kind: "flat", paisa: 29 }); // nor is 0.29 * 100
  });

  it("reads percent as basis points, exactly", () => {
    expect(pctOf("1.5")).toMatchObject({ kind: "percent", bps: 150 });
    expect(pctOf(0.07)).toMatchObject({ kind: "percent", bps: 7 }); // 0.07 * 100 = 7.000000000000001
    expect(pctOf("100")).toMatchObject({ kind: "percent", bps: 10_000 });
  });

  it.each([
    [{ default: { fee: { flat: "-5" } } }, "default.fee.flat: must not be negative"],
    [{ default: { fee: { flat: "2.555" } } }, "default.fee.flat: must be rupees with at most two"],
    [{ default: { fee: { flat: "1e3" } } }, "default.fee.flat: must be rupees"],
    [{ default: { fee: { flat: true } } }, "default.fee.flat: must be rupees"],
    [{ default: { fee: { flat: "100001" } } }, "default.fee.flat: must be at most 100000 rupees"],
    [{ default: { fee: { percent: "101" } } }, "default.fee.percent: must be at most 100"],
    [{ default: { fee: { percent: "-1" } } }, "default.fee.percent: must not be negative"],
    [{ default: { fee: {} } }, 'default.fee: needs exactly one of "flat" or "percent"'],
    [{ default: { fee: { flat: "1", percent: "1" } } }, "default.fee: needs exactly one"],
    [
      { default: { fee: { flat: "1", max: "2" } } },
      'default.fee: "min" and "max" go with "percent"',
    ],
    [
      { default: { fee: { percent: "1", min: "3", max: "2" } } },
      'default.fee.min: must not exceed "max"',
    ],
    [{ default: { fees: {} } }, 'default: unknown key "fees"'],
    [{ categories: { watr: {} } }, 'categories: unknown key "watr" (categories are: mobile'],
    [{ categories: { dth: { operators: { x: {} } } } }, "categories.dth.operators.x: operator ids"],
    [
      { categories: { dth: { operators: { "7": { fee: { flat: "-1" } } } } } },
      'categories.dth.operators["7"].fee.flat: must not be negative',
    ],
    [[], "(top level): "],
  ])("refuses %j naming the JSON path", (json, problem) => {
    try {
      schedule(json);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PriceScheduleError);
      expect((e as PriceScheduleError).problems.join("\n")).toContain(`test.json: ${problem}`);
    }
  });
});

describe("margin", () => {
  it("is price paid minus provider debit plus commission", () => {
    expect(
      margin({ pricePaidPaisa: 50_500, providerDebitPaisa: 50_000, commissionPaisa: 1_500 }),
    ).toBe(2_000);
    // Water: the aggregator charges Rs 5 more; a merchant who does not pass it on loses it.
    expect(margin({ pricePaidPaisa: 53_344, providerDebitPaisa: 53_844, commissionPaisa: 0 })).toBe(
      -500,
    );
  });

  it("refuses anything but integer paisa", () => {
    expect(() =>
      margin({ pricePaidPaisa: 1.5, providerDebitPaisa: 0, commissionPaisa: 0 }),
    ).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties, over schedules written as a merchant writes them (rupee and percent text).

const rupeeText = fc
  .tuple(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 99 }), fc.boolean())
  .map(([r, p, whole]) => (whole ? String(r) : `${r}.${String(p).padStart(2, "0")}`));
const paisaOf = (text: string) => {
  const [r, p = "0"] = text.split(".");
  return Number(r) * 100 + Number(p.padEnd(2, "0"));
};
const percentText = fc
  .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 99 }))
  .map(([w, f]) => (w === 100 ? "100" : `${w}.${String(f).padStart(2, "0")}`));
const bpsOf = (text: string) => Math.round(Number(text) * 100); // test only: 2 decimals, <= 100

const adjustment = fc.oneof(
  rupeeText.map((flat) => ({ flat })),
  fc
    .record({ percent: percentText, min: rupeeText, max: rupeeText }, { requiredKeys: ["percent"] })
    .map((a) =>
      a.min !== undefined && a.max !== undefined && paisaOf(a.min) > paisaOf(a.max)
        ? { ...a, min: a.max, max: a.min }
        : a,
    ),
);
const rule = fc.record({ fee: adjustment, discount: adjustment }, { requiredKeys: [] });
const category = fc.constantFrom(...CATEGORIES);
const opId = fc.integer({ min: 1, max: 6 });
const scheduleJson = fc.record({
  default: rule,
  categories: fc.dictionary(
    category,
    fc.record(
      {
        ...{ fee: adjustment, discount: adjustment },
        operators: fc.dictionary(opId.map(String), rule),
      },
      {
        requiredKeys: [],
      },
    ),
  ),
});
/** Small amounts too, where rounding ties and the min bound are common. */
const amount = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }),
  fc.integer({ min: 0, max: 1_000_000_000 }),
);

describe("price schedule: properties", () => {
  it("total = amount + fee - discount, all integer paisa, total never below zero", () => {
    fc.assert(
      fc.property(scheduleJson, category, opId, amount, (json, cat, op, amountPaisa) => {
        const r = quote(schedule(json), { category: cat, operatorId: op, amountPaisa });
        for (const v of Object.values(r)) expect(Number.isSafeInteger(v)).toBe(true);
        expect(r.amountPaisa).toBe(amountPaisa);
        expect(r.totalPaisa).toBe(r.amountPaisa + r.feePaisa - r.discountPaisa);
        expect(r.totalPaisa).toBeGreaterThanOrEqual(0);
        expect(r.feePaisa).toBeGreaterThanOrEqual(0);
        expect(r.discountPaisa).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("a percentage fee is the exact product rounded half up, then held within its bounds", () => {
    fc.assert(
      fc.property(percentText, rupeeText, rupeeText, amount, (pct, a, b, amountPaisa) => {
        const [min, max] = paisaOf(a) <= paisaOf(b) ? [a, b] : [b, a];
        const free = schedule({ default: { fee: { percent: pct } } });
        const bounded = schedule({ default: { fee: { percent: pct, min, max } } });
        const raw = q(free, amountPaisa).feePaisa;
        // Exact: raw*10000 is within half a paisa of amount*bps, a tie rounded up (BigInt reference).
        const exact = BigInt(amountPaisa) * BigInt(bpsOf(pct));
        const diff = BigInt(raw) * 10_000n - exact;
        expect(diff > -5_000n && diff <= 5_000n).toBe(true);
        const fee = q(bounded, amountPaisa).feePaisa;
        expect(fee).toBeGreaterThanOrEqual(paisaOf(min));
        expect(fee).toBeLessThanOrEqual(paisaOf(max));
        expect(fee).toBe(Math.min(Math.max(raw, paisaOf(min)), paisaOf(max)));
      }),
    );
  });

  it("an operator's rule beats its category's, which beats the default", () => {
    fc.assert(
      fc.property(
        adjustment,
        adjustment,
        adjustment,
        category,
        opId,
        amount,
        (d, c, o, cat, op, amt) => {
          const s = schedule({
            default: { fee: d },
            categories: { [cat]: { fee: c, operators: { [String(op)]: { fee: o } } } },
          });
          const alone = (a: unknown) => q(schedule({ default: { fee: a } }), amt).feePaisa;
          expect(q(s, amt, cat, op).feePaisa).toBe(alone(o));
          expect(q(s, amt, cat, op + 100).feePaisa).toBe(alone(c));
          const other = CATEGORIES.find((x) => x !== cat)!;
          expect(q(s, amt, other, op).feePaisa).toBe(alone(d));
        },
      ),
    );
  });

  it("no float drift: flat rupee text is exact paisa, and many quotes sum exactly", () => {
    fc.assert(
      fc.property(
        rupeeText,
        rupeeText,
        fc.array(amount, { minLength: 1, maxLength: 50 }),
        (f, d, amounts) => {
          const s = schedule({ default: { fee: { flat: f }, discount: { flat: d } } });
          let total = 0;
          let expected = 0n;
          for (const a of amounts) {
            const r = q(s, a);
            expect(r.feePaisa).toBe(paisaOf(f));
            total += r.totalPaisa;
            const gross = BigInt(a) + BigInt(paisaOf(f));
            const disc = BigInt(paisaOf(d));
            expected += gross > disc ? gross - disc : 0n;
          }
          expect(BigInt(total)).toBe(expected);
        },
      ),
    );
  });
});
