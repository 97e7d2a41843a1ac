import {
  answerWordsOf,
  OTHER_RECHARGE_PREFIX,
  statusCollisionNote,
} from "../orders/answer-fits.ts";
import type { AdminNote } from "../orders/context.ts";
import type { Order } from "../orders/model.ts";
import {
  COLLISION_NOTE,
  COLLISION_OPEN_NOTE,
  collisionNoteOf,
  OUR_SIDE_WINDOW,
} from "../orders/owed.ts";
import { collisionNote } from "../orders/provider-events.ts";
import { takenNoteOf } from "../orders/taken-transaction.ts";
import { createHourlyAlert, type HourlyAlertDeps, type HourlyAlertKind } from "./hourly-alert.ts";
import { OUR_SIDE_KIND } from "./our-side-alert.ts";

/**
 * The admins' alert for an order whose step carried a note for them: an execute refused for a
 * reference the aggregator already holds (orders/provider-events.ts), a status answer about
 * another recharge under it (orders/answer-fits.ts), or an answer giving the order another order's
 * transaction id (orders/taken-transaction.ts; all answers about another recharge, and a
 * systematic cause repeats them for order after order). A counter set back by a
 * restore refuses every new order until it passes the references the aggregator holds, so one
 * alert per order per admin would bury the admin lane: at most one an hour (hourly-alert.ts), the
 * orders counted meanwhile keep their own record in their history. The
 * order's write marks it owed the count (orders/owed.ts), so a crash before it loses no alert.
 *
 * Two windows, one per fate (session 32): a refused execute failed its order and returned the
 * money (COLLISION_KIND); the answers left theirs open with the money held, for an admin to settle
 * by hand (COLLISION_OPEN_KIND). Counted together, the count's words read as if every order
 * counted had been refused and closed.
 */
export const COLLISION_KIND: HourlyAlertKind = {
  name: COLLISION_NOTE,
  counted: "an order's note for the admins: counted",
  more: "order(s) refused the same way",
  note: (order, note, since) =>
    `Order ${order.reference}: ${note}${since} Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
  flush: (count) =>
    `Execute refused for a reference the aggregator already holds (a reference counter set back by a restore?): ${count} Each of them failed and its customer's money was returned; nothing is left to settle. Check the reference counter (docs/backup-restore.md). Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
  // Every order counted here failed with the refusal.
  status: "failed",
  owedDetail: owedDetailOf,
};

/** The orders an answer about another recharge (or another order's transaction) left open. */
export const COLLISION_OPEN_KIND: HourlyAlertKind = {
  name: COLLISION_OPEN_NOTE,
  counted: "an order's note for the admins (left open): counted",
  more: "order(s) answered about another recharge or with another order's transaction, each left open with its customer's money held",
  note: (order, note, since) =>
    `Order ${order.reference}: ${note}${since} Further orders answered so within the hour stay open with their customer's money held, are recorded on each order and counted in the next alert.`,
  flush: (count) =>
    `Answered about another recharge under our reference, or with another order's transaction (a reference counter set back by a restore?): ${count} None of them was failed or settled: each stays open with its customer's money held until it is settled by hand with /settle after checking it with the aggregator (one given another order's transaction may also be ended by the aggregator's answer by its own reference). Further orders answered so within the hour are recorded on each order and counted in the next alert.`,
  // The orders counted here are open (pending, or unknown after a lost answer).
  status: "pending",
  owedDetail: owedDetailOf,
};

/**
 * The note, for an order the flush's repair tells (its own process ended before the count): as
 * its step made it, from its history (another order's transaction) or the aggregator's words kept
 * on the order (a reference collision).
 */
function owedDetailOf(order: Order): string {
  // A status answer about another recharge recorded on it (orders/answer-fits.ts): its history says so.
  const answered = order.history.findLast((h) => h.note?.startsWith(OTHER_RECHARGE_PREFIX));
  if (answered?.note !== undefined) return statusCollisionNote(answerWordsOf(answered.note));
  return takenNoteOf(order) ?? collisionNote(order.providerMessage ?? "");
}

/**
 * Each order told or counted in its window: a collision closed by its step or left open, or an
 * execute refused on our side (its own topic: books/our-side-alert.ts).
 */
export function createCollisionAlert(deps: HourlyAlertDeps): (n: AdminNote) => Promise<boolean> {
  const tells = new Map([
    [COLLISION_NOTE, createHourlyAlert(deps, COLLISION_KIND)],
    [OUR_SIDE_WINDOW, createHourlyAlert(deps, OUR_SIDE_KIND)],
  ]);
  const open = createHourlyAlert(deps, COLLISION_OPEN_KIND);
  return ({ order, note, at, owed }) => {
    const tell = tells.get(collisionNoteOf(order)) ?? open;
    return tell(order, note, at, owed === true);
  };
}
