import {
  type HistoryEntry,
  isNotFoundAnswer,
  type Notification,
  type Order,
  type OrderEvent,
  type OrderStatus,
} from "./model.ts";

/**
 * What the order state machine's steps share (state.ts, final-order.ts): the result of one step,
 * the history's bounds and entries, the list of words nobody understood. Pure, no I/O.
 */

export interface TransitionResult {
  order: Order;
  /** The order differs from the input (status, fields or history). */
  changed: boolean;
  /** The status moved. */
  statusChanged: boolean;
  from: OrderStatus;
  notifications: Notification[];
  /**
   * The aggregator's figures booked in this step are off (figures-check.ts): what is off, in
   * words. Recorded on the order here; told to the admins after the write, within an overall
   * limit (OrdersContext.onFiguresOff).
   */
  figuresOff?: string;
  /**
   * The event's note for the admins (its `adminNote`), the order moved by it or first answered
   * about another recharge (state.ts): told after the write, within an overall limit
   * (OrdersContext.onAdminNote).
   */
  adminNote?: string;
}

/** History stays bounded even if a sender invents endless distinct notes. */
export const MAX_HISTORY = 100;

/** Unrecognised status words kept per order, newest kept. */
export const MAX_UNRECOGNISED = 20;

export function sameEntry(h: HistoryEntry, e: OrderEvent): boolean {
  return h.source === e.source && h.status === e.status && (h.note ?? "") === (e.note ?? "");
}

export function entryOf(e: OrderEvent, note = e.note): HistoryEntry {
  return {
    source: e.source,
    status: e.status,
    at: e.at,
    ...(note === undefined ? {} : { note }),
    ...(e.payload === undefined ? {} : { payload: e.payload }),
  };
}

export function unchanged(order: Order): TransitionResult {
  return { order, changed: false, statusChanged: false, from: order.status, notifications: [] };
}

/**
 * Room past MAX_HISTORY for counted "not found" answers (model.ts isNotFoundAnswer): a full
 * history must not stop the count that fails a never-executed order and frees its hold.
 */
const NOT_FOUND_PAST_CAP = 20;

/**
 * Room past every other cap for the aggregator's contradiction of a final order (final-order.ts):
 * recorded once per order (`contradicted`, `settled.contradictedAt`), it must never be dropped
 * from a full history while the marker is set and the admins alerted. A few, not one: an older
 * version's write may drop the marker (docs/deploying.md) and let it be recorded again.
 */
const CONTRADICTION_PAST_CAP = 5;

/**
 * The history with `entry` appended, unless full: MAX_HISTORY entries, past which only counted
 * "not found" answers (NOT_FOUND_PAST_CAP more) and, with `contradiction`, the aggregator's
 * contradiction of a final order (CONTRADICTION_PAST_CAP more still) are kept.
 */
export function withHistory(
  order: Order,
  entry: HistoryEntry,
  contradiction = false,
): HistoryEntry[] {
  const cap = contradiction
    ? MAX_HISTORY + NOT_FOUND_PAST_CAP + CONTRADICTION_PAST_CAP
    : isNotFoundAnswer(entry)
      ? MAX_HISTORY + NOT_FOUND_PAST_CAP
      : MAX_HISTORY;
  return order.history.length >= cap ? order.history : [...order.history, entry];
}

/** Records an unrecognised word: the same word from the same source only once, at its latest. */
export function recordUnrecognised(
  order: Order,
  event: OrderEvent,
  word: string,
): TransitionResult {
  const list = order.unrecognised ?? [];
  if (list.some((u) => u.source === event.source && u.word === word && u.at === event.at)) {
    return unchanged(order);
  }
  const others = list.filter((u) => !(u.source === event.source && u.word === word));
  const unrecognised = [...others, { source: event.source, at: event.at, word }].slice(
    -MAX_UNRECOGNISED,
  );
  return {
    ...unchanged(order),
    order: { ...order, unrecognised, updatedAt: event.at },
    changed: true,
  };
}
