import { bikramSambatAt, type Region } from "../catalog/index.ts";

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

/**
 * Where an order's clock runs, and the zone's name every shown time carries (issue 30): Nepal
 * orders in Nepal time, India orders in India time. Without the name an India order's 13:30 and a
 * Nepal order's 13:45 of the same instant read as two moments.
 */
const REGION_ZONE = {
  np: { timeZone: "Asia/Kathmandu", name: "NPT" },
  in: { timeZone: "Asia/Kolkata", name: "IST" },
} as const;
/**
 * Our locales as Intl knows them (en-GB: day before month, as in Nepal and India). Latin digits in
 * every language: money, references and numbers are written in them, and a message keeps to one
 * digit system (Intl's Nepali would print the date alone in Devanagari digits).
 */
const INTL_LOCALE: Record<string, string> = {
  en: "en-GB",
  ne: "ne-NP-u-nu-latn",
  hi: "hi-IN-u-nu-latn",
};

/** The Nepali months as the bills name them (bill-month-* in locales/ne.ftl), 1 = Baisakh. */
const BS_MONTHS_NE = [
  "बैशाख",
  "जेठ",
  "असार",
  "साउन",
  "भदौ",
  "असोज",
  "कात्तिक",
  "मंसिर",
  "पुस",
  "माघ",
  "फागुन",
  "चैत",
];

/** The Bikram Sambat date of `ms` on `timeZone`'s clocks, in Nepali ("वि.सं. 2083 मंसिर 6"). */
function bikramSambatText(ms: number, timeZone: string): string | undefined {
  const bs = bikramSambatAt(ms, timeZone);
  return bs && `वि.सं. ${bs.y} ${BS_MONTHS_NE[bs.m - 1]} ${bs.d}`;
}

/**
 * A moment in the reader's language and the region's time zone, named ("22 Nov 2026, 13:45 NPT"):
 * the one date format of every receipt, push, /status, /history and statement line. A 24-hour
 * clock (Hindi's 12-hour clock would print an English "pm"). In Nepali the Bikram Sambat date
 * stands beside the Gregorian one.
 */
export function formatOrderTime(ms: number, region: Region, locale: string): string {
  const zone = REGION_ZONE[region];
  const intl = INTL_LOCALE[locale] ?? "en-GB";
  const date = formatter(intl, {
    timeZone: zone.timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
  }).format(ms);
  const time = formatter(intl, {
    timeZone: zone.timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(ms);
  const bs = locale === "ne" ? bikramSambatText(ms, zone.timeZone) : undefined;
  return `${bs ? `${date} (${bs})` : date}, ${time} ${zone.name}`;
}
