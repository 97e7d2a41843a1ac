/**
 * Nepal Time, UTC+05:45 all year (no daylight saving): the merchant's day (spend limits, the
 * agent's "today", the top-up daily cap) and the zone of the aggregator's zone-less timestamps.
 * The offset is written here and nowhere else.
 */
export const NEPAL_UTC_OFFSET_MINUTES = 345;

const OFFSET_MS = NEPAL_UTC_OFFSET_MINUTES * 60_000;
const DAY_MS = 86_400_000;

/**
 * The day `nepalDay` last wrote out, as [from, to) in Nepal-shifted ms: `toISOString` costs about a
 * microsecond (a date's fields worked out from scratch), and every update of the bot draws the day
 * one to four times (the spend limits' bucket keys), nearly always the same day.
 */
let known = { from: 0, to: 0, day: "" };

/** The Nepal calendar day `ms` falls on, as "YYYY-MM-DD". */
export function nepalDay(ms: number): string {
  const t = ms + OFFSET_MS;
  if (t >= known.from && t < known.to) return known.day;
  // NaN or out of Date's range: throws here, as it always did (no day is kept for it).
  const day = new Date(t).toISOString().slice(0, 10);
  const from = Math.floor(t / DAY_MS) * DAY_MS;
  known = { from, to: from + DAY_MS, day };
  return day;
}

/** The instant (epoch ms) the Nepal day holding `ms` began. */
export const nepalDayStart = (ms: number): number =>
  Math.floor((ms + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;
