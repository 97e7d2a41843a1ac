import type { AuditEntry } from "../audit.ts";

/**
 * The audit log as CSV for a range of time (RFC 4180 as the journal's: CRLF, a field quoted when
 * it holds a comma, a quote or a line break). Every free-text field (detail, browser, addresses)
 * that a spreadsheet would run as a formula gets a leading apostrophe (OWASP's CSV-injection
 * advice). Before and after are "key=value" pairs joined with "; ".
 */

export const AUDIT_CSV_HEADER = [
  "time_utc",
  "user_id",
  "role",
  "action",
  "ip",
  "forwarded_for",
  "user_agent",
  "detail",
  "before",
  "after",
] as const;

function cell(value: string | undefined): string {
  if (value === undefined) return "";
  const v = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

const pairs = (r: Record<string, number | string> | undefined) =>
  r === undefined
    ? undefined
    : Object.entries(r)
        .map(([k, v]) => `${k}=${v}`)
        .join("; ");

/** The entries in [from, to), oldest first. */
export function auditToCsv(
  entries: readonly AuditEntry[],
  range: { from: number; to: number },
): string {
  const lines = [AUDIT_CSV_HEADER.join(",")];
  const inRange = entries.filter((e) => e.at >= range.from && e.at < range.to);
  for (const e of [...inRange].reverse()) {
    lines.push(
      [
        new Date(e.at).toISOString(),
        String(e.userId),
        cell(e.role),
        e.action,
        cell(e.ip),
        cell(e.forwardedFor),
        cell(e.userAgent),
        cell(e.detail),
        cell(pairs(e.before)),
        cell(pairs(e.after)),
      ].join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
