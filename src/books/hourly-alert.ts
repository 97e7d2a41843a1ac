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
 * A kind whose order's write marks it owed a count (figures off, reference collisions:
 * orders/owed.ts) is counted only while marked, and the flush first repairs the marks a crash
 * left (repairOwed, session 30).
 */

export const HOURLY_ALERT_WINDOW_MS = 3_600_000;
/** References quoted in the count of a window. */
const SAMPLES = 5;
/** Tries of a tell whose window changed under it (another process's count, tell or flush). */
const TRIES = 5;
/**
 * How old an owed mark must be before the flush's repair counts it: the process that wrote the
 * order counts it within a few round trips after its write. Only so that the repair leaves that
 * count to it; exactness does not rest on it (a mark is taken once, by whichever count comes first).
 */
export const OWED_GRACE_MS = 60_000;
/** Owed orders the repair counts per kind and flush (the rest at the next tick). */
const OWED_PER_FLUSH = 50;

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);

export interface HourlyAlertDeps {
  crossings: Pick<Crossings, "recall" | "countNote" | "replaceNote" | "owedBefore">;
  adminChatIds: readonly number[];
  logger?: Logger | undefined;
  /** Where the flush's repair reads an owed order (the order store); none: no repair. */
  orders?: { get(reference: string): Promise<Order | null> } | undefined;
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
  /**
   * The detail of an order its step marked owed a count (the note's owed set) and nobody counted:
   * the flush's repair tells or counts it with these words. Unset: the kind marks no order owed.
   */
  owedDetail?(order: Order): string;
}

/** The count of `w` in words: "N more order(s) … since HH:MM UTC (e.g. …), each recorded …". */
const countOf = (kind: HourlyAlertKind, w: HourlyWindow) =>
  `${w.more} more ${kind.more} since ${hhmm(w.since)} UTC (e.g. ${w.refs.join(", ")}), each recorded on its order.`;

/**
 * Tells the admins of one order of `kind` (true: the alerts were queued), or counts it in the
 * hour's window (false). `owed`: its step marked the order owed a count (CountIn.owed): it is
 * counted or told only while the mark is there, and the mark goes with that step.
 */
export function createHourlyAlert(
  deps: HourlyAlertDeps,
  kind: HourlyAlertKind,
): (order: Order, detail: string, at: number, owed?: boolean) => Promise<boolean> {
  const { crossings, adminChatIds } = deps;
  const { name } = kind;
  return async (order, detail, at, owed = false) => {
    const { reference } = order;
    for (let t = 1; ; t++) {
      const c = await crossings.countNote(name, {
        at,
        windowMs: HOURLY_ALERT_WINDOW_MS,
        samples: SAMPLES,
        reference,
        ...(owed ? { owed } : {}),
      });
      if (c.counted) {
        if (c.already) deps.logger?.info({ reference }, `${kind.counted} already`);
        else deps.logger?.warn({ reference }, kind.counted);
        return false;
      }
      const w = windowOf(c.raw);
      const since = w && w.more > 0 ? ` Also ${countOf(kind, w)}` : "";
      const note = kind.note(order, detail, since);
      // The alerts and the new window in one step, only over the window the words were made
      // from (review s26-a's order kept: no window without its alert, nor an alert twice).
      const alerts = noteToAdmins(adminChatIds, at, note, order);
      const window = windowJson({ since: at, more: 0, refs: [] });
      const mark = owed ? reference : undefined;
      if (await crossings.replaceNote(name, c.raw, window, alerts, mark)) return true;
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
  const repairs = kinds.map((kind) => repairOwed(deps, kind));
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
  return (at) =>
    Promise.all(
      kinds.map(async (k, i) => {
        // First: an owed order told now carries the ended hour's count in its own alert.
        await repairs[i]?.(at);
        return flushOne(k, at);
      }),
    );
}

/**
 * The flush's repair of `kind` (null: the kind marks no order owed, or no order store): each order
 * its step marked owed a count more than OWED_GRACE_MS ago and that nobody counted (its process
 * ended between the write and the count) is told or counted now, as its own process would have;
 * the mark is taken with it, so a count that comes meanwhile is not doubled.
 */
function repairOwed(
  deps: HourlyAlertDeps,
  kind: HourlyAlertKind,
): ((at: number) => Promise<void>) | null {
  const { orders } = deps;
  const detailOf = kind.owedDetail;
  if (!orders || !detailOf) return null;
  const tell = createHourlyAlert(deps, kind);
  return async (at) => {
    const owed = await deps.crossings.owedBefore(kind.name, at - OWED_GRACE_MS, OWED_PER_FLUSH);
    for (const { reference } of owed) {
      const order = await orders.get(reference);
      // Orders are never deleted: a mark without its order is logged and kept, not guessed at.
      if (!order) {
        deps.logger?.error({ reference, kind: kind.name }, "an owed order is not in the store");
        continue;
      }
      // One order's failure must not stop the others nor the window's flush at every tick.
      try {
        const told = await tell(order, detailOf(order), at, true);
        deps.logger?.warn({ reference, told, kind: kind.name }, "an owed hourly count repaired");
      } catch (err) {
        deps.logger?.error({ err: String(err), reference }, "an owed hourly count not repaired");
      }
    }
  };
}
