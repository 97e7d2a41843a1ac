import NepaliDateModule from "nepali-date-converter";

/**
 * Today's Nepali (Bikram Sambat) month, for the water bill's `month_id` (1 = Baisakh). The
 * converter's month tables are the calendar committee's, which no formula reproduces; it covers
 * BS 2000-2090 (AD 1943-2034), and outside that nothing is guessed: the caller asks instead.
 */

// The package ships CommonJS (UMD) with an ES default export: Node's ESM import hands over the
// exports object (the class is its `default`), a bundler's interop the class itself.
type NepaliDateClass = typeof NepaliDateModule.default;
const NepaliDate: NepaliDateClass =
  typeof NepaliDateModule === "function"
    ? (NepaliDateModule as unknown as NepaliDateClass)
    : NepaliDateModule.default;

const dayParts = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (year, month 1-12, day) at `ms` on the wall clocks of `timeZone`. */
function civilDay(ms: number, timeZone: string): { y: number; m: number; d: number } {
  let f = dayParts.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
    });
    dayParts.set(timeZone, f);
  }
  const part = (type: string) => Number(f.formatToParts(ms).find((p) => p.type === type)?.value);
  return { y: part("year"), m: part("month"), d: part("day") };
}

/** The Nepali month (1-12) of the day `ms` falls on in `timeZone`, or undefined out of range. */
export function nepaliMonthAt(ms: number, timeZone = "Asia/Kathmandu"): number | undefined {
  const { y, m, d } = civilDay(ms, timeZone);
  try {
    // The converter reads a Date's local fields: a local midnight of that civil day is that day
    // whatever the process's own time zone.
    return new NepaliDate(new Date(y, m - 1, d)).getMonth() + 1;
  } catch {
    return undefined;
  }
}

/**
 * The Bikram Sambat date (year, month 1-12, day) of the day `ms` falls on in `timeZone`, for the
 * dates receipts show in Nepali beside the Gregorian one; undefined out of the converter's range.
 */
export function bikramSambatAt(
  ms: number,
  timeZone = "Asia/Kathmandu",
): { y: number; m: number; d: number } | undefined {
  const { y, m, d } = civilDay(ms, timeZone);
  try {
    const bs = new NepaliDate(new Date(y, m - 1, d));
    return { y: bs.getYear(), m: bs.getMonth() + 1, d: bs.getDate() };
  } catch {
    return undefined;
  }
}
