import { describe, expect, it } from "vitest";
import { nepalDay } from "../../src/nepal-time.ts";

/** What nepalDay always answered: the UTC date of the instant shifted by Nepal's +05:45. */
/** Nepal's offset in ms: the instant whose Nepal day is 1970-01-01 from its first ms. */
const OFFSET_EDGE = 345 * 60_000;
const reference = (ms: number) => new Date(ms + 345 * 60_000).toISOString().slice(0, 10);

describe("nepalDay (the day it last wrote out is kept)", () => {
  it("names the Nepal day at and around midnight, in either direction", () => {
    // Nepal midnight of 22 Nov 2026 is 18:15 UTC on the 21st.
    const midnight = Date.UTC(2026, 10, 21, 18, 15);
    expect(nepalDay(midnight - 1)).toBe("2026-11-21");
    expect(nepalDay(midnight)).toBe("2026-11-22");
    expect(nepalDay(midnight - 1)).toBe("2026-11-21");
    expect(nepalDay(midnight + 86_400_000 - 1)).toBe("2026-11-22");
    expect(nepalDay(midnight + 86_400_000)).toBe("2026-11-23");
    expect(nepalDay(midnight)).toBe("2026-11-22");
  });

  it("answers as toISOString does for any instant, in any order (leap days, years, before 1970)", () => {
    let seed = 31;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const picks: number[] = [
      Date.UTC(2028, 1, 28, 18, 14, 59, 999),
      Date.UTC(2028, 1, 28, 18, 15),
      Date.UTC(2100, 1, 28, 18, 15),
      Date.UTC(1969, 11, 31, 18, 14, 59, 999),
      Date.UTC(1969, 11, 31, 18, 15),
      -OFFSET_EDGE,
      0,
      8.64e15 - 345 * 60_000,
    ];
    for (let i = 0; i < 20_000; i++) {
      const base = Date.UTC(1960 + Math.floor(next() * 160), 0, 1);
      // Runs of nearby instants (the cache's case) and far jumps.
      picks.push(base + Math.floor(next() * 366 * 86_400_000));
      if (i % 3 === 0) picks.push((picks.at(-1) ?? 0) + Math.floor((next() - 0.5) * 7_200_000));
    }
    for (const ms of picks) expect(nepalDay(ms)).toBe(reference(ms));
  });

  it("still throws for an instant Date cannot hold, and keeps no day for it", () => {
    const ms = Date.UTC(2026, 10, 22, 6);
    expect(nepalDay(ms)).toBe("2026-11-22");
    expect(() => nepalDay(Number.NaN)).toThrow(RangeError);
    expect(() => nepalDay(8.64e15)).toThrow(RangeError);
    expect(nepalDay(ms)).toBe("2026-11-22");
  });
});
