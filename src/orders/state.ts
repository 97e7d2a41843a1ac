import { OTHER_RECHARGE_PREFIX } from "./answer-fits.ts";
import { withFiguresCheck } from "./figures-check.ts";
import { finalOrderStep } from "./final-order.ts";
import { inferredWallet } from "./inferred-debit.ts";
import {
  isFinal,
  type Notification,
  type Order,
  type OrderEvent,
  type OrderStatus,
  RECEIPT_RANK,
  STATUS_RANK,
} from "./model.ts";
import {
  entryOf,
  recordUnrecognised,
  sameEntry,
  type TransitionResult,
  unchanged,
  withHistory,
} from "./transition-kit.ts";

export { MAX_FINAL_WORDS } from "./final-order.ts";
export { MAX_HISTORY, MAX_UNRECOGNISED, type TransitionResult } from "./transition-kit.ts";

/**
 * The order state machine: pure, no I/O. `transition` is the only place a status changes and the
 * only producer of notifications; the store runs it inside its compare-and-set loop so the outcome
 * and its outbox entries are written in one atomic step.
 *
 * Rules:
 *  - forward only by rank (placed < submitting < unknown < queued < pending < success = failed);
 *  - success and failed are final: nothing changes a final order;
 *  - an event already in the history (same source, status and note) is a no-op, so applying the
 *    same event twice equals applying it once;
 *  - a known transaction id that disagrees with the event's is suspicious: recorded, not applied;
 *  - a status word nobody understood goes to the order's own bounded `unrecognised` list, never
 *    into the history, so a flood of junk cannot crowd real events out of it;
 *  - the provider message is the one of the event that set the current status (or none): a
 *    failure is never explained by an earlier event's words such as "accepted and queued";
 *  - an admin's settlement (settle.ts) is an event like any other (source "admin"); a proposal
 *    of one (maker-checker) only records and tells; an approval of a proposal withdrawn meanwhile
 *    does nothing; a later claim opposite to a settled outcome is recorded and alerted once and
 *    changes nothing else; so is the aggregator's own final word (never a webhook's claim alone)
 *    opposite to any other final order, and a word nobody understood on a final order is kept
 *    in its history (a few at most).
 */

/**
 * States the user is told about: edits of the receipt, and the final message; a move between two
 * states the receipt words alike (RECEIPT_RANK) is not told.
 */
const NOTIFIED: ReadonlySet<OrderStatus> = new Set([
  "unknown",
  "queued",
  "pending",
  "success",
  "failed",
]);

/**
 * A proposal declined by another admin, told to its proposer (else they would wait on it for
 * good). The topic is settle_proposed's: its note says it all, and no new topic is another shape
 * an older notifier would drop (docs/deploying.md).
 */
function declinedAlert(
  order: Order,
  withdraw: NonNullable<OrderEvent["withdraw"]>,
  at: number,
): Notification[] {
  const p = order.settleProposal;
  if (!p || !withdraw.declined) return [];
  return [
    {
      kind: "admin_alert",
      topic: "settle_proposed",
      reference: order.reference,
      status: order.status,
      chatId: p.by,
      at,
      note: `Order ${order.reference}: admin ${withdraw.by} declined your proposal to settle it as ${p.outcome} (${p.reason}). Nothing moved; /settle ${order.reference} to propose again.`,
    },
  ];
}

/**
 * Maker-checker (settle.ts): an admin's proposal to settle an open order, recorded with its
 * history entry and told to the other admins (one proposal at a time), or withdrawn/declined.
 * Null: the event is neither.
 */
function proposalStep(order: Order, event: OrderEvent): TransitionResult | null {
  const { propose, withdraw } = event;
  if (!propose && !withdraw) return null;
  if (propose && order.settleProposal) return unchanged(order);
  const p = order.settleProposal;
  // A withdrawal or decline names the proposal it acts on: one gone, or made anew meanwhile (by
  // its admin or another), is not the one its admin saw.
  if (withdraw && (!p || p.by !== withdraw.proposal.by || p.at !== withdraw.proposal.at))
    return unchanged(order);
  const note = propose
    ? `settlement proposed by admin ${propose.by} as ${propose.outcome}: ${propose.reason}`
    : `settlement proposal of admin ${p?.by} withdrawn by admin ${withdraw?.by}`;
  const next: Order = {
    ...order,
    history: withHistory(order, entryOf({ ...event, status: null }, note.slice(0, 300))),
    updatedAt: event.at,
  };
  if (propose) {
    next.settleProposal = {
      by: propose.by,
      outcome: propose.outcome,
      reason: propose.reason,
      at: event.at,
    };
  } else delete next.settleProposal;
  const notifications: Notification[] = withdraw
    ? declinedAlert(order, withdraw, event.at)
    : (propose?.admins ?? [])
        .filter((admin) => admin !== propose?.by)
        .map((chatId) => ({
          kind: "admin_alert",
          topic: "settle_proposed",
          reference: order.reference,
          status: order.status,
          chatId,
          at: event.at,
          note: `Order ${order.reference}: admin ${propose?.by} proposes to settle it as ${propose?.outcome}: ${propose?.reason}. Nothing moves until another admin approves it: /settle ${order.reference}`,
        }));
  return { ...unchanged(order), order: next, changed: true, notifications };
}

/**
 * An approval names the proposal it approves (its admin and time): withdrawn, declined or made
 * anew meanwhile, it does nothing.
 */
function approvalStale(order: Order, event: OrderEvent): boolean {
  const s = event.settle;
  if (!s || s.approvedBy === undefined) return false;
  const p = order.settleProposal;
  return (
    !p ||
    p.by !== s.by ||
    p.at !== s.proposedAt ||
    p.outcome !== event.status ||
    p.reason !== s.reason
  );
}

/**
 * An admin's settlement told to the other admins (a proposer learns of the approval), not to the
 * admin who just did it (the approver, or the one who decided alone): one admin's decision on
 * money is seen by the rest (docs/books.md).
 */
function settledAlerts(
  order: Order,
  next: Order,
  s: NonNullable<OrderEvent["settle"]>,
  at: number,
): Notification[] {
  const approved = s.approvedBy === undefined ? "" : `, approved by admin ${s.approvedBy}`;
  const note = `Order ${order.reference} was settled as ${next.status} by admin ${s.by}${approved}: ${s.reason} (the aggregator said: ${s.aggregator}).`;
  return s.admins
    .filter((admin) => admin !== (s.approvedBy ?? s.by))
    .map((chatId) => ({
      kind: "admin_alert",
      topic: "order_settled",
      reference: order.reference,
      status: next.status,
      chatId,
      at,
      note,
    }));
}

/**
 * What is decided before the event's status is weighed: a final order (a late wallet, a
 * contradicted settlement), a precondition not met, a word nobody understood, a settlement
 * proposal, a stale approval, a transaction id that disagrees. Null: none of these.
 */
function decidedEarly(
  order: Order,
  event: OrderEvent,
  admins: readonly number[],
): TransitionResult | null {
  // An answer about another recharge says nothing of a final order: not even a contradiction.
  if (isFinal(order.status))
    return event.otherRecharge ? unchanged(order) : finalOrderStep(order, event, admins);
  if (event.expect && !event.expect.includes(order.status)) return unchanged(order);
  if (event.otherRecharge) return otherRechargeStep(order, event);
  if (event.unrecognised !== undefined) return recordUnrecognised(order, event, event.unrecognised);
  const proposal = proposalStep(order, event);
  if (proposal) return proposal;
  if (approvalStale(order, event)) return unchanged(order);
  if (
    event.transactionId !== undefined &&
    order.transactionId !== undefined &&
    event.transactionId !== order.transactionId
  ) {
    // Same reference, different transaction: a forged or misrouted event. Keep a trace only.
    const mismatch: OrderEvent = {
      source: event.source,
      status: null,
      at: event.at,
      note: `transaction id mismatch (${event.status ?? "no status"})`,
      ...(event.payload === undefined ? {} : { payload: event.payload }),
    };
    if (order.history.some((h) => sameEntry(h, mismatch))) return unchanged(order);
    const history = withHistory(order, entryOf(mismatch));
    // A full history keeps no trace: nothing changed (else every redelivery is a store write).
    if (history === order.history) return unchanged(order);
    return {
      ...unchanged(order),
      order: { ...order, history, updatedAt: event.at },
      changed: true,
    };
  }
  return null;
}

/**
 * A status answer about another recharge on an open order (provider-events.ts): recorded, never
 * applied. The same answer again, whoever brings it (the reconciler each tick, a webhook's
 * confirmation, /settle), writes nothing; the admins' note goes with the first such answer on
 * the order only, so repeated passes alert nobody again. A full history records nothing and so
 * tells nothing (else every pass would).
 */
function otherRechargeStep(order: Order, event: OrderEvent): TransitionResult {
  const note = event.note ?? "";
  if (order.history.some((h) => h.note === note)) return unchanged(order);
  const history = withHistory(order, entryOf(event));
  if (history === order.history) return unchanged(order);
  const first = !order.history.some((h) => h.note?.startsWith(OTHER_RECHARGE_PREFIX));
  return {
    ...unchanged(order),
    order: { ...order, history, updatedAt: event.at },
    changed: true,
    ...(first && event.adminNote !== undefined ? { adminNote: event.adminNote } : {}),
  };
}

/**
 * `admins`: who is alerted when the aggregator's word contradicts a final order no admin settled
 * (ADMIN_IDS; a settled order alerts the admins its settlement names).
 */
export function transition(
  order: Order,
  event: OrderEvent,
  admins: readonly number[] = [],
): TransitionResult {
  // The aggregator's figures, once recorded, checked against what the order asked.
  return withFiguresCheck(order, step(order, event, admins), event.at);
}

function step(order: Order, event: OrderEvent, admins: readonly number[]): TransitionResult {
  const early = decidedEarly(order, event, admins);
  if (early) return early;

  const isDuplicate = order.history.some((h) => sameEntry(h, event));
  const moves = event.status !== null && STATUS_RANK[event.status] > STATUS_RANK[order.status];
  const flags = event.flag !== undefined && order.flaggedAt === undefined;
  if (isDuplicate && !moves && !flags) return unchanged(order);

  const next: Order = { ...order, updatedAt: event.at };
  const notifications: Notification[] = [];

  if (moves && event.status !== null) {
    next.status = event.status;
    if (event.status === "submitting") next.submittedAt = event.at;
    // The new status's own words or none; the old ones described another status.
    if (event.providerMessage !== undefined) next.providerMessage = event.providerMessage;
    else delete next.providerMessage;
    if (event.floatShort) next.floatShort = true;
    else delete next.floatShort;
    // A move the receipt would not show (queued -> pending with the same transaction id: both
    // read "with the operator", RECEIPT_RANK) is recorded, not sent: an edit to the same text.
    const shownAlike =
      RECEIPT_RANK[event.status] === RECEIPT_RANK[order.status] &&
      (event.transactionId === undefined || event.transactionId === order.transactionId);
    if (NOTIFIED.has(event.status) && !shownAlike) {
      notifications.push({
        kind: "status",
        reference: order.reference,
        status: event.status,
        chatId: order.chatId,
        at: event.at,
      });
    }
  } else if (
    event.providerMessage !== undefined &&
    event.status === order.status &&
    next.providerMessage === undefined
  ) {
    // A late event about the current status may still bring its words.
    next.providerMessage = event.providerMessage;
  }
  // Facts the provider told us are kept even when the status does not move (e.g. a late
  // execute response that arrives after the webhook already said success).
  if (event.transactionId !== undefined && next.transactionId === undefined) {
    next.transactionId = event.transactionId;
  }
  if (event.wallet !== undefined && next.wallet === undefined) next.wallet = event.wallet;
  // Every success carries the aggregator's debit, so the books book it in this same step: its own
  // figures when an answer gave them, else inferred from the order (its execute answer was lost).
  if (moves && next.status === "success" && next.wallet === undefined)
    next.wallet = inferredWallet(order);

  // A proposal waiting for approval is moot once the order is final, whoever made it so.
  if (moves && isFinal(next.status)) delete next.settleProposal;
  if (moves && event.settle && isFinal(next.status)) {
    next.settled = { ...event.settle, at: event.at };
    notifications.push(...settledAlerts(order, next, event.settle, event.at));
  }
  if (flags && event.flag) {
    next.flaggedAt = event.at;
    for (const admin of event.flag.adminChatIds) {
      notifications.push({
        kind: "admin_alert",
        reference: order.reference,
        status: next.status,
        chatId: admin,
        at: event.at,
        ...(event.note === undefined ? {} : { note: event.note }),
      });
    }
  }
  if (!isDuplicate) next.history = withHistory(order, entryOf(event));

  const same =
    !moves &&
    !flags &&
    next.history === order.history &&
    next.transactionId === order.transactionId &&
    next.wallet === order.wallet &&
    next.providerMessage === order.providerMessage;
  if (same) return unchanged(order);

  return {
    order: next,
    changed: true,
    statusChanged: moves,
    from: order.status,
    notifications,
    // A restore's counter set back refuses order after order: told after the write, at most one
    // alert an hour (apply.ts, books/hourly-alert.ts), not one per order per admin. Told by the
    // step that moves the order or first records the event (an answer about another order's
    // transaction may move nothing: taken-transaction.ts), so once.
    ...((moves || next.history !== order.history) && event.adminNote !== undefined
      ? { adminNote: event.adminNote }
      : {}),
  };
}
