import type { Order, OrderEvent } from "./model.ts";
import type { TakenTransaction } from "./store.ts";

/**
 * An answer giving an order a transaction id another order already holds (review s31-orders, 2):
 * the aggregator's duplicate guard answering a second order with the first one's transaction, a
 * proxy handing back another request's answer. One recharge is one order's, so it says nothing of
 * ours: its status, figures and transaction id are not taken. The store finds the clash in the
 * order's own write (store.ts TakenTransaction) and the step is run again with this event instead:
 * recorded in the history, the admins told once (the reference-collision alert's hourly window,
 * books/collision-alert.ts), and an order still submitting moved to unknown: its execute was
 * answered, but not about it, so the reconciler's status query by its own reference decides
 * (a "not found" counted over the window fails it and returns its hold). Pure, no I/O.
 */

const NOTE = /^transaction id (\S+) belongs to order (\S+) /;

const short = (s: string) => s.slice(0, 40);

/** The admins' words (AdminNote) for an order given `taken`'s transaction id. */
export function takenNote(taken: TakenTransaction): string {
  return `an aggregator's answer gave it transaction ${short(taken.transactionId)}, which is order ${short(taken.reference)}'s: an answer about that recharge (a duplicate guard answering with the earlier transaction?). Not applied: the order stays open, its hold held, until a status query by its own reference settles it. Check both with the aggregator.`;
}

/**
 * The event applied instead of `event`, whose transaction id is `taken`'s; null when the order
 * has it recorded already (whatever status that answer claimed): a redelivery, a status query
 * saying the same, records and tells nothing more.
 */
export function takenTransactionEvent(
  order: Order,
  event: OrderEvent,
  taken: TakenTransaction,
): OrderEvent | null {
  const head = `transaction id ${short(taken.transactionId)} belongs to order ${short(taken.reference)} `;
  if (order.history.some((h) => h.note?.startsWith(head))) return null;
  return {
    source: event.source,
    status: order.status === "submitting" ? "unknown" : null,
    at: event.at,
    note: `${head}(${event.status ?? "no status"}): not applied`,
    ...(event.payload === undefined ? {} : { payload: event.payload }),
    adminNote: takenNote(taken),
  };
}

/** The admins' words of the latest such event on `order`, or null (the owed count's repair). */
export function takenNoteOf(order: Order): string | null {
  for (let i = order.history.length - 1; i >= 0; i--) {
    const m = NOTE.exec(order.history[i]?.note ?? "");
    if (m?.[1] !== undefined && m[2] !== undefined)
      return takenNote({ transactionId: m[1], reference: m[2] });
  }
  return null;
}
