import { isInferred } from "./inferred-debit.ts";
import { isFinal, type Order, type OrderEvent } from "./model.ts";
import { reversalAsFailed } from "./reversal.ts";
import {
  entryOf,
  recordUnrecognised,
  type TransitionResult,
  unchanged,
  withHistory,
} from "./transition-kit.ts";

/**
 * What may still happen to a final order (state.ts asks here first): nothing changes its status
 * or moves money; the aggregator's later word is recorded (a late wallet, a contradiction or an
 * agreement, a word nobody understood), and a contradiction is alerted once.
 */

/**
 * One event on a final order: a late wallet first, then a word nobody understood (but a reversal
 * word, reversal.ts, in the aggregator's own answer on a success, settled by an admin or not: its
 * "failed"), then the aggregator's final word weighed against an admin's settlement or, unsettled,
 * the outcome itself.
 */
export function finalOrderStep(
  order: Order,
  event: OrderEvent,
  admins: readonly number[],
): TransitionResult {
  // A late wallet and the answer's final word are recorded in one step: the same answer again
  // must not do something the first one did not (an agreement left unrecorded till a redelivery).
  const late = lateWallet(order, event);
  const o = late.order;
  const reversal = reversalAsFailed(o, event);
  const word = event.unrecognised;
  const rest =
    reversal && word !== undefined && AGGREGATOR_ANSWERS.has(event.source)
      ? o.settled
        ? settlementReversed(o, reversal, word, admins)
        : finalContradicted(o, reversal, admins, word)
      : event.unrecognised !== undefined
        ? finalWordUnread(o, event, event.unrecognised)
        : o.settled
          ? settlementContradicted(o, event)
          : finalContradicted(o, event, admins);
  return rest.changed || !late.changed ? rest : late;
}

/**
 * A final order changes no more, with one exception: the execute answer's wallet figures, when
 * the webhook's success came first. They are the aggregator's own numbers (its debit of the float)
 * and replace the inferred ones the success recorded (inferred-debit.ts); the books book the
 * difference, if any, once (postings.ts bookingsOf). Recorded only, no status, no notification.
 */
function lateWallet(order: Order, event: OrderEvent): TransitionResult {
  if (event.source !== "execute" || !event.wallet || isInferred(event.wallet))
    return unchanged(order);
  if (order.wallet !== undefined && !isInferred(order.wallet)) return unchanged(order);
  // An answer calling the success failed reports no debit for it: it is the aggregator's
  // contradiction (finalContradicted), recorded and alerted, never taken as the books' figures.
  if (order.status !== "success" || event.status === "failed") return unchanged(order);
  if (
    event.transactionId !== undefined &&
    order.transactionId !== undefined &&
    event.transactionId !== order.transactionId
  )
    return unchanged(order);
  return {
    ...unchanged(order),
    order: { ...order, wallet: event.wallet, updatedAt: event.at },
    changed: true,
  };
}

/**
 * A final order an admin settled (settle.ts) that the aggregator's word now contradicts (a
 * webhook, a status answer or an execute answer claiming the opposite final outcome): no money
 * moves (the order stays as settled), but it is recorded in the history and every admin named in
 * the settlement is alerted, once; the float check shows the difference meanwhile (docs/books.md).
 */
function settlementContradicted(order: Order, event: OrderEvent): TransitionResult {
  const s = order.settled;
  const claimed = event.status;
  if (!s || s.contradictedAt !== undefined || event.source === "admin") return unchanged(order);
  if (claimed === null || !isFinal(claimed)) return unchanged(order);
  if (claimed === order.status) return settlementConfirmed(order, event);
  const note = `the aggregator says ${claimed}, but admin ${s.by} settled it as ${order.status}; no money moved`;
  const entry = entryOf({ ...event, status: null }, note);
  return {
    ...unchanged(order),
    order: {
      ...order,
      settled: { ...s, contradictedAt: event.at },
      history: withHistory(order, entry, true),
      updatedAt: event.at,
    },
    changed: true,
    notifications: s.admins.map((chatId) => ({
      kind: "admin_alert" as const,
      topic: "settle_contradicted" as const,
      reference: order.reference,
      status: order.status,
      chatId,
      at: event.at,
      note: `Order ${order.reference}: ${note} (${event.source}). Check it with the aggregator; the books' float shows the difference.`,
    })),
  };
}

/**
 * The sources whose word is the aggregator's own: answers to our requests (a status query, the
 * reconciler's, an execute). A webhook is signed by a shared secret only: its claim on a final
 * order is confirmed by a status query first (webhook/confirm.ts), whose answer comes as "status".
 */
const AGGREGATOR_ANSWERS: ReadonlySet<OrderEvent["source"]> = new Set([
  "status",
  "reconciler",
  "execute",
]);

/**
 * A final order no admin settled that the aggregator's own final word now contradicts (a success
 * it calls failed: it re-credited its float while the customer stays charged; a failure it calls
 * succeeded: it debited the float for a recharge nobody paid for). Nothing changes status and no
 * money moves: recorded once (`contradicted`, a history entry naming what it said) and alerted to
 * the admins once; what to check and that a correction is an admin's are in the alert's words.
 * `word`: the reversal word the event's "failed" was read from (the history names it).
 */
function finalContradicted(
  order: Order,
  event: OrderEvent,
  admins: readonly number[],
  word?: string,
): TransitionResult {
  const said = event.status;
  if (order.contradicted !== undefined || !AGGREGATOR_ANSWERS.has(event.source))
    return unchanged(order);
  if (said !== "success" && said !== "failed") return unchanged(order);
  if (said === order.status) return unchanged(order);
  const told = admins.length > 0 ? "admins alerted" : "no admin to alert";
  const read = word === undefined ? "" : `, read from "${word}"`;
  const note = `the aggregator says ${said} (${event.source}${read}), but the order is ${order.status}; no money moved, ${told}`;
  return {
    ...unchanged(order),
    order: {
      ...order,
      contradicted: {
        at: event.at,
        said,
        source: event.source,
        ...(word === undefined ? {} : { word }),
      },
      history: withHistory(order, entryOf({ ...event, status: null }, note), true),
      updatedAt: event.at,
    },
    changed: true,
    notifications: admins.map((chatId) => ({
      kind: "admin_alert" as const,
      reference: order.reference,
      status: order.status,
      chatId,
      at: event.at,
      contradicted: said,
      // The alert names what the aggregator answered, not the "failed" it was read as.
      ...(word === undefined ? {} : { word }),
    })),
  };
}

/**
 * A success an admin settled (settle.ts) that the aggregator's own answer now says it reversed
 * ("refunded", reversal.ts): it took the money back, or will, while the customer stays charged, so
 * the customer may be owed a refund. As settlementContradicted: recorded once (`contradictedAt`,
 * a history entry naming the word), no money moved; every admin (the settlement's and those
 * configured now) alerted once through the outbox, in the same write. The alert is worded from
 * the word (bot/order-texts.ts), not from the "failed" it is read as.
 */
function settlementReversed(
  order: Order,
  event: OrderEvent,
  word: string,
  admins: readonly number[],
): TransitionResult {
  const s = order.settled;
  if (!s || s.contradictedAt !== undefined) return unchanged(order);
  const told = [...new Set([...s.admins, ...admins])];
  const note = `the aggregator answers "${word}" (${event.source}): it reversed the success admin ${s.by} settled; no money moved, ${told.length > 0 ? "admins alerted" : "no admin to alert"}`;
  return {
    ...unchanged(order),
    order: {
      ...order,
      settled: { ...s, contradictedAt: event.at, contradictedWord: word },
      history: withHistory(order, entryOf({ ...event, status: null }, note), true),
      updatedAt: event.at,
    },
    changed: true,
    notifications: told.map((chatId) => ({
      kind: "admin_alert" as const,
      reference: order.reference,
      status: order.status,
      chatId,
      at: event.at,
      contradicted: "failed" as const,
      word,
    })),
  };
}

/** History entries a final order keeps for words nobody understood (the rest: `unrecognised`). */
export const MAX_FINAL_WORDS = 5;
const FINAL_WORD_NOTE = "not understood after the order was final";

/**
 * A word nobody understood on a final order (a reversal word on a failed or settled order, or a
 * webhook's not yet confirmed by a status query): it may say the aggregator undid the outcome, so
 * a person reading the order must see it. Recorded in the history (each word from each source
 * once, MAX_FINAL_WORDS at most, so junk cannot fill it) and in the `unrecognised` list; nothing
 * else: only a known final word is the aggregator's contradiction.
 */
function finalWordUnread(order: Order, event: OrderEvent, word: string): TransitionResult {
  const listed = recordUnrecognised(order, event, word);
  const note = `the aggregator said "${word}", ${FINAL_WORD_NOTE} (${order.status}); nothing changed`;
  const kept = order.history.filter((h) => h.status === null && h.note?.includes(FINAL_WORD_NOTE));
  if (
    kept.length >= MAX_FINAL_WORDS ||
    kept.some((h) => h.source === event.source && h.note === note)
  )
    return listed;
  const history = withHistory(order, entryOf({ ...event, status: null }, note));
  // A full history keeps no entry: only the list records the word (else a redelivery, not kept
  // either, would claim a change every time and cost a store write each).
  if (history === order.history) return listed;
  return {
    ...listed,
    order: { ...listed.order, history, updatedAt: event.at },
    changed: true,
  };
}

/**
 * A final order an admin settled that the aggregator's final word now agrees with: recorded once
 * (`confirmedAt`, a history entry), so the reconciler asks no more (settled-watch.ts); nobody is
 * alerted, nothing moves.
 */
function settlementConfirmed(order: Order, event: OrderEvent): TransitionResult {
  const s = order.settled;
  if (!s || s.confirmedAt !== undefined) return unchanged(order);
  const note = `the aggregator agrees: ${order.status}, as admin ${s.by} settled it`;
  return {
    ...unchanged(order),
    order: {
      ...order,
      settled: { ...s, confirmedAt: event.at },
      history: withHistory(order, entryOf({ ...event, status: null }, note)),
      updatedAt: event.at,
    },
    changed: true,
  };
}
