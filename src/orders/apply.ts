import type { OrdersContext } from "./context.ts";
import { FIGURES_OFF_NOTE } from "./figures-check.ts";
import {
  isFinal,
  type Notification,
  type Order,
  type OrderEvent,
  orderEventSchema,
} from "./model.ts";
import { collisionNoteOf } from "./owed.ts";
import { refundBeforeWord, withRefund } from "./refund-told.ts";
import { transition } from "./state.ts";
import type { UpdateResult } from "./store.ts";
import { takenTransactionEvent } from "./taken-transaction.ts";
import { unchanged } from "./transition-kit.ts";

/**
 * The one door through which every outcome passes (an execute answer, a webhook, a status query,
 * the reconciler): the only code that changes a status and the only producer of notifications.
 */

/**
 * An event plus how to find its order: by reference (ours or the execute reference), else by
 * `byTransactionId`, else by the event's own transactionId. `byTransactionId` only finds the order;
 * it is not recorded on it (an unconfirmed claim must not plant a transaction id).
 */
type ApplyInput = OrderEvent & { reference?: string; byTransactionId?: string };

type ApplyOutcome =
  /** The status moved (notifications were queued). */
  | "changed"
  /** Recorded in the history or filled a missing field, status unchanged. */
  | "recorded"
  /** Nothing to do: duplicate, stale, final order or precondition not met. */
  | "unchanged"
  /** No such order: the event was kept for an admin. */
  | "unmatched";

interface ApplyResult {
  outcome: ApplyOutcome;
  order: Order | null;
  notifications: Notification[];
}

export type Apply = (input: ApplyInput, known?: Order) => Promise<ApplyResult>;

const UNMATCHED: ApplyResult = { outcome: "unmatched", order: null, notifications: [] };

/**
 * Idempotent. `known`: the order the caller has just written or read (the read is saved; a stale
 * one only costs a retry of the compare-and-set). Without it, the order this process last wrote or
 * read plays that part (recent.ts).
 */
export function createApply(ctx: OrdersContext): Apply {
  const { store, recent } = ctx;

  async function find(reference: string | undefined, transactionId: string | undefined) {
    if (reference !== undefined) {
      const o = await store.get(reference);
      if (o) return o;
    }
    if (transactionId !== undefined) return store.getByTransactionId(transactionId);
    return null;
  }

  async function applyOnce(input: ApplyInput, known?: Order, hints = true): Promise<ApplyResult> {
    const { reference, byTransactionId, ...rest } = input;
    const event = orderEventSchema.parse(rest);
    const transactionId = byTransactionId ?? event.transactionId;
    const given = known !== undefined && known.reference === reference ? known : undefined;
    const hinted = given || !hints ? undefined : recent.hint(reference);
    const order = given ?? hinted ?? (await find(reference, transactionId));
    if (!order) {
      await recordUnmatched(ctx, event, reference, transactionId);
      return UNMATCHED;
    }

    let statusChanged = false;
    let from = order.status;
    let figuresOff: string | undefined;
    let adminNote: string | undefined;
    const refund = await refundBeforeWord(ctx, order, event);
    const result = await store.update(
      order.reference,
      (current, taken) => {
        // The event's transaction id is another order's (the store refused the write): recorded
        // and told instead of applied (taken-transaction.ts).
        const e = taken ? takenTransactionEvent(current, event, taken) : event;
        const t = e ? transition(current, e, ctx.adminChatIds) : unchanged(current);
        statusChanged = t.statusChanged;
        from = t.from;
        figuresOff = t.figuresOff;
        adminNote = t.adminNote;
        if (!t.changed) return null;
        // The admins' note is owed its count with the write: a crash before it leaves the mark.
        const owes = t.adminNote === undefined ? [] : [collisionNoteOf(t.order)];
        return { order: t.order, notifications: withRefund(t.notifications, refund), owes };
      },
      order,
    );
    if (!result) return hinted ? applyOnce(input, undefined, false) : UNMATCHED;
    // "Nothing to do" judged on a remembered order is judged again on a fresh read: another
    // process may have moved the order on since, and a write would have found that out, a no-op not.
    if (!result.updated && hinted) return applyOnce(input, undefined, false);
    if (!result.updated) return { outcome: "unchanged", order: result.order, notifications: [] };
    reportWrite(ctx, result);
    const owed = result.owed ?? [];
    if (figuresOff !== undefined)
      await tellFiguresOff(ctx, result.order, figuresOff, owed.includes(FIGURES_OFF_NOTE));
    if (adminNote !== undefined)
      await tellAdmins(ctx, result.order, adminNote, owed.includes(collisionNoteOf(result.order)));
    if (isFinal(from) && !statusChanged) reportFinalWord(ctx, event, result.order);
    if (statusChanged) reportTransition(ctx, event, from, result.order);
    return {
      outcome: statusChanged ? "changed" : "recorded",
      order: result.order,
      notifications: result.notifications,
    };
  }

  return async function apply(input, known) {
    const result = await applyOnce(input, known);
    recent.remember(result.order);
    return result;
  };
}

/** An event naming no known order is kept for an admin (listUnmatched). */
async function recordUnmatched(
  ctx: OrdersContext,
  event: OrderEvent,
  reference: string | undefined,
  transactionId: string | undefined,
): Promise<void> {
  await ctx.store.recordUnmatched({
    source: event.source,
    ...(reference === undefined ? {} : { reference }),
    ...(transactionId === undefined ? {} : { transactionId }),
    ...(event.status === null ? {} : { status: event.status }),
    receivedAt: ctx.now(),
    ...(event.note === undefined ? {} : { note: event.note }),
    ...(event.unrecognised === undefined
      ? {}
      : { note: `unrecognised status "${event.unrecognised}"` }),
  });
  ctx.log?.warn(
    { reference, transactionId, source: event.source, status: event.status },
    "event for an unknown order recorded",
  );
}

/** The books written with the update: a refusal cannot happen by construction, so it is loud. */
function reportWrite(ctx: OrdersContext, result: UpdateResult): void {
  const reference = result.order.reference;
  if (result.settlement && !result.settlement.ok) {
    // The hold is created with the order, so it can always be settled.
    ctx.log?.error(
      { reference, refusal: result.settlement.refusal },
      "the order's hold could not be settled",
    );
  }
  for (const b of result.bookings ?? []) {
    // Ids derive from the reference and the fields from the order: a refusal is a bug.
    if (!b.ok) ctx.log?.error({ reference, refusal: b.refusal }, "an order's booking was refused");
  }
}

/**
 * What a written event on a final order may be: the aggregator's contradiction recorded now (a
 * person must look; the admins were alerted through the outbox), or a word nobody understood.
 */
function reportFinalWord(ctx: OrdersContext, event: OrderEvent, order: Order): void {
  const contradictedNow =
    order.contradicted?.at === event.at || order.settled?.contradictedAt === event.at;
  if (contradictedNow) {
    ctx.log?.error(
      {
        reference: order.reference,
        stored: order.status,
        said: event.status ?? event.unrecognised,
        source: event.source,
        settled: order.settled !== undefined,
        admins: order.settled ? order.settled.admins.length : ctx.adminChatIds.length,
      },
      "the aggregator's answer contradicts a final order: recorded, admins alerted, no money moved",
    );
  } else if (event.unrecognised !== undefined) {
    ctx.log?.warn(
      {
        reference: order.reference,
        stored: order.status,
        word: event.unrecognised,
        source: event.source,
      },
      "a word nobody understood on a final order: recorded in its history",
    );
  }
}

function reportTransition(
  ctx: OrdersContext,
  event: OrderEvent,
  from: Order["status"],
  order: Order,
): void {
  ctx.metrics.transitions.inc({ from, to: order.status, source: event.source });
  // Strings only (transitionLog): the note is ours, never an object.
  ctx.transitionLog?.info(
    { reference: order.reference, from, to: order.status, source: event.source, note: event.note },
    "order status changed",
  );
}

/**
 * The admins told of an order whose booked figures are off (recorded on it in the same write).
 * After the write, not with it: the alert goes within an overall limit kept apart from the order
 * (books/figures-off.ts). The write marked the order owed its count (`owed`): a crash or an error
 * here leaves the mark, and the reconciler's flush counts the order (books/hourly-alert.ts).
 */
async function tellFiguresOff(
  ctx: OrdersContext,
  order: Order,
  off: string,
  owed: boolean,
): Promise<void> {
  ctx.log?.warn({ reference: order.reference, off }, "the aggregator's figures are off");
  try {
    await ctx.onFiguresOff?.({ order, off, at: ctx.now(), ...(owed ? { owed } : {}) });
  } catch (err) {
    ctx.log?.error({ err: String(err), reference: order.reference }, "figures alert not sent");
  }
}

/**
 * The admins told of a step's note (an execute refused for a reference the aggregator already
 * holds), after the write, within an overall limit (books/collision-alert.ts): a counter set back
 * refuses order after order. The write marked the order owed its count (`owed`, owed.ts): a crash
 * or an error here leaves the mark, and the reconciler's flush tells or counts the order.
 */
async function tellAdmins(
  ctx: OrdersContext,
  order: Order,
  note: string,
  owed: boolean,
): Promise<void> {
  ctx.log?.warn({ reference: order.reference, note }, "an order's note for the admins");
  try {
    await ctx.onAdminNote?.({ order, note, at: ctx.now(), ...(owed ? { owed } : {}) });
  } catch (err) {
    ctx.log?.error({ err: String(err), reference: order.reference }, "admins' note not sent");
  }
}
