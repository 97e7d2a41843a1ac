/**
 * The provider's timestamps: status responses write "December 21,2024 9:03pm" (no zone), webhooks
 * ISO 8601 UTC. Zone-less times are read in the provider's local offset; the provider is a Nepal
 * service, so the default is Nepal Time (UTC+05:45). Inference, hence configurable.
 */
import { NEPAL_UTC_OFFSET_MINUTES } from "../nepal-time.ts";

export { NEPAL_UTC_OFFSET_MINUTES };

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** "December 21,2024 9:03pm", tolerating "Dec", "21, 2024", seconds, "PM", "p.m.". */
const HUMAN =
  /^([A-Za-z]+)\.?\s*(\d{1,2})\s*,?\s*(\d{4})\s*,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])\.?\s*m\.?$/i;
/** ISO 8601 date-time (or MySQL-style "2024-12-21 21:03:00"), optional fraction and zone. */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Epoch ms from wall-clock fields read at the given UTC offset, or null when a field is out of range. */
function fromFields(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
  offsetMinutes: number,
): number | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
}

function parseHuman(m: RegExpExecArray, offsetMinutes: number): number | null {
  const name = (m[1] ?? "").toLowerCase();
  if (name.length < 3) return null;
  const monthIndex = MONTHS.findIndex((full) => full.startsWith(name));
  if (monthIndex < 0) return null;
  const hour12 = Number(m[4]);
  if (hour12 < 1 || hour12 > 12) return null;
  const pm = (m[7] ?? "").toLowerCase() === "p";
  const hour = (hour12 % 12) + (pm ? 12 : 0);
  return fromFields(
    Number(m[3]),
    monthIndex + 1,
    Number(m[2]),
    hour,
    Number(m[5]),
    Number(m[6] ?? 0),
    0,
    offsetMinutes,
  );
}

function parseIso(m: RegExpExecArray, offsetMinutes: number): number | null {
  const zone = m[8];
  let offset = offsetMinutes;
  if (zone !== undefined) {
    if (zone.toUpperCase() === "Z") offset = 0;
    else {
      const digits = zone.replace(":", "");
      const sign = digits.startsWith("-") ? -1 : 1;
      const hh = Number(digits.slice(1, 3));
      const mm = Number(digits.slice(3, 5));
      if (hh > 23 || mm > 59) return null;
      offset = sign * (hh * 60 + mm);
    }
  }
  const fraction = (m[7] ?? "").padEnd(3, "0").slice(0, 3);
  return fromFields(
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
    Number(fraction),
    offset,
  );
}

/**
 * Epoch milliseconds from a provider timestamp, or null when it cannot be read. Numbers are taken as
 * Unix time (seconds, or milliseconds when they are that large).
 */
export function parseProviderTimestamp(
  value: unknown,
  utcOffsetMinutes: number = NEPAL_UTC_OFFSET_MINUTES,
): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0) return null;
    return Math.round(value >= 1e12 ? value : value * 1000);
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (/^\d{9,13}$/.test(text)) return parseProviderTimestamp(Number(text), utcOffsetMinutes);
  const human = HUMAN.exec(text);
  if (human) return parseHuman(human, utcOffsetMinutes);
  const iso = ISO.exec(text);
  if (iso) return parseIso(iso, utcOffsetMinutes);
  return null;
}
