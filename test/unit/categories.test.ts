import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "../../src/catalog/index.ts";
import { CATEGORY_MODULES, orderPartsOf } from "../../src/categories/index.ts";
import { toExecuteRequest } from "../../src/orders/execute-request.ts";
import { type Order, orderSchema } from "../../src/orders/model.ts";
import { orderPartsOf as byId } from "../../src/orders/parts.ts";
import type { OrderOf } from "../support/category-types.ts";

/**
 * The category registry against the catalogue, and each module's details schema against the
 * details its flow writes (every variant the flow can produce). The e2e tests run each flow through
 * `orders.place`, which parses with these same strict schemas.
 */

const ids = (list: readonly { id: string }[]) => list.map((m) => m.id);

/** What each flow puts in `details` (see src/categories/<id>/flow.ts), every variant of it. */
const FLOW_DETAILS: { [C in Category]: OrderOf<C>["details"][] } = {
  mobile: [{}],
  landline: [{}],
  datapack: [{ packageId: "PROD_001_inv", packageName: "Namaste 100 minutes / 7 days" }],
  internet: [{ packageId: "12", packageName: "100 Mbps / 1 month" }],
  dth: [{ packageId: "DTH100_BASIC_1M", packageName: "Basic 1 month" }],
  india: [
    // A typed amount, a plan without an id, a plan with one.
    { circleId: "5" },
    { circleId: "5", packageName: "28 days · 1.5 GB/day" },
    { circleId: "5", packageName: "28 days · 1.5 GB/day", packageId: "PLAN-239" },
  ],
  water: [
    { officeCode: "501", monthId: 7, customerName: "Ram Sharma", billAmountPaisa: 123_450 },
    // Nothing due, no name on the bill: an advance.
    { officeCode: "507", monthId: 12, billAmountPaisa: 0 },
  ],
  electricity: [
    {
      officeCode: "273",
      scNo: "012.01.001A",
      phone: "9841234567",
      customerName: "Sita Thapa",
      billAmountPaisa: 45_000,
    },
    { officeCode: "273", scNo: "55", phone: "014412345", billAmountPaisa: 0 },
  ],
};

const PARTS = byId(orderPartsOf(CATEGORY_MODULES));

/** An order as `place` makes it: its details checked by its category's part, then the order schema. */
function orderOf(category: string, details: object): Order {
  const part = PARTS.get(category);
  if (!part) throw new Error(`no part for ${category}`);
  return orderSchema.parse({
    reference: "1700000000001",
    idempotencyKey: "k1",
    userId: 42,
    chatId: 42,
    locale: "en",
    category,
    region: category === "india" ? "in" : "np",
    operatorId: 5,
    operatorTypeId: 1,
    operatorName: "Operator",
    connectionNo: "9841234567",
    amountPaisa: 10_000,
    details: part.details.parse(details),
    status: "placed",
    history: [{ source: "system", status: "placed", at: 1 }],
    createdAt: 1,
    updatedAt: 1,
    version: 0,
  });
}

describe("category registry", () => {
  it("has one module per category of the catalogue, each once", () => {
    expect([...ids(CATEGORY_MODULES)].sort()).toEqual([...CATEGORIES].sort());
    expect(new Set(ids(CATEGORY_MODULES)).size).toBe(CATEGORY_MODULES.length);
  });

  it("lists the same order side as each module carries, for every category", () => {
    const parts = orderPartsOf(CATEGORY_MODULES);
    expect([...ids(parts)].sort()).toEqual([...CATEGORIES].sort());
    for (const m of CATEGORY_MODULES) {
      expect(parts.find((p) => p.id === m.id)?.details, m.id).toBe(m.details);
    }
  });

  it("gives every module its own menu label", () => {
    const labels = CATEGORY_MODULES.map((m) => m.menu.labelKey);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe("category details schemas", () => {
  for (const m of CATEGORY_MODULES) {
    const samples: object[] = FLOW_DETAILS[m.id as Category];

    it(`${m.id}: round-trips what its flow writes, alone and as a stored order`, () => {
      for (const details of samples) {
        expect(m.details.parse(details)).toEqual(details);
        // As the Redis store keeps it: JSON, parsed back with the order schema.
        const order = orderOf(m.id, details);
        expect(order.details).toEqual(details);
        expect(orderSchema.parse(JSON.parse(JSON.stringify(order)))).toEqual(order);
        // And the category's execute request can be built from it.
        expect(toExecuteRequest(order, PARTS).category).toBe(m.id);
      }
    });

    it(`${m.id}: refuses a key its flow does not write`, () => {
      const details = samples[0]!;
      expect(m.details.safeParse({ ...details, stray: "x" }).success).toBe(false);
      expect(() => orderOf(m.id, { ...details, stray: "x" })).toThrow();
    });
  }

  it("requires what the execute request and the repeat need (no field left to guess)", () => {
    expect(() => orderOf("water", { officeCode: "501" })).toThrow();
    expect(() => orderOf("electricity", { officeCode: "273", scNo: "55" })).toThrow();
    expect(() => orderOf("india", {})).toThrow();
    for (const category of ["datapack", "internet", "dth"] as const) {
      expect(() => orderOf(category, { packageId: "P1" }), category).toThrow();
    }
  });
});
