import type { Logger } from "../logger.ts";
import { type Order, type OrderStatus, referenceSchema } from "../orders/model.ts";
import { noteToAdmins } from "./admin-note.ts";
import type { Crossings } from "./crossing.ts";
import { type HourlyWindow, isOpen, windowJson, windowOf } from "./hourly-window.ts";
import type { OwedMark } from "./owed-marks.ts";

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
export const OWED_PER_FLUSH = 50;
/**
 * A mark the repair could not take is tried again after as long as it has been owed, at least
 * the grace and at most an hour (review s30 F5: moved out of the way, it cannot keep the marks
 * after it from being read, OWED_PER_FLUSH at a time)...
 */
const OWED_RETRY_MAX_MS = HOURLY_ALERT_WINDOW_MS;
/** ...and dropped, its error logged naming it, once marked longer ago than this: its set is bounded. */
export const OWED_KEPT_MS = 7 * 24 * HOURLY_ALERT_WINDOW_MS;

const hhmm = (at: number) => new Date(at).toISOString().slice(11, 16);

export interface HourlyAlertDeps {
  crossings: Pick<Crossings, "recall" | "countNote" | "replaceNote" | "owedBefore" | "owedRetry">;
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
  const tell = hourlyTell(deps, kind);
  return async (order, detail, at, owed) => (await tell(order, detail, at, owed)) === "told";
}

/** createHourlyAlert's step: told, counted in the window, or already (its mark taken by another). */
function hourlyTell(
  deps: HourlyAlertDeps,
  kind: HourlyAlertKind,
): (
  order: Order,
  detail: string,
  at: number,
  owed?: boolean,
  late?: string,
) => Promise<"told" | "counted" | "already"> {
  const { crossings, adminChatIds } = deps;
  const { name } = kind;
  return async (order, detail, at, owed = false, late = "") => {
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
        return c.already ? "already" : "counted";
      }
      const w = windowOf(c.raw);
      const since = `${late}${w && w.more > 0 ? ` Also ${countOf(kind, w)}` : ""}`;
      const note = kind.note(order, detail, since);
      // The alerts and the new window in one step, only over the window the words were made
      // from (review s26-a's order kept: no window without its alert, nor an alert twice).
      const alerts = noteToAdmins(adminChatIds, at, note, order);
      const window = windowJson({ since: at, more: 0, refs: [] });
      const mark = owed ? reference : undefined;
      if (await crossings.replaceNote(name, c.raw, window, alerts, mark)) return "told";
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
        // First: an owed order told now carries the ended hour's count in its own alert. A repair
        // that fails (its marks unreadable) must not keep the window's count untold (s30 F4).
        const [repaired] = await Promise.allSettled([repairs[i]?.(at)]);
        if (repaired.status === "rejected")
          deps.logger?.error({ err: String(repaired.reason), kind: k.name }, "owed repair failed");
        return flushOne(k, at);
      }),
    );
}

/**
 * The flush's repair of `kind` (null: the kind marks no order owed, or no order store): each order
 * its step marked owed a count more than OWED_GRACE_MS ago and that nobody counted (its process
 * ended between the write and the count) is told or counted now, as its own process would have;
 * the mark is taken with it, so a count that comes meanwhile is not doubled. A mark it cannot take
 * (its order unreadable or missing, its tell failing) is set aside and tried again later, or
 * dropped once owed OWED_KEPT_MS, each logged as an error naming the order (review s30 F4, F5).
 */
function repairOwed(
  deps: HourlyAlertDeps,
  kind: HourlyAlertKind,
): ((at: number) => Promise<void>) | null {
  const { orders, logger } = deps;
  const detailOf = kind.owedDetail;
  if (!orders || !detailOf) return null;
  const tell = hourlyTell(deps, kind);
  const repairOne = async ({ reference, markedAt }: OwedMark, at: number) => {
    const log = { reference, kind: kind.name, markedAt: new Date(markedAt).toISOString() };
    try {
      const order = await orders.get(reference);
      // Orders are never deleted: a mark without its order is not guessed at.
      if (!order) throw new Error("the owed order is not in the store");
      const outcome = await tell(order, detailOf(order), at, true, lateWords(markedAt));
      if (outcome === "already") logger?.info(log, "an owed hourly count already taken");
      else logger?.warn({ ...log, outcome }, "an owed hourly count repaired");
    } catch (err) {
      const retryAt = at + Math.min(OWED_RETRY_MAX_MS, Math.max(OWED_GRACE_MS, at - markedAt));
      const kept = await deps.crossings.owedRetry(kind.name, reference, retryAt, at - OWED_KEPT_MS);
      logger?.error(
        { ...log, err: String(err), kept },
        kept === "dropped"
          ? "an owed hourly count dropped: never repaired within the days kept"
          : "an owed hourly count not repaired",
      );
    }
  };
  return async (at) => {
    const owed = await deps.crossings.owedBefore(kind.name, at - OWED_GRACE_MS, OWED_PER_FLUSH);
    // One order's failure must not stop the others (each is caught and set aside).
    for (const mark of owed) await repairOne(mark, at);
  };
}

/**
 * The repair's words: told late, with the time the order's write marked it (review s30 F7: the
 * alert goes out in a later hour than the order's, and must not read as this hour's).
 */
const lateWords = (markedAt: number) =>
  ` Told late: the order was recorded at ${new Date(markedAt).toISOString().slice(0, 16).replace("T", " ")} UTC; its alert was not sent then.`;
