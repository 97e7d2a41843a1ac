import { isFinalTopUp, type TopUp, type TopUpEvent, type TopUpStatus } from "./model.ts";

/**
 * The top-up state machine: pure, no I/O. The service runs it and the store writes its result and
 * its money effect in one atomic step (store.ts), so a status and its ledger transfer never part.
 *
 * Rules:
 *  - only a lookup's verdict is an event; a browser redirect is not one;
 *  - expired, cancelled and refunded are final; a completed top-up moves only to refunded;
 *  - Completed credits exactly what the lookup reports (total_amount), from any open state;
 *  - Refunded or Partially Refunded (or `refunded: true`) after completed reverses the credit;
 *    before completed nothing was credited, so nothing is reversed;
 *  - the same verdict twice changes nothing the second time.
 */

export type Effect =
  | { kind: "credit"; amountPaisa: number; transactionId: string | null; feePaisa: number }
  /** Reverse up to the credited amount; the service bounds it by the customer's balance. */
  | { kind: "reverse"; creditedPaisa: number };

export interface Transition {
  topUp: TopUp;
  changed: boolean;
  from: TopUpStatus;
  effect?: Effect;
}

const OPEN: ReadonlySet<TopUpStatus> = new Set(["initiated", "pending"]);

export function transition(t: TopUp, e: TopUpEvent, now: number): Transition {
  const same: Transition = { topUp: t, changed: false, from: t.status };
  if (isFinalTopUp(t.status)) return same;
  const move = (status: TopUpStatus, extra: Partial<TopUp> = {}, effect?: Effect): Transition => ({
    topUp: { ...t, ...extra, status, updatedAt: now },
    changed: true,
    from: t.status,
    ...(effect ? { effect } : {}),
  });
  const refunded =
    e.status === "refunded" ||
    e.status === "partially_refunded" ||
    (e.refunded && e.status === "completed");
  if (refunded) {
    if (t.status === "completed")
      return move("refunded", {}, { kind: "reverse", creditedPaisa: t.creditedPaisa ?? 0 });
    return move("refunded");
  }
  if (!OPEN.has(t.status)) return same;
  switch (e.status) {
    case "completed":
      // A Completed lookup without an amount is not believable: nothing to credit, look again.
      if (e.totalPaisa <= 0) return same;
      return move(
        "completed",
        {
          creditedPaisa: e.totalPaisa,
          feePaisa: e.feePaisa,
          ...(e.transactionId ? { transactionId: e.transactionId } : {}),
        },
        {
          kind: "credit",
          amountPaisa: e.totalPaisa,
          transactionId: e.transactionId,
          feePaisa: e.feePaisa,
        },
      );
    case "pending":
      return t.status === "initiated" ? move("pending") : same;
    case "expired":
      return move("expired");
    case "cancelled":
      return move("cancelled");
    default:
      return same;
  }
}

/** Whether the reconciler still has to look at it: open, or completed and a refund may come. */
export function needsLookup(t: TopUp): boolean {
  return OPEN.has(t.status);
}

/** Whether the customer still has to hear of its current status. */
export function needsPush(t: TopUp): boolean {
  return t.status !== "initiated" && t.status !== "pending" && t.notified !== t.status;
}
