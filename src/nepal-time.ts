/**
 * Nepal Time, UTC+05:45 all year (no daylight saving): the merchant's day (spend limits, the
 * agent's "today", the top-up daily cap) and the zone of the aggregator's zone-less timestamps.
 * The offset is written here and nowhere else.
 */
export const NEPAL_UTC_OFFSET_MINUTES = 345;

const OFFSET_MS = NEPAL_UTC_OFFSET_MINUTES * 60_000;
const DAY_MS = 86_400_000;

/** The Nepal calendar day `ms` falls on, as "YYYY-MM-DD". */
export const nepalDay = (ms: number): string => new Date(ms + OFFSET_MS).toISOString().slice(0, 10);

/** The instant (epoch ms) the Nepal day holding `ms` began. */
export const nepalDayStart = (ms: number): number =>
  Math.floor((ms + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;
