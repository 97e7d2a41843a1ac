import type { Logger } from "../logger.ts";
import type { Notification, Order } from "../orders/model.ts";
import type { Crossings } from "./crossing.ts";

/**
 * An admins' alert per order, within an overall limit (review s25-e, 3): a systematic cause (a
 * units change on the aggregator's side, a reference counter set back by a restore) alerts for
 * every order, and one alert per order per admin would bury the admin lane. The first order is
 * told at once; the ones within the hour after it are counted (each keeps its own record on the
 * order), and the first one after the hour is told with that count and a few references: at most
 * one alert an hour per kind. The window is a small record in the crossings' notes under the
 * kind's name; two processes at the hour's edge may each tell one (bounded by the processes), and
 * a count may miss an order then (the orders keep their records).
 */

export const HOURLY_ALERT_WINDOW_MS = 3_600_000;
/** References quoted in the count of a window. */
const SAMPLES = 5;

interface Window {
  since: number;
  more: number;
  refs: string[];
}

function windowOf(raw: string | null): Window | null {
  if (raw === null) return null;
  try {
    const w = JSON.parse(raw) as Partial<Window>;
    if (typeof w.since !== "number" || typeof w.more !== "number" || !Array.isArray(w.refs))
      return null;
    return { since: w.since, more: w.more, refs: w.refs.filter((r) => typeof r === "string") };
  } catch {
    return null;
  }
}

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);

export interface HourlyAlertDeps {
  crossings: Pick<Crossings, "recall" | "remember" | "record">;
  adminChatIds: readonly number[];
  logger?: Logger | undefined;
}

/** One kind of hourly alert: its crossings name and its words. */
export interface HourlyAlertKind {
  /** The crossings note that keeps the window (and the crossing that queues the alerts). */
  name: string;
  /** Logged for an order counted in the window, not told. */
  counted: string;
  /** The alert's words for `order`; `since` is the count of the window before it, in words or "". */
  note(order: Order, detail: string, since: string): string;
  /** How the count of the window is said: "N more order(s) with … since HH:MM UTC". */
  more: string;
}

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
    const w = windowOf(await crossings.recall(name));
    if (w && at >= w.since && at - w.since < HOURLY_ALERT_WINDOW_MS) {
      const refs = w.refs.length < SAMPLES ? [...w.refs, order.reference] : w.refs;
      await crossings.remember(name, JSON.stringify({ since: w.since, more: w.more + 1, refs }));
      deps.logger?.warn({ reference: order.reference, since: w.since }, kind.counted);
      return false;
    }
    const since =
      w && w.more > 0
        ? ` Also ${w.more} more ${kind.more} since ${hhmm(w.since)} UTC (e.g. ${w.refs.join(", ")}), each recorded on its order.`
        : "";
    const note = kind.note(order, detail, since);
    // The note says it all: settle_proposed's topic carries it (a topic of its own is a shape an
    // older notifier would drop during a rolling deploy, docs/deploying.md).
    const alerts: Notification[] = adminChatIds.map((chatId) => ({
      kind: "admin_alert",
      topic: "settle_proposed",
      reference: order.reference,
      status: order.status,
      chatId,
      at,
      note,
    }));
    // Re-armed and crossed: the alerts are queued by the crossing's own atomic step. The hour's
    // window is written after them (review s26-a): a crash or a failed queueing in between
    // leaves no window, so the next order is told again, rather than a window with no alert
    // that counts every later order of the hour in silence.
    await crossings.record(name, false, []);
    const queued = await crossings.record(name, true, alerts);
    await crossings.remember(name, JSON.stringify({ since: at, more: 0, refs: [] }));
    return queued;
  };
}
