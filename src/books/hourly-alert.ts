import type { Logger } from "../logger.ts";
import { type Order, type OrderStatus, referenceSchema } from "../orders/model.ts";
import { noteToAdmins } from "./admin-note.ts";
import type { Crossings } from "./crossing.ts";
import { type HourlyWindow, isOpen, windowJson, windowOf } from "./hourly-window.ts";

/**
 * An admins' alert per order, within an overall limit (review s25-e, 3): a systematic cause (a
 * units change on the aggregator's side, a reference counter set back by a restore) alerts for
 * every order, and one alert per order per admin would bury the admin lane. The first order is
 * told at once; the ones within the hour after it are counted (each keeps its own record on the
 * order), and the count is told once the hour ended: by the flush (the reconciler's tick, on the
 * process holding its lease) or, first, by the next order's alert. At most one alert an hour per kind. The window
 * is a small record in the crossings' notes under the kind's name; counting an order is one
 * atomic step, and so is telling (the alerts queued and the new window written together, only
 * when the window is still the one the words were made from): no count is lost to a concurrent
 * one, and of two processes telling or flushing the same window one does (session 28); an order
 * stamped just before a window another process opened counts in it (hourly-window.ts EARLY_MS).
 */

export const HOURLY_ALERT_WINDOW_MS = 3_600_000;
/** References quoted in the count of a window. */
const SAMPLES = 5;
/** Tries of a tell whose window changed under it (another process's count, tell or flush). */
const TRIES = 5;

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);

export interface HourlyAlertDeps {
  crossings: Pick<Crossings, "recall" | "countNote" | "replaceNote">;
  adminChatIds: readonly number[];
  logger?: Logger | undefined;
}

/** One kind of hourly alert: its crossings name and its words. */
export interface HourlyAlertKind {
  /** The crossings note that keeps the window. */
  name: string;
  /** Logged for an order counted in the window, not told. */
  counted: string;
  /** The alert's words for `order`; `since` is the count of the window before it, in words or "". */
  note(order: Order, detail: string, since: string): string;
  /** How the count of the window is said: "N more order(s) with … since HH:MM UTC". */
  more: string;
  /** The flush's words around the count of a window whose hour ended with no order after it. */
  flush(count: string): string;
  /** The status the flush's alert carries (the orders counted are in it; the text ignores it). */
  status: OrderStatus;
}

/** The count of `w` in words: "N more order(s) … since HH:MM UTC (e.g. …), each recorded …". */
const countOf = (kind: HourlyAlertKind, w: HourlyWindow) =>
  `${w.more} more ${kind.more} since ${hhmm(w.since)} UTC (e.g. ${w.refs.join(", ")}), each recorded on its order.`;

/**
 * Tells the admins of one order of `kind` (true: the alerts were queued), or counts it in the
 * hour's window (false).
 */
export function createHourlyAlert(
  deps: HourlyAlertDeps,
  kind: HourlyAlertKind,
): (order: Order, detail: string, at: number) => Promise<boolean> {
  const { crossings, adminChatIds } = deps;
  const { name } = kind;
  return async (order, detail, at) => {
    for (let t = 1; ; t++) {
      const c = await crossings.countNote(name, {
        at,
        windowMs: HOURLY_ALERT_WINDOW_MS,
        samples: SAMPLES,
        reference: order.reference,
      });
      if (c.counted) {
        deps.logger?.warn({ reference: order.reference }, kind.counted);
        return false;
      }
      const w = windowOf(c.raw);
      const since = w && w.more > 0 ? ` Also ${countOf(kind, w)}` : "";
      const note = kind.note(order, detail, since);
      // The alerts and the new window in one step, only over the window the words were made
      // from (review s26-a's order kept: no window without its alert, nor an alert twice).
      const alerts = noteToAdmins(adminChatIds, at, note, order);
      const window = windowJson({ since: at, more: 0, refs: [] });
      if (await crossings.replaceNote(name, c.raw, window, alerts)) return true;
      if (t >= TRIES) throw new Error(`the ${name} window changed under ${TRIES} tries`);
    }
  };
}

/**
 * Tells the count of each kind's window whose hour ended (true per kind told), and opens a new
 * hour with it: the alert is that hour's one. Run on a timer (the reconciler's tick, by the process
 * holding its lease); of two processes flushing the same window one tells it (compare and set).
 */
export function createHourlyFlush(
  deps: HourlyAlertDeps,
  kinds: readonly HourlyAlertKind[],
): (at: number) => Promise<boolean[]> {
  const { crossings, adminChatIds } = deps;
  const flushOne = async (kind: HourlyAlertKind, at: number): Promise<boolean> => {
    const raw = await crossings.recall(kind.name);
    const w = windowOf(raw);
    // A window from ahead of this process's clock is not ended: isOpen is false for it too.
    if (!w || w.more <= 0 || at < w.since || isOpen(w, at, HOURLY_ALERT_WINDOW_MS)) return false;
    const note = kind.flush(countOf(kind, w));
    // The alert names an order only by a reference the outbox accepts (a window written by hand
    // or by another version must not fail the flush at every tick).
    const reference = w.refs.find((r) => referenceSchema.safeParse(r).success);
    const alerts = noteToAdmins(adminChatIds, at, note, { reference, status: kind.status });
    const window = windowJson({ since: at, more: 0, refs: [] });
    // False: another process (or an order's tell) took the window first.
    return crossings.replaceNote(kind.name, raw, window, alerts);
  };
  return (at) => Promise.all(kinds.map((k) => flushOne(k, at)));
}
