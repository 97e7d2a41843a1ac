import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  asciiDigits,
  CATEGORIES,
  createCatalog,
  detectNtcLine,
  detectOperator,
  normalizeIndiaNumber,
  normalizeNepalNumber,
  parseAmountToPaisa,
  prefixesFor,
  validateAccountId,
  validateAmount,
  validateIndiaMobile,
  validateIndiaNumber,
  validateLandline,
  validateMobileNumber,
  validateMonth,
  validateNepalPhone,
} from "../../src/catalog/index.ts";

const catalog = createCatalog();

/** The spec's category table (recharge-api.md section 1), transcribed independently of the catalogue. */
const SPEC_TABLE: Record<string, number[]> = {
  internet: [
    19, 20, 21, 22, 23, 24, 25, 26, 27, 30, 32, 47, 59, 60, 61, 63, 67, 70, 73, 74, 82, 83, 84, 85,
    94, 96, 98, 99, 115,
  ],
  dth: [36, 37, 38, 39, 40, 42, 43, 58, 100, 112, 41],
  mobile: [5, 6, 14],
  datapack: [2, 3, 4, 113, 114, 8, 9, 10],
  landline: [11, 17, 117],
};

const EXPECTED_FLOW = {
  internet: "internet_packages",
  dth: "dth_packages",
  mobile: "amount",
  datapack: "packages",
  landline: "amount",
} as const;

describe("operator catalogue", () => {
  it("holds every operator id of the spec's category table with its flow", () => {
    for (const [category, ids] of Object.entries(SPEC_TABLE)) {
      for (const id of ids) {
        const op = catalog.operator(id);
        expect(op, `operator ${id}`).toBeDefined();
        expect(op?.category).toBe(category);
        expect(op?.flow).toBe(EXPECTED_FLOW[category as keyof typeof EXPECTED_FLOW]);
        expect(op?.region).toBe("np");
        expect(op?.name.length).toBeGreaterThan(1);
      }
    }
  });

  it("has 29 internet operators and water operator 46 with operator type 7", () => {
    expect(catalog.byCategory("internet")).toHaveLength(29);
    const water = catalog.byCategory("water");
    expect(water.map((o) => [o.id, o.operatorTypeId, o.flow])).toEqual([[46, 7, "water_bill"]]);
  });

  it("uses the operator type ids of the request samples", () => {
    expect(catalog.operator(5)?.operatorTypeId).toBe(1);
    expect(catalog.operator(36)?.operatorTypeId).toBe(2);
    expect(catalog.operator(2)?.operatorTypeId).toBe(3);
    expect(catalog.operator(11)?.operatorTypeId).toBe(4);
    expect(catalog.operator(19)?.operatorTypeId).toBe(5);
  });

  it("makes the electricity and water operator ids configurable", () => {
    const c = createCatalog({ electricityOperatorId: 77, waterOperatorId: 90 });
    expect(c.operator(77)?.category).toBe("electricity");
    expect(c.operator(77)?.flow).toBe("electricity_bill");
    expect(c.operator(90)?.category).toBe("water");
    expect(c.operator(46)).toBeUndefined();
  });

  it("has operators for every category and unique ids", () => {
    for (const c of CATEGORIES) expect(catalog.byCategory(c).length, c).toBeGreaterThan(0);
    const ids = catalog.operators.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of catalog.byCategory("india")) {
      expect(o.region).toBe("in");
      expect(o.flow).toBe("circle");
    }
  });
});

describe("number normalisation", () => {
  it.each([
    ["9841234567", "9841234567"],
    ["984-123-4567", "9841234567"],
    ["984 123 4567", "9841234567"],
    ["+977 9841234567", "9841234567"],
    ["+977-984-1234567", "9841234567"],
    ["00977 9841234567", "9841234567"],
    ["9779841234567", "9841234567"],
    ["09841234567", "9841234567"],
    ["९८४१२३४५६७", "9841234567"],
    ["(984) 123.4567", "9841234567"],
  ])("normalises %s", (typed, expected) => {
    expect(normalizeNepalNumber(typed)).toBe(expected);
  });

  it("rejects letters", () => {
    expect(normalizeNepalNumber("98412abc67")).toBeNull();
  });

  it("normalises Indian numbers", () => {
    expect(normalizeIndiaNumber("+91 98765 43210")).toBe("9876543210");
    expect(normalizeIndiaNumber("919876543210")).toBe("9876543210");
    expect(normalizeIndiaNumber("09876543210")).toBe("9876543210");
  });

  it("converts Devanagari digits", () => {
    expect(asciiDigits("०१२३४५६७८९")).toBe("0123456789");
  });

  it("property: any 10-digit number survives separators, +977 and Devanagari digits", () => {
    const digit = fc.constantFrom(..."0123456789");
    fc.assert(
      fc.property(
        fc.constantFrom("984", "985", "986", "974", "975", "976", "980", "981", "982", "970"),
        fc.array(digit, { minLength: 7, maxLength: 7 }),
        fc.array(fc.constantFrom(" ", "-", ""), { minLength: 10, maxLength: 10 }),
        fc.constantFrom("", "+977", "+977 ", "00977", "0"),
        fc.boolean(),
        (prefix, rest, seps, countryPrefix, devanagari) => {
          const number = prefix + rest.join("");
          let typed = [...number].map((d, i) => d + (seps[i] ?? "")).join("");
          if (devanagari)
            typed = typed.replace(/\d/g, (d) => String.fromCharCode(0x0966 + Number(d)));
          expect(normalizeNepalNumber(countryPrefix + typed)).toBe(number);
        },
      ),
    );
  });
});

describe("mobile number rules (spec section 1 and 8)", () => {
  const prepaid = prefixesFor(catalog.operator(5)!)!;
  const postpaid = prefixesFor(catalog.operator(6)!)!;
  const cdma = prefixesFor(catalog.operator(14)!)!;
  const ncellData = prefixesFor(catalog.operator(2)!)!;
  const ntcData = prefixesFor(catalog.operator(8)!)!;

  it("gives the spec's prefixes per operator", () => {
    expect([...prepaid].sort()).toEqual(["9040", "976", "984", "986"]);
    expect([...postpaid]).toEqual(["985"]);
    expect([...cdma].sort()).toEqual(["974", "975"]);
    expect([...ncellData].sort()).toEqual(["970", "980", "981", "982"]);
    expect([...ntcData].sort()).toEqual(["9040", "974", "975", "976", "984", "985", "986"]);
  });

  it("accepts exactly 10 digits with an allowed prefix", () => {
    expect(validateMobileNumber("9841234567", prepaid)).toEqual({ ok: true, value: "9841234567" });
    expect(validateMobileNumber("9040123456", prepaid)).toEqual({ ok: true, value: "9040123456" });
    expect(validateMobileNumber("9851234567", postpaid).ok).toBe(true);
    expect(validateMobileNumber("9741234567", cdma).ok).toBe(true);
  });

  it("names the problem", () => {
    expect(validateMobileNumber("984123456", prepaid)).toEqual({
      ok: false,
      error: { code: "length", expected: 10, actual: 9 },
    });
    expect(validateMobileNumber("98412345678", prepaid)).toMatchObject({
      ok: false,
      error: { code: "length" },
    });
    expect(validateMobileNumber("9851234567", prepaid)).toMatchObject({
      ok: false,
      error: { code: "prefix" },
    });
    expect(validateMobileNumber("9801234567", ntcData)).toMatchObject({
      ok: false,
      error: { code: "prefix" },
    });
    expect(validateMobileNumber("9611234567", prepaid)).toMatchObject({
      ok: false,
      error: { code: "retired_operator" },
    });
    expect(validateMobileNumber("", prepaid)).toMatchObject({
      ok: false,
      error: { code: "empty" },
    });
    expect(validateMobileNumber("abc", prepaid)).toMatchObject({
      ok: false,
      error: { code: "not_digits" },
    });
  });

  it("says a number with another country's code is one, not 'digits only' (review s32-flows, 4)", () => {
    for (const typed of ["+91 98765 43210", "0091-98765-43210", "+919876543210"]) {
      expect(validateMobileNumber(typed, prepaid)).toMatchObject({
        error: { code: "india_number" },
      });
      expect(validateLandline(typed)).toMatchObject({ error: { code: "india_number" } });
      expect(validateNepalPhone(typed)).toMatchObject({ error: { code: "india_number" } });
    }
    expect(validateMobileNumber("+44 7700 900123", prepaid)).toMatchObject({
      error: { code: "foreign_number" },
    });
    // "00" may be a trunk 0 typed twice: only India's "0091" is read as a country.
    expect(validateMobileNumber("009841234567", prepaid)).toEqual({
      ok: true,
      value: "9841234567",
    });
    // Nepal's own code, with "+" or "00", is still taken off.
    expect(validateMobileNumber("+977 984-123 4567", prepaid)).toEqual({
      ok: true,
      value: "9841234567",
    });
    expect(validateMobileNumber("00977 9841234567", prepaid)).toEqual({
      ok: true,
      value: "9841234567",
    });
    expect(validateLandline("+977 14412345")).toMatchObject({ error: { code: "length" } });
  });

  it("detects the operator family and NTC line from the prefix", () => {
    expect(detectOperator("9801234567")).toBe("ncell");
    expect(detectOperator("9701234567")).toBe("ncell");
    expect(detectOperator("+977 984 123 4567")).toBe("ntc");
    expect(detectOperator("9040123456")).toBe("ntc");
    expect(detectOperator("9881234567")).toBe("retired");
    expect(detectOperator("9001234567")).toBeNull();
    expect(detectNtcLine("9851234567")).toBe("postpaid");
    expect(detectNtcLine("9751234567")).toBe("cdma");
    expect(detectNtcLine("9761234567")).toBe("prepaid");
    expect(detectNtcLine("9801234567")).toBeNull();
  });

  it("property: every valid prepaid number validates and every other length fails", () => {
    fc.assert(
      fc.property(fc.constantFrom(...prepaid), fc.stringMatching(/^\d{0,12}$/), (prefix, rest) => {
        const n = prefix + rest;
        const r = validateMobileNumber(n, prepaid);
        expect(r.ok).toBe(n.length === 10);
      }),
    );
  });
});

describe("India and landline numbers", () => {
  it("India needs exactly 10 digits", () => {
    expect(validateIndiaNumber("98765 43210")).toEqual({ ok: true, value: "9876543210" });
    expect(validateIndiaNumber("987654321")).toMatchObject({
      ok: false,
      error: { code: "length", expected: 10 },
    });
  });

  it("landline is 9 digits without a leading 0; a typed trunk 0 is dropped", () => {
    // The 0 counted as one of the nine: the error names the 0, not "8 digits".
    expect(validateLandline("014412345")).toMatchObject({
      ok: false,
      error: { code: "trunk_zero", expected: 9, actual: 8 },
    });
    expect(validateLandline("144123456")).toEqual({ ok: true, value: "144123456" });
    expect(validateLandline("0144123456")).toEqual({ ok: true, value: "144123456" });
    expect(validateLandline("14412345")).toMatchObject({
      ok: false,
      error: { code: "length", expected: 9, actual: 8 },
    });
    expect(validateLandline("1441234567")).toMatchObject({ ok: false, error: { code: "length" } });
  });

  it("property: landline accepts exactly the 9-digit strings not starting with 0", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{0,11}$/), (n) => {
        expect(validateLandline(n).ok).toBe(n.length === 9);
      }),
    );
  });

  it("a typed trunk 0 before a wrong length says to drop the 0 (issue 16)", () => {
    expect(validateLandline("014123456")).toEqual({
      ok: false,
      error: { code: "trunk_zero", expected: 9, actual: 8 },
    });
    expect(validateLandline("0-14 1234 56789")).toMatchObject({
      ok: false,
      error: { code: "trunk_zero", actual: 11 },
    });
    // Without a typed 0 the length error stays; international forms are not a trunk 0.
    expect(validateLandline("14123456")).toMatchObject({ error: { code: "length", actual: 8 } });
    expect(validateLandline("00977 14123456")).toMatchObject({ error: { code: "length" } });
    expect(validateLandline("+977 014123456")).toMatchObject({ error: { code: "length" } });
    // A short number starting with 0 is still "must not start with 0".
    expect(validateLandline("01234567")).toMatchObject({ error: { code: "leading_zero" } });
  });

  it("India mobile numbers start with 6, 7, 8 or 9 (issue 16); DTH ids do not have to", () => {
    expect(validateIndiaMobile("5123456789")).toEqual({
      ok: false,
      error: { code: "india_prefix" },
    });
    expect(validateIndiaMobile("+91 0123456789")).toMatchObject({
      error: { code: "india_prefix" },
    });
    for (const first of ["6", "7", "8", "9"]) {
      expect(validateIndiaMobile(`${first}123456789`)).toEqual({
        ok: true,
        value: `${first}123456789`,
      });
    }
    expect(validateIndiaMobile("98765")).toMatchObject({ error: { code: "length" } });
    expect(validateIndiaNumber("1234560000")).toEqual({ ok: true, value: "1234560000" });
  });

  it("property: an India mobile is exactly 10 digits with a first digit from 6 to 9", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{0,11}$/), (n) => {
        expect(validateIndiaMobile(n).ok).toBe(n.length === 10 && /^[6-9]/.test(n));
      }),
    );
  });
});

describe("Nepali phone (electricity contact): the rule the messages state", () => {
  it("a mobile is 10 digits starting with 9; a landline 7 to 9 digits not starting with 9", () => {
    expect(validateNepalPhone("+977 984-123-4567")).toEqual({ ok: true, value: "9841234567" });
    expect(validateNepalPhone("01-4123456")).toEqual({ ok: true, value: "14123456" });
    expect(validateNepalPhone("4123456")).toEqual({ ok: true, value: "4123456" });
    expect(validateNepalPhone("141234567")).toEqual({ ok: true, value: "141234567" });
    expect(validateNepalPhone("98412345")).toEqual({
      ok: false,
      error: { code: "phone_mobile_length", actual: 8 },
    });
    expect(validateNepalPhone("12345")).toEqual({
      ok: false,
      error: { code: "phone_landline_length", actual: 5 },
    });
    expect(validateNepalPhone("1412345678")).toMatchObject({
      error: { code: "phone_landline_length", actual: 10 },
    });
    expect(validateNepalPhone("phone")).toEqual({ ok: false, error: { code: "not_digits" } });
    expect(validateNepalPhone("000")).toEqual({ ok: false, error: { code: "not_digits" } });
    expect(validateNepalPhone(" ")).toEqual({ ok: false, error: { code: "empty" } });
  });

  it("property: accepted exactly when the message's rule says so", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{0,11}$/), (n) => {
        const mobile = n.length === 10 && n.startsWith("9");
        const landline = n.length >= 7 && n.length <= 9 && !n.startsWith("9");
        expect(validateNepalPhone(n).ok).toBe(mobile || landline);
      }),
    );
  });
});

describe("amounts and months (spec section 8)", () => {
  const mobile = catalog.amountBounds(catalog.operator(5)!)!;
  const landline = catalog.amountBounds(catalog.operator(11)!)!;
  const india = catalog.amountBounds(catalog.byCategory("india")[0]!)!;

  it("NTC mobile is 50..3000 by default and configurable to 5000", () => {
    expect(mobile).toEqual({ minPaisa: 5000, maxPaisa: 300000 });
    expect(validateAmount("49", mobile)).toMatchObject({
      ok: false,
      error: { code: "amount_below", minPaisa: 5000 },
    });
    expect(validateAmount("50", mobile)).toEqual({ ok: true, value: 5000 });
    expect(validateAmount("3000", mobile)).toEqual({ ok: true, value: 300000 });
    expect(validateAmount("3001", mobile)).toMatchObject({
      ok: false,
      error: { code: "amount_above" },
    });
    const wide = createCatalog({ ntcMobileMaxAmount: 5000 });
    expect(wide.amountBounds(wide.operator(5)!)).toEqual({ minPaisa: 5000, maxPaisa: 500000 });
  });

  it("an amount typed with the other country's sign is refused, never read as this one's", () => {
    const refused = (typed: "np" | "in") => ({
      ok: false,
      error: { code: "amount_currency", typed },
    });
    expect(validateAmount("Rs 500", india, "in")).toEqual(refused("np"));
    expect(validateAmount("रु 500", india, "in")).toEqual(refused("np"));
    expect(validateAmount("NPR 500", india, "in")).toEqual(refused("np"));
    expect(validateAmount("₹500", india, "in")).toEqual({ ok: true, value: 50_000 });
    expect(validateAmount("500", india, "in")).toEqual({ ok: true, value: 50_000 });
    expect(validateAmount("₹500", mobile, "np")).toEqual(refused("in"));
    expect(validateAmount("INR 500", mobile, "np")).toEqual(refused("in"));
    expect(validateAmount("Rs. 500", mobile, "np")).toEqual({ ok: true, value: 50_000 });
    // Without a region (the dashboard) the sign is dropped as before; a bill's advance passes "np".
    expect(validateAmount("₹500", mobile)).toEqual({ ok: true, value: 50_000 });
  });

  it("landline and India are 50..5000", () => {
    for (const b of [landline, india]) {
      expect(b).toEqual({ minPaisa: 5000, maxPaisa: 500000 });
      expect(validateAmount("5000", b).ok).toBe(true);
      expect(validateAmount("5000.01", b).ok).toBe(false);
    }
  });

  it("amounts come from packages or bills elsewhere", () => {
    expect(catalog.amountBounds(catalog.operator(36)!)).toBeUndefined();
    expect(catalog.amountBounds(catalog.operator(46)!)).toBeUndefined();
  });

  it.each([
    ["500", 50000],
    ["Rs. 1,000", 100000],
    ["rs 100", 10000],
    ["रु ५००", 50000],
    ["533.44", 53344],
    ["533.4", 53340],
    ["₹ 199", 19900],
    ["100/-", 10000],
  ])("parses %s", (typed, paisa) => {
    expect(parseAmountToPaisa(typed)).toEqual({ ok: true, value: paisa });
  });

  it.each(["", "abc", "1.234", "-50", "1e3", "12 34 5x"])("rejects %s", (typed) => {
    expect(parseAmountToPaisa(typed).ok).toBe(false);
  });

  it.each([
    ["1,00,000", 10_000_000],
    ["12,34,567", 123_456_700],
    ["1,000", 100_000],
    ["10,000", 1_000_000],
    ["1,000,000.50", 100_000_050],
    ["रु १,००,०००", 10_000_000],
  ])("accepts the grouping of %s", (typed, paisa) => {
    expect(parseAmountToPaisa(typed)).toEqual({ ok: true, value: paisa });
  });

  // Before, every comma was dropped: "20,00" was read as Rs 2000, ten times what was likely meant.
  it.each(["20,00", "1,,000", ",100", "100,", "1,000,00", "10,00,00", "1,0000", "5.0,0"])(
    "refuses the misplaced comma in %s with its own reason",
    (typed) => {
      expect(parseAmountToPaisa(typed)).toEqual({ ok: false, error: { code: "amount_grouping" } });
    },
  );

  it("property: rupees with up to two decimals round-trip to paisa exactly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 99 }),
        (r, p) => {
          const typed = `${r}.${String(p).padStart(2, "0")}`;
          expect(parseAmountToPaisa(typed)).toEqual({ ok: true, value: r * 100 + p });
        },
      ),
    );
  });

  it("month is 1..12", () => {
    expect(validateMonth("1")).toEqual({ ok: true, value: 1 });
    expect(validateMonth(12)).toEqual({ ok: true, value: 12 });
    expect(validateMonth("१२")).toEqual({ ok: true, value: 12 });
    for (const bad of ["0", "13", "", "x", "1.5"]) expect(validateMonth(bad).ok).toBe(false);
  });

  it("account ids are bounded and printable", () => {
    expect(validateAccountId(" user@isp ")).toEqual({ ok: true, value: "user@isp" });
    expect(validateAccountId("")).toMatchObject({ ok: false, error: { code: "empty" } });
    expect(validateAccountId("x".repeat(41))).toMatchObject({
      ok: false,
      error: { code: "too_long" },
    });
    expect(validateAccountId("a b")).toMatchObject({ ok: false });
  });
});
