import type { Region } from "../catalog/index.ts";

/** Display formatting of times for chat messages (money is formatted by src/money.ts). */

/**
 * Building an Intl.DateTimeFormat costs far more than formatting with one (it showed as an eighth
 * of the notifier's CPU in the benchmark's profile): one per locale and zone, kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(
  locale: string,
  options: Intl.DateTimeFormatOptions & { timeZone: string },
): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

export function formatTime(ms: number, timeZone = "Asia/Kathmandu"): string {
  return formatter("en-GB", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(
    new Date(ms),
  );
}

/** Where an order's clock runs: Nepal orders in Nepal time, India orders in India time. */
const REGION_TIME_ZONE = { np: "Asia/Kathmandu", in: "Asia/Kolkata" } as const;
/** Our locales as Intl knows them (en-GB: day before month, as in Nepal and India). */
const INTL_LOCALE: Record<string, string> = { en: "en-GB", ne: "ne-NP", hi: "hi-IN" };

/**
 * When an order was placed, in the reader's language and the order's region's time zone, on a
 * 24-hour clock (Hindi's 12-hour clock would print an English "pm").
 */
export function formatOrderTime(ms: number, region: Region, locale: string): string {
  return formatter(INTL_LOCALE[locale] ?? "en-GB", {
    timeZone: REGION_TIME_ZONE[region],
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(ms));
}
