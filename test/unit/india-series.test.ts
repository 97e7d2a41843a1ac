import { describe, expect, it } from "vitest";
import { CIRCLES } from "../../dev/sandbox/data.ts";
import { INDIA_OPERATORS } from "../../src/catalog/index.ts";
import { circleKey, INDIA_SERIES, seriesOf } from "../../src/categories/india/series.ts";

/** The India number series table: a suggestion of operator and circle from a number's first digits. */
describe("India mobile number series", () => {
  it("names the operator family and circle of a known series", () => {
    expect(seriesOf("9810012345")).toEqual({ brand: "airtel", circle: "Delhi NCR" });
    expect(seriesOf("9811012345")).toEqual({ brand: "vi", circle: "Delhi NCR" });
    expect(seriesOf("9415012345")).toEqual({ brand: "bsnl", circle: "UP East" });
  });

  it("knows nothing of a number in no series, or of what is not a mobile number", () => {
    expect(seriesOf("9876543210")).toBeNull();
    expect(seriesOf("6123456789")).toBeNull();
    expect(seriesOf("5810012345")).toBeNull();
    expect(seriesOf("981001234")).toBeNull();
    expect(seriesOf("98100123456")).toBeNull();
  });

  it("a five-digit block wins over its four-digit series", () => {
    const table = { "9810": ["airtel", "Delhi NCR"], "98105": ["vi", "Haryana"] } as const;
    expect(seriesOf("9810512345", table)).toEqual({ brand: "vi", circle: "Haryana" });
    expect(seriesOf("9810412345", table)).toEqual({ brand: "airtel", circle: "Delhi NCR" });
  });

  it("every entry names a circle of the circle listing and an operator the catalogue sells", () => {
    const listed = new Set(CIRCLES.map((c) => circleKey(c.name)));
    for (const [prefix, [brand, circle]] of Object.entries(INDIA_SERIES)) {
      expect(prefix).toMatch(/^[6-9]\d{3,4}$/);
      expect(listed.has(circleKey(circle)), `${prefix}: ${circle}`).toBe(true);
      expect(Object.keys(INDIA_OPERATORS)).toContain(`${brand}-prepaid`);
    }
  });

  it("matches circle names whatever the case, spacing or 'and'", () => {
    expect(circleKey("Delhi NCR")).toBe(circleKey("delhi  ncr"));
    expect(circleKey("Jammu & Kashmir")).toBe(circleKey("Jammu and Kashmir"));
    expect(circleKey("UP East")).not.toBe(circleKey("UP West"));
  });
});
