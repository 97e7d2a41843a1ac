import {
  answerWordsOf,
  OTHER_RECHARGE_PREFIX,
  statusCollisionNote,
} from "../orders/answer-fits.ts";
import type { AdminNote } from "../orders/context.ts";
import type { Order } from "../orders/model.ts";
import { COLLISION_NOTE } from "../orders/owed.ts";
import { collisionNote } from "../orders/provider-events.ts";
import { takenNoteOf } from "../orders/taken-transaction.ts";
import { createHourlyAlert, type HourlyAlertDeps, type HourlyAlertKind } from "./hourly-alert.ts";

/**
 * The admins' alert for an order whose step carried a note for them: an execute refused for a
 * reference the aggregator already holds (orders/provider-events.ts), a status answer about
 * another recharge under it (orders/answer-fits.ts), or an answer giving the order another order's
 * transaction id (orders/taken-transaction.ts; all answers about another recharge, and a
 * systematic cause repeats them for order after order). A counter set back by a
 * restore refuses every new order until it passes the references the aggregator holds, so one
 * alert per order per admin would bury the admin lane: at most one an hour (hourly-alert.ts), the
 * orders counted meanwhile keep their own record (failed with the refusal, or open with the
 * answer not applied, in their history). The
 * order's write marks it owed the count (orders/owed.ts), so a crash before it loses no alert.
 */
export const COLLISION_KIND: HourlyAlertKind = {
  name: COLLISION_NOTE,
  counted: "an order's note for the admins: counted",
  more: "order(s) refused the same way",
  note: (order, note, since) =>
    `Order ${order.reference}: ${note}${since} Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
  flush: (count) =>
    `Execute refused for a reference the aggregator already holds (a reference counter set back by a restore?), or answered about another recharge or with another order's transaction: ${count} Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
  // A refused execute failed its order (an answer about another recharge, or giving another
  // order's transaction, left it open: the flush's words ignore the status).
  status: "failed",
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

export function createCollisionAlert(deps: HourlyAlertDeps): (n: AdminNote) => Promise<boolean> {
  const tell = createHourlyAlert(deps, COLLISION_KIND);
  return ({ order, note, at, owed }) => tell(order, note, at, owed === true);
}
