import { formatRupees } from "../money.ts";
import type { OrderRefund, OrdersContext } from "./context.ts";
import type { Notification, Order, OrderEvent } from "./model.ts";

/**
 * A contradiction's alert on a successful order tells the complaint refund already booked for it
 * (review s33-rvcomp 5): "the customer may be owed a refund" read beside a refund already paid
 * led an admin to pay the customer again (a /credit on top of the complaint's refund). The
 * notifier's words are synchronous, so the refund is read here, before the write that queues the
 * alert, and carried in the alert itself.
 */

/**
 * Whether the event may contradict the order's success for the first time (final-order.ts): only
 * then is the refund read (a late word on a successful order is rare; an order's other events
 * cost nothing more).
 */
function mayContradict(order: Order, event: OrderEvent): boolean {
  if (order.status !== "success" || event.status === "success") return false;
  if (order.contradicted !== undefined || order.settled?.contradictedAt !== undefined) return false;
  return event.status === "failed" || event.unrecognised !== undefined;
}

/** The complaint refund already booked for the order, when the event may contradict it. */
export async function refundBeforeWord(
  ctx: Pick<OrdersContext, "refundOf" | "log">,
  order: Order,
  event: OrderEvent,
): Promise<OrderRefund | null> {
  if (!ctx.refundOf || !mayContradict(order, event)) return null;
  try {
    return await ctx.refundOf(order.reference);
  } catch (err) {
    // Not known: the alert says what it said before ("may be owed"), the refund screens still
    // show the complaint's refund; the order's event is not held up by the complaints' store.
    ctx.log?.warn({ reference: order.reference, err: String(err) }, "refund not read for alert");
    return null;
  }
}

/**
 * The refund added to a contradiction's alerts (the aggregator calls the success failed, or an
 * admin's settled success reversed); a settlement's contradiction says it in its note.
 */
export function withRefund(
  notifications: Notification[],
  refund: OrderRefund | null,
): Notification[] {
  if (!refund) return notifications;
  return notifications.map((n) => {
    if (n.kind !== "admin_alert") return n;
    if (n.contradicted === "failed") return { ...n, refund };
    if (n.topic === "settle_contradicted" && n.status === "success")
      return { ...n, note: `${n.note ?? ""} ${refundNote(refund)}`.trim() };
    return n;
  });
}

/** A settlement's contradiction's words about the refund already booked (its note is English). */
function refundNote(r: OrderRefund): string {
  return `Complaint ${r.complaint} already refunded ${formatRupees(r.paisa)} of it to the customer: do not refund that again.`;
}
