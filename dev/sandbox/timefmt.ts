/**
 * The two timestamp styles of the provider: status responses write Nepal local time as
 * "December 21,2024 9:03pm" (no zone), webhooks ISO 8601 UTC.
 */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** Nepal Time is UTC+05:45 all year. */
const NEPAL_OFFSET_MS = 345 * 60_000;

export function humanTimestamp(epochMs: number): string {
  const d = new Date(epochMs + NEPAL_OFFSET_MS);
  const hour = d.getUTCHours();
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  const minute = String(d.getUTCMinutes()).padStart(2, "0");
  const suffix = hour < 12 ? "am" : "pm";
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()},${d.getUTCFullYear()} ${hour12}:${minute}${suffix}`;
}

export function isoTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
