import type { ReminderRecord, ReminderState } from "./model.ts";

/**
 * When a reminder is due and what one message carries: pure, the clock passed in.
 *
 * - **plan**: a package or plan whose validity the provider names ends `validity` days after it
 *   was paid; reminded from the day 3 days before (a third of a shorter validity before).
 * - **bill** (water, electricity, landline): paid monthly on the customer's usual day (the day of
 *   the month they last paid); reminded on that day of the next month.
 * - **usual**: any other number (a top-up, a plan without a stated validity) comes round after
 *   the customer's usual interval (the median of their last gaps, 7 to 60 days), else the
 *   category's usual period (28 days for mobiles, 30 for DTH and internet); reminded the day before.
 *
 * A reminder goes out between 09:00 and 20:00 on the customer's clock (Nepal or India time),
 * never before its time, at most one message per customer per day (several due at once are one
 * message, the most urgent first), once per due date (the next payment of the account starts a new
 * one), and not once the due date is 3 days past (the customer has moved on).
 */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The customer's waking hours, local time: [from, until). */
export const WINDOW = { fromHour: 9, untilHour: 20 } as const;
/** Reminders one message carries at most (the rest wait for the next day). */
export const MAX_PER_MESSAGE = 5;
/** Past its due date by this much, a reminder is no longer sent. */
export const LATE_MS = 3 * DAY_MS;
/** A record this long past its due date is forgotten (its times and marks too). */
export const FORGET_MS = 90 * DAY_MS;
/** Payment times kept per account (the usual interval is their gaps' median). */
export const TIMES_KEPT = 4;

const BILLS = new Set(["water", "electricity", "landline"]);
const PERIOD_DAYS: Record<string, number> = { dth: 30, internet: 30 };
const DEFAULT_PERIOD_DAYS = 28;

const OFFSET_MS = { np: 345 * 60_000, in: 330 * 60_000 } as const;
type Region = keyof typeof OFFSET_MS;

export type ReminderKind = "plan" | "bill" | "usual";

export interface Cycle {
  kind: ReminderKind;
  /** When the plan ends, the bill is usually paid, the number usually recharged. */
  dueAt: number;
  /** Not before this. */
  remindAt: number;
}

/** The local day of `ms` on the region's clocks, "YYYY-MM-DD". */
export const localDay = (ms: number, region: Region): string =>
  new Date(ms + OFFSET_MS[region]).toISOString().slice(0, 10);

/** The local hour of `ms` (0-23). */
const localHour = (ms: number, region: Region) => new Date(ms + OFFSET_MS[region]).getUTCHours();

/** The instant local midnight began on the day holding `ms`. */
const localDayStart = (ms: number, region: Region) =>
  Math.floor((ms + OFFSET_MS[region]) / DAY_MS) * DAY_MS - OFFSET_MS[region];

export const inWindow = (ms: number, region: Region): boolean => {
  const h = localHour(ms, region);
  return h >= WINDOW.fromHour && h < WINDOW.untilHour;
};

/** The first instant at or after `ms` inside the waking hours. */
export function windowFrom(ms: number, region: Region): number {
  if (inWindow(ms, region)) return ms;
  const start = localDayStart(ms, region) + WINDOW.fromHour * HOUR_MS;
  return ms < start ? start : start + DAY_MS;
}

/** The same day of the next month, local time (the 31st becomes the month's last day). */
function nextMonthSameDay(ms: number, region: Region): number {
  const local = new Date(ms + OFFSET_MS[region]);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + 1;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), last);
  return Date.UTC(y, m, day) - OFFSET_MS[region];
}

/** The customer's usual interval from their payment times (median gap), in days, or undefined. */
export function usualDays(times: readonly number[]): number | undefined {
  const sorted = [...new Set(times)].sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const gap = (sorted[i]! - sorted[i - 1]!) / DAY_MS;
    if (gap >= 1) gaps.push(gap);
  }
  if (gaps.length === 0) return undefined;
  gaps.sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)]!;
  return Math.min(60, Math.max(7, Math.round(median)));
}

/**
 * The newest TIMES_KEPT payment times: exactly the ones `forgotten` keeps, so a due date planned
 * in the visit that forgets the older ones is the one every later visit computes.
 */
const keptTimes = (times: readonly number[]) =>
  [...times].sort((a, b) => b - a).slice(0, TIMES_KEPT);

/** The record's due date and when to remind of it. */
export function cycleOf(record: ReminderRecord, times: readonly number[] = []): Cycle {
  // Reminded from the start of the local day `lead` before the due time (then from 09:00).
  const cycle = (kind: ReminderKind, dueAt: number, lead: number): Cycle => ({
    kind,
    dueAt,
    remindAt: localDayStart(dueAt - lead, record.region),
  });
  if (record.validityDays !== undefined) {
    const span = record.validityDays * DAY_MS;
    return cycle("plan", record.at + span, Math.min(3 * DAY_MS, Math.floor(span / 3)));
  }
  if (BILLS.has(record.category)) {
    return cycle("bill", nextMonthSameDay(record.at, record.region), 0);
  }
  const days =
    usualDays([...keptTimes(times), record.at]) ??
    PERIOD_DAYS[record.category] ??
    DEFAULT_PERIOD_DAYS;
  return cycle("usual", record.at + days * DAY_MS, DAY_MS);
}

/** One reminder of a message, or of /reminders' list. */
export interface DueReminder extends Cycle {
  id: string;
  record: ReminderRecord;
  /** When it goes (or went) out at the earliest: remindAt moved into the waking hours. */
  sendAt: number;
  off: boolean;
}

/** Every account's current reminder not yet sent and not too late, soonest first. */
export function upcoming(state: ReminderState, now: number): DueReminder[] {
  const out: DueReminder[] = [];
  for (const [id, record] of state.records) {
    const cycle = cycleOf(record, state.times.get(id));
    if (state.sent.get(id) === cycle.dueAt || now > cycle.dueAt + LATE_MS) continue;
    const off = state.allOff || state.off.has(id);
    out.push({ id, record, ...cycle, sendAt: windowFrom(cycle.remindAt, record.region), off });
  }
  return out.sort((a, b) => a.dueAt - b.dueAt || a.id.localeCompare(b.id));
}

export interface Plan {
  /** The reminders of the message to send now (empty: none now). */
  send: DueReminder[];
  /** The customer's day the message claims (Nepal time, the merchant's day). */
  day: string;
  /** When to look at this customer again; null: nothing left to remind. */
  wakeAt: number | null;
  /** Hash fields no longer needed (records long past, times beyond TIMES_KEPT). */
  forget: string[];
}

/** What to do for one customer at `now`: which reminders go in one message, and when to look again. */
export function planFor(state: ReminderState, now: number): Plan {
  const day = localDay(now, "np");
  const pending = upcoming(state, now).filter((r) => !r.off);
  const ready = pending.filter((r) => r.sendAt <= now && inWindow(now, r.record.region));
  const canSend = ready.length > 0 && state.day !== day;
  const send = canSend ? ready.slice(0, MAX_PER_MESSAGE) : [];
  const sentIds = new Set(send.map((r) => r.id));
  // After today's message (or with today's used), nothing more until tomorrow's waking hours.
  const usedToday = canSend || state.day === day;
  const tomorrow = localDayStart(now, "np") + DAY_MS;
  let wakeAt: number | null = null;
  for (const r of pending) {
    if (sentIds.has(r.id)) continue;
    const region = r.record.region;
    let at = Math.max(r.sendAt, windowFrom(now, region));
    if (usedToday && at < tomorrow) at = windowFrom(tomorrow, region);
    wakeAt = wakeAt === null ? at : Math.min(wakeAt, at);
  }
  return { send, day, wakeAt, forget: forgotten(state, now) };
}

/**
 * Fields of records long past their due date, and payment times beyond the last TIMES_KEPT. A
 * number's stop stays (as dropOrder keeps it): the customer asked for none of it, and a payment of
 * it months later must not start its reminders again (review s33-rvcomp 1).
 */
function forgotten(state: ReminderState, now: number): string[] {
  const out: string[] = [];
  for (const [id, record] of state.records) {
    if (now > cycleOf(record, state.times.get(id)).dueAt + FORGET_MS) {
      out.push(`r:${id}`, `s:${id}`);
      for (const t of state.times.get(id) ?? []) out.push(`t:${id}:${t}`);
      continue;
    }
    const kept = new Set(keptTimes(state.times.get(id) ?? []));
    for (const t of state.times.get(id) ?? []) if (!kept.has(t)) out.push(`t:${id}:${t}`);
  }
  return out;
}
