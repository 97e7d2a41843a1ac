import { z } from "zod";

/**
 * The range of GET /books/journal.csv: `from` and `to` as ISO dates (UTC midnight) or ISO times,
 * `to` exclusive, at most MAX_RANGE_DAYS apart (the export is built in memory).
 */
const MAX_RANGE_DAYS = 400;
const DAY_MS = 86_400_000;

const instant = z
  .string()
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(v), {
    message: "an ISO date (2026-04-01) or time (2026-04-01T00:00:00Z)",
  })
  .transform((v, ctx) => {
    const ms = Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: "custom", message: "not a real date" });
      return z.NEVER;
    }
    return ms;
  });

export const journalRangeSchema = z
  .object({ from: instant, to: instant })
  .refine((r) => r.to > r.from, { message: "to must be after from", path: ["to"] })
  .refine((r) => r.to - r.from <= MAX_RANGE_DAYS * DAY_MS, {
    message: `at most ${MAX_RANGE_DAYS} days at once`,
    path: ["to"],
  });
export type JournalRange = z.infer<typeof journalRangeSchema>;
