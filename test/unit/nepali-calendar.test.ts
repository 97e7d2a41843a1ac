import { describe, expect, it } from "vitest";
import { nepaliMonthAt } from "../../src/catalog/index.ts";

/** Today's Nepali month for the water bill: on Nepal's wall clock, from the calendar's tables. */
describe("nepaliMonthAt", () => {
  it("turns at the Nepali new year (Baisakh 1) on Nepal's date, not UTC's", () => {
    // BS 2081, 2082 and 2083 began on 13 April 2024, 14 April 2025 and 14 April 2026.
    expect(nepaliMonthAt(Date.parse("2024-04-12T12:00:00Z"))).toBe(12);
    expect(nepaliMonthAt(Date.parse("2024-04-13T06:00:00Z"))).toBe(1);
    expect(nepaliMonthAt(Date.parse("2025-04-14T06:00:00Z"))).toBe(1);
    // 23:59 UTC on 13 April 2026 is already 05:44 on the 14th in Kathmandu (UTC+05:45).
    expect(nepaliMonthAt(Date.parse("2026-04-13T18:00:00Z"))).toBe(12);
    expect(nepaliMonthAt(Date.parse("2026-04-13T18:15:00Z"))).toBe(1);
    expect(nepaliMonthAt(Date.parse("2026-04-13T18:15:00Z"), "UTC")).toBe(12);
  });

  it("names the month in the middle of the year (Mangsir 2083 began on 17 November 2026)", () => {
    expect(nepaliMonthAt(Date.parse("2026-11-16T12:00:00Z"))).toBe(7);
    expect(nepaliMonthAt(Date.parse("2026-11-22T12:00:00Z"))).toBe(8);
  });

  it("guesses nothing beyond the calendar's tables (BS 2090)", () => {
    expect(nepaliMonthAt(Date.parse("2040-01-01T00:00:00Z"))).toBeUndefined();
  });
});
