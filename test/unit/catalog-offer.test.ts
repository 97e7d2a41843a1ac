import { describe, expect, it } from "vitest";
import {
  buildOperators,
  createCatalog,
  offeredOperators,
  type ProviderListing,
  unknownListed,
} from "../../src/catalog/index.ts";
import { loadConfig } from "../../src/config/index.ts";
import { parseWebhookPayload } from "../../src/webhook/payload.ts";

/** The catalogue's offer: the rules cut down to the provider's listing (src/catalog/offer.ts). */

const rules = buildOperators();
const ids = (ops: { id: number }[]) => ops.map((o) => o.id);
const listed = (...values: number[]) => values.map((v) => ({ value: String(v), label: `op ${v}` }));
const allNp = listed(...rules.filter((o) => o.region === "np").map((o) => o.id));
const allIn = listed(...rules.filter((o) => o.region === "in").map((o) => o.id));
const types = (...values: number[]) =>
  values.map((v) => ({ value: String(v), label: `type ${v}` }));

function listing(regions: ProviderListing["regions"]): ProviderListing {
  return { fetchedAtMs: 1, regions };
}

describe("offeredOperators (the intersection)", () => {
  it("offers every rule when nothing was ever listed", () => {
    expect(offeredOperators(rules, null)).toEqual(rules);
  });

  it("drops an operator its region's listing leaves out, and no other", () => {
    const withoutSimTv = allNp.filter((o) => o.value !== "37");
    const offered = offeredOperators(
      rules,
      listing({ np: { operators: withoutSimTv, operatorTypes: null } }),
    );
    expect(ids(offered)).not.toContain(37);
    expect(offered).toHaveLength(rules.length - 1);
  });

  it("leaves a region the provider did not list to the rules alone", () => {
    const offered = offeredOperators(
      rules,
      listing({ np: { operators: listed(5), operatorTypes: null } }),
    );
    // Nepal: only NTC Prepaid; India: every rule, untouched.
    expect(ids(offered.filter((o) => o.region === "np"))).toEqual([5]);
    expect(offered.filter((o) => o.region === "in")).toHaveLength(allIn.length);
  });

  it("drops the operators of an operator type the provider does not list", () => {
    // Type 8 (electricity, an assumption) not listed: NEA goes, water (7) stays.
    const offered = offeredOperators(
      rules,
      listing({ np: { operators: allNp, operatorTypes: types(1, 2, 3, 4, 5, 7) } }),
    );
    expect(offered.some((o) => o.category === "electricity")).toBe(false);
    expect(offered.some((o) => o.category === "water")).toBe(true);
  });

  it("matches by id within the region: an India id listed under Nepal offers nothing", () => {
    const offered = offeredOperators(
      rules,
      listing({
        np: { operators: listed(5, 221), operatorTypes: null },
        in: { operators: listed(202), operatorTypes: null },
      }),
    );
    expect(ids(offered)).toEqual([5, 202]);
  });

  it("names what the provider lists that no rule knows", () => {
    const l = listing({
      np: { operators: [...listed(5), { value: "999", label: "New ISP" }], operatorTypes: null },
      in: { operators: [{ value: "7", label: "Jio" }], operatorTypes: null },
    });
    expect(unknownListed(rules, l)).toEqual([
      { region: "np", value: "999", label: "New ISP" },
      { region: "in", value: "7", label: "Jio" },
    ]);
  });
});

describe("createCatalog with a listing", () => {
  it("offers the intersection in byCategory, isOffered and offersCategory; operator() keeps every rule", () => {
    const catalog = createCatalog();
    expect(catalog.offersCategory("landline")).toBe(true);
    catalog.setListing(
      listing({
        np: {
          operators: allNp.filter((o) => !["11", "17", "117"].includes(o.value)),
          operatorTypes: null,
        },
      }),
    );
    expect(catalog.byCategory("landline")).toEqual([]);
    expect(catalog.offersCategory("landline")).toBe(false);
    expect(catalog.isOffered(11)).toBe(false);
    expect(catalog.isOffered(5)).toBe(true);
    // An order or a flow naming a withdrawn operator still finds its rule.
    expect(catalog.operator(11)?.name).toBe("NTC Landline");
    expect(catalog.listing()?.fetchedAtMs).toBe(1);
    // Listed again: offered again, without a release.
    catalog.setListing(listing({ np: { operators: allNp, operatorTypes: null } }));
    expect(ids(catalog.byCategory("landline"))).toEqual([11, 17, 117]);
    catalog.setListing(null);
    expect(catalog.byCategory("india")).toHaveLength(allIn.length);
  });

  it("takes India ids, the electricity type and the advance bounds from settings", () => {
    const catalog = createCatalog({
      indiaOperatorIds: { "jio-prepaid": 301, "tata-play": 330 },
      electricityOperatorTypeId: 12,
      indiaMobileOperatorTypeId: 21,
      indiaDthOperatorTypeId: 22,
      advanceMinRupees: 10,
      advanceMaxRupees: 5000,
    });
    expect(catalog.operator(301)?.name).toBe("Jio Prepaid");
    expect(catalog.operator(201)).toBeUndefined();
    expect(catalog.operator(330)?.india).toBe("dth");
    expect(catalog.operator(202)?.name).toBe("Airtel Prepaid");
    expect(catalog.byCategory("electricity")[0]?.operatorTypeId).toBe(12);
    expect(catalog.operator(301)?.operatorTypeId).toBe(21);
    expect(catalog.operator(330)?.operatorTypeId).toBe(22);
    expect(catalog.advanceBounds()).toEqual({ minPaisa: 1000, maxPaisa: 500_000 });
    // Defaults: Rs 1 to Rs 1,00,000, type 8.
    const plain = createCatalog();
    expect(plain.advanceBounds()).toEqual({ minPaisa: 100, maxPaisa: 10_000_000 });
    expect(plain.byCategory("electricity")[0]?.operatorTypeId).toBe(8);
  });

  it("refuses two operators under one id", () => {
    expect(() => createCatalog({ indiaOperatorIds: { "jio-prepaid": 5 } })).toThrow(
      /operator id 5 is used twice/,
    );
  });
});

describe("catalogue settings", () => {
  it("has documented defaults", () => {
    const c = loadConfig({});
    expect(c.catalogRefreshMs).toBe(300_000);
    expect(c.provider.utcOffsetMinutes).toBe(345);
    expect(c.provider.paths).toMatchObject({
      indiaOperators: "/in/operators",
      indiaOperatorTypes: "/in/operator-types",
    });
    expect(c.catalog).toMatchObject({
      electricityOperatorTypeId: 8,
      indiaOperatorIds: {},
      indiaMobileOperatorTypeId: 1,
      indiaDthOperatorTypeId: 2,
      advanceMinRupees: 1,
      advanceMaxRupees: 100_000,
    });
  });

  it("reads INDIA_OPERATOR_IDS, the advance bounds, the refresh and the provider's offset", () => {
    const c = loadConfig({
      INDIA_OPERATOR_IDS: "jio-prepaid=301, tata-play = 330",
      BILL_ADVANCE_MIN: "10",
      BILL_ADVANCE_MAX: "50000",
      CATALOG_REFRESH_MS: "0",
      PROVIDER_UTC_OFFSET_MINUTES: "330",
      ELECTRICITY_OPERATOR_TYPE_ID: "9",
      INDIA_MOBILE_OPERATOR_TYPE_ID: "11",
      INDIA_DTH_OPERATOR_TYPE_ID: "12",
    });
    expect(c.catalog).toMatchObject({ indiaMobileOperatorTypeId: 11, indiaDthOperatorTypeId: 12 });
    expect(c.catalog.indiaOperatorIds).toEqual({ "jio-prepaid": 301, "tata-play": 330 });
    expect(c.catalog).toMatchObject({ advanceMinRupees: 10, advanceMaxRupees: 50_000 });
    expect(c.catalog.electricityOperatorTypeId).toBe(9);
    expect(c.catalogRefreshMs).toBe(0);
    expect(c.provider.utcOffsetMinutes).toBe(330);
  });

  it("refuses bad values with the variable's name", () => {
    expect(() => loadConfig({ INDIA_OPERATOR_IDS: "jio=301" })).toThrow(/INDIA_OPERATOR_IDS/);
    expect(() => loadConfig({ INDIA_OPERATOR_IDS: "jio-prepaid=x" })).toThrow(/INDIA_OPERATOR_IDS/);
    // An India id equal to a Nepal operator's.
    expect(() => loadConfig({ INDIA_OPERATOR_IDS: "tata-play=36" })).toThrow(
      /INDIA_OPERATOR_IDS.*used twice/,
    );
    expect(() => loadConfig({ BILL_ADVANCE_MIN: "500", BILL_ADVANCE_MAX: "100" })).toThrow(
      /BILL_ADVANCE_MAX/,
    );
    expect(() => loadConfig({ CATALOG_REFRESH_MS: "50" })).toThrow(/CATALOG_REFRESH_MS/);
    expect(() => loadConfig({ PROVIDER_UTC_OFFSET_MINUTES: "2000" })).toThrow(
      /PROVIDER_UTC_OFFSET_MINUTES/,
    );
  });
});

describe("the provider's time zone (PROVIDER_UTC_OFFSET_MINUTES)", () => {
  it("reads a webhook's zone-less timestamp in the configured offset, Nepal Time by default", () => {
    const plain = JSON.stringify({
      status: "success",
      order_id: "1001",
      timestamp: "December 21,2024 9:03pm",
    });
    expect(parseWebhookPayload(plain)?.timestampMs).toBe(Date.UTC(2024, 11, 21, 15, 18));
    // India Standard Time, +05:30.
    expect(parseWebhookPayload(plain, 330)?.timestampMs).toBe(Date.UTC(2024, 11, 21, 15, 33));
    // An ISO time carries its own zone: the setting changes nothing.
    const iso = JSON.stringify({
      status: "success",
      order_id: "1001",
      timestamp: "2024-12-21T15:18:30Z",
    });
    expect(parseWebhookPayload(iso, 330)?.timestampMs).toBe(Date.UTC(2024, 11, 21, 15, 18, 30));
  });
});
