/**
 * The hourly alerts' window (hourly-alert.ts) as kept in a crossings note: when the hour began,
 * the orders counted since, and a few of their references. Its JSON shape is the one every
 * version since session 25 reads and writes (a rolling deploy runs older processes on the same
 * note, docs/deploying.md); the Redis script in crossing.ts writes the same shape.
 */
export interface HourlyWindow {
  since: number;
  more: number;
  refs: string[];
}

/**
 * What an order finds in the window: counted in it (its hour still open), or the window as read.
 * `already`: the order was counted only while owed (CountIn.owed) and was not owed any more:
 * another process (or the flush's repair) counted or told it; nothing was written.
 */
export type WindowCount =
  | { counted: true; already?: true }
  | { counted: false; raw: string | null };

/** How an order is counted: its time, the window's length, the references kept, its reference. */
export interface CountIn {
  at: number;
  windowMs: number;
  samples: number;
  reference: string;
  /**
   * The order's step marked it owed a count (the note's owed set): counted only while marked,
   * and the mark taken with the count, so the order and the flush's repair count it once.
   */
  owed?: boolean;
}

export function windowOf(raw: string | null): HourlyWindow | null {
  if (raw === null) return null;
  try {
    const w = JSON.parse(raw) as Partial<HourlyWindow>;
    if (typeof w.since !== "number" || typeof w.more !== "number" || !Array.isArray(w.refs))
      return null;
    return { since: w.since, more: w.more, refs: w.refs.filter((r) => typeof r === "string") };
  } catch {
    return null;
  }
}

export const windowJson = (w: HourlyWindow): string =>
  JSON.stringify({ since: w.since, more: w.more, refs: w.refs });

/**
 * How long before a window's start an order still counts in it (review s28-hourly, S1): an order's
 * time is read before its round trips, and processes' clocks differ, so writes land out of the
 * order of their times. Without it, an order stamped just before a window that another process
 * (or the flush) opened first would be told as well, and move the window back.
 */
export const EARLY_MS = 60_000;

/** Whether `at` falls within the hour of `w` (or at most EARLY_MS before it). */
export const isOpen = (w: HourlyWindow, at: number, windowMs: number): boolean =>
  at >= w.since - EARLY_MS && at - w.since < windowMs;

/** The window with one more order counted, or null when the order is not in its hour. */
export function countedIn(raw: string | null, c: CountIn): HourlyWindow | null {
  const w = windowOf(raw);
  if (!w || !isOpen(w, c.at, c.windowMs)) return null;
  const refs = w.refs.length < c.samples ? [...w.refs, c.reference] : w.refs;
  return { since: w.since, more: w.more + 1, refs };
}
