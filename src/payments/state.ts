import {
  completedDiffers,
  contradictsCredit,
  type HeldReason,
  isFinalTopUp,
  SAID,
  TOPUP_CURRENCY,
  type TopUp,
  type TopUpEvent,
  type TopUpStatus,
} from "./model.ts";

/**
 * The top-up state machine: pure, no I/O. The service runs it and the store writes its result and
 * its money effect in one atomic step (store.ts), so a status and its ledger transfer never part.
 *
 * Rules:
 *  - only a lookup's verdict is an event; a browser redirect is not one;
 *  - expired, cancelled and refunded are final; a completed top-up moves only to refunded;
 *  - Completed credits from any open state only when the lookup reports exactly the amount
 *    initiated, within what the caps allow now, and (when the answer carries them) our currency
 *    and our order id; anything else is held: nothing credited until an admin decides;
 *  - a status word the gateway does not document holds an open top-up (nothing credited); a
 *    completed one stays as it is (its refund watch goes on), the word recorded once for the
 *    admins' alert (the money may have gone back: nothing moves on a word nobody documents), as
 *    is a documented word that says it was never paid (`contradictsCredit`), and a Completed
 *    with another amount or transaction id than at the credit (`completedDiffers`);
 *  - held, partial_refund and final top-ups are never moved by a lookup;
 *  - only Refunded says the whole payment went back: after completed it reverses the credit,
 *    before it nothing was credited and nothing is owed. Partially Refunded, and Completed with
 *    `refunded: true`, do not say how much went back: nothing moves money on their word. The
 *    top-up waits in partial_refund for an admin's figure of what the gateway returned
 *    (`decideRefund`): after completed that much is reversed; before it (`uncredited`) the rest of
 *    the payment is credited, or the admin rejects it (`rejectPartialRefund`);
 *  - the same verdict twice changes nothing the second time.
 */

export type Effect =
  | { kind: "credit"; amountPaisa: number; transactionId: string | null; feePaisa: number }
  /**
   * Reverse up to this much (the credit, or a partial refund's returned figure); the service
   * bounds it by the customer's balance.
   */
  | { kind: "reverse"; upToPaisa: number };

export interface Transition {
  topUp: TopUp;
  changed: boolean;
  from: TopUpStatus;
  effect?: Effect;
}

const OPEN: ReadonlySet<TopUpStatus> = new Set(["initiated", "pending"]);

/** Why a Completed lookup may not credit `t` by itself (empty: it may). */
export function heldReasons(t: TopUp, e: TopUpEvent, creditLimitPaisa: number): HeldReason[] {
  const reasons: HeldReason[] = [];
  if (e.totalPaisa !== t.amountPaisa) reasons.push("amount");
  if (e.totalPaisa > creditLimitPaisa) reasons.push("cap");
  if (e.currency !== undefined && e.currency.toUpperCase() !== TOPUP_CURRENCY)
    reasons.push("currency");
  if (e.purchaseOrderId !== undefined && e.purchaseOrderId !== t.id) reasons.push("merchant");
  return reasons;
}

type Move = (status: TopUpStatus, extra?: Partial<TopUp>, effect?: Effect) => Transition;

/** The transition of `t` to another status, at `now`. */
const mover =
  (t: TopUp, now: number): Move =>
  (status, extra = {}, effect) => ({
    topUp: { ...t, ...extra, status, updatedAt: now },
    changed: true,
    from: t.status,
    ...(effect ? { effect } : {}),
  });

/**
 * A lookup's Completed on an open top-up: credited when it matches what was initiated and the
 * caps allow it, otherwise held with what the gateway reported (nothing credited). Null: a
 * Completed without an amount is not believable: nothing to credit, look again.
 */
function completed(
  t: TopUp,
  e: TopUpEvent,
  now: number,
  creditLimitPaisa: number,
  move: Move,
): Transition | null {
  if (e.totalPaisa <= 0) return null;
  const reasons = heldReasons(t, e, creditLimitPaisa);
  if (reasons.length > 0)
    return move("held", {
      held: {
        reasons,
        reportedPaisa: e.totalPaisa,
        transactionId: e.transactionId,
        feePaisa: e.feePaisa,
        ...(e.currency !== undefined ? { currency: e.currency.slice(0, 8) } : {}),
        ...(e.purchaseOrderId !== undefined
          ? { purchaseOrderId: e.purchaseOrderId.slice(0, 128) }
          : {}),
        at: now,
      },
    });
  return move(
    "completed",
    {
      creditedPaisa: e.totalPaisa,
      creditedAt: now,
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
}

/**
 * A status word the gateway does not document, on an open top-up: whether it was paid is not
 * known, so nothing is credited; it is held for an admin (who credits only once the gateway says
 * Completed: held-decision.ts asks it again) rather than looked up for ever with nobody told.
 */
function unknownStatus(e: TopUpEvent, now: number, move: Move): Transition {
  return move("held", {
    held: {
      reasons: ["status"],
      reportedPaisa: e.totalPaisa,
      transactionId: e.transactionId,
      feePaisa: e.feePaisa,
      ...(e.statusWord !== undefined ? { statusWord: e.statusWord.slice(0, 40) } : {}),
      at: now,
    },
  });
}

/**
 * `creditLimitPaisa`: the most the caps let this top-up credit now (TOPUP_MAX_AMOUNT and what the
 * daily cap leaves beside the user's other top-ups of that day).
 */
export function transition(
  t: TopUp,
  e: TopUpEvent,
  now: number,
  creditLimitPaisa: number,
): Transition {
  const same: Transition = { topUp: t, changed: false, from: t.status };
  // A later Refunded does not move partial_refund either: whether it means "the rest too" or
  // repeats the partial one, only the gateway's merchant dashboard says; the admin's figure decides.
  if (isFinalTopUp(t.status) || t.status === "held" || t.status === "partial_refund") return same;
  const move = mover(t, now);
  const refunded =
    e.status === "refunded" ||
    e.status === "partially_refunded" ||
    (e.refunded && e.status === "completed");
  if (refunded) {
    const whole = e.status === "refunded";
    if (whole && t.status === "completed")
      return move("refunded", {}, { kind: "reverse", upToPaisa: t.creditedPaisa ?? 0 });
    if (whole) return move("refunded");
    // The lookup does not say how much went back: reversing the whole credit (or any guess) would
    // take money the customer still owns; before any credit, calling it refunded would keep what
    // the payer may still be owed. Nothing moves money until an admin enters the figure.
    const mayBeWhole = e.status === "completed" ? { mayBeWhole: true } : {};
    if (t.status === "completed")
      return move("partial_refund", { partialRefund: { at: now, ...mayBeWhole } });
    // A refund of a payment without an amount is not believable either: look again.
    if (e.totalPaisa <= 0) return same;
    const uncredited = {
      reportedPaisa: e.totalPaisa,
      transactionId: e.transactionId,
      feePaisa: e.feePaisa,
    };
    return move("partial_refund", { partialRefund: { at: now, ...mayBeWhole, uncredited } });
  }
  if (t.status === "completed" && (e.status === "unknown" || contradictsCredit(e))) {
    if (t.unknownAfterCredit) return same;
    const said = e.status === "unknown" ? e.statusWord : SAID[e.status];
    const word = said !== undefined ? { statusWord: said.slice(0, 40) } : {};
    const contradicts = e.status === "unknown" ? {} : { contradicts: true as const };
    return {
      topUp: { ...t, unknownAfterCredit: { ...word, ...contradicts, at: now }, updatedAt: now },
      changed: true,
      from: t.status,
    };
  }
  if (completedDiffers(t, e)) {
    if (t.unknownAfterCredit) return same;
    const differs = { reportedPaisa: e.totalPaisa, transactionId: e.transactionId };
    return {
      topUp: {
        ...t,
        unknownAfterCredit: { statusWord: SAID.completed, differs, at: now },
        updatedAt: now,
      },
      changed: true,
      from: t.status,
    };
  }
  if (!OPEN.has(t.status)) return same;
  switch (e.status) {
    case "completed":
      return completed(t, e, now, creditLimitPaisa, move) ?? same;
    case "pending":
      return t.status === "initiated" ? move("pending") : same;
    case "expired":
      return move("expired");
    case "cancelled":
      return move("cancelled");
    case "unknown":
      return unknownStatus(e, now, move);
    default:
      return same;
  }
}

export type Decision = "credit_initiated" | "credit_paid" | "reject";

export type DecisionResult =
  | { ok: true; transition: Transition }
  | { ok: false; reason: "not_held" | "paid_less" | "above_cap" | "currency" };

/**
 * An admin's decision on a held top-up: credit what was initiated (only when at least that was
 * paid), credit what the gateway reports was paid (only within the caps and in our currency), or
 * reject (nothing credited; a refund is made at the gateway, not here). Pure, like `transition`.
 */
export function decide(
  t: TopUp,
  d: Decision,
  adminId: number,
  now: number,
  creditLimitPaisa: number,
): DecisionResult {
  if (t.status !== "held" || !t.held) return { ok: false, reason: "not_held" };
  const decision = { kind: d, adminId, at: now };
  const move = (status: TopUpStatus, extra: Partial<TopUp>, effect?: Effect): DecisionResult => ({
    ok: true,
    transition: {
      topUp: { ...t, ...extra, status, decision, updatedAt: now },
      changed: true,
      from: t.status,
      ...(effect ? { effect } : {}),
    },
  });
  if (d === "reject") return move("rejected", {});
  const h = t.held;
  let amount: number;
  if (d === "credit_initiated") {
    if (h.reportedPaisa < t.amountPaisa) return { ok: false, reason: "paid_less" };
    amount = t.amountPaisa;
  } else {
    if (h.reasons.includes("currency")) return { ok: false, reason: "currency" };
    amount = h.reportedPaisa;
  }
  if (amount > creditLimitPaisa) return { ok: false, reason: "above_cap" };
  const credit: Effect = {
    kind: "credit",
    amountPaisa: amount,
    transactionId: h.transactionId,
    feePaisa: h.feePaisa,
  };
  return move(
    "completed",
    {
      creditedPaisa: amount,
      creditedAt: now,
      feePaisa: h.feePaisa,
      ...(h.transactionId ? { transactionId: h.transactionId } : {}),
    },
    credit,
  );
}

export type RefundDecisionResult =
  | { ok: true; transition: Transition }
  | { ok: false; reason: "not_partial" | "amount" | "above_cap" };

/**
 * An admin's figure for a partial refund: what the gateway returned, more than 0. The top-up
 * becomes refunded. After a credit (at most what was credited) exactly that is reversed, bounded
 * by the balance, as a full refund. Before any credit (`uncredited`; at most what the payer paid)
 * the rest is credited, as a completed top-up's credit and within the caps (`creditLimitPaisa`,
 * as a held top-up's credit); all of it returned: nothing is credited. Pure, like `transition`.
 */
export function decideRefund(
  t: TopUp,
  returnedPaisa: number,
  adminId: number,
  now: number,
  creditLimitPaisa = 0,
): RefundDecisionResult {
  if (t.status !== "partial_refund" || !t.partialRefund)
    return { ok: false, reason: "not_partial" };
  const u = t.partialRefund.uncredited;
  const most = u ? u.reportedPaisa : (t.creditedPaisa ?? 0);
  if (!Number.isSafeInteger(returnedPaisa) || returnedPaisa <= 0 || returnedPaisa > most)
    return { ok: false, reason: "amount" };
  const partialRefund = { ...t.partialRefund, decision: { returnedPaisa, adminId, at: now } };
  const refunded = (extra: Partial<TopUp>, effect?: Effect): RefundDecisionResult => ({
    ok: true,
    transition: {
      topUp: { ...t, ...extra, partialRefund, status: "refunded", updatedAt: now },
      changed: true,
      from: t.status,
      ...(effect ? { effect } : {}),
    },
  });
  if (!u) return refunded({}, { kind: "reverse", upToPaisa: returnedPaisa });
  const rest = u.reportedPaisa - returnedPaisa;
  if (rest === 0) return refunded({});
  if (rest > creditLimitPaisa) return { ok: false, reason: "above_cap" };
  return refunded(
    {
      creditedPaisa: rest,
      feePaisa: u.feePaisa,
      ...(u.transactionId ? { transactionId: u.transactionId } : {}),
    },
    { kind: "credit", amountPaisa: rest, transactionId: u.transactionId, feePaisa: u.feePaisa },
  );
}

export type RejectPartialResult =
  | { ok: true; transition: Transition }
  | { ok: false; reason: "not_partial" | "credited" };

/**
 * An admin's rejection of a partial refund seen before any credit: nothing is credited (the rest
 * is refunded at the gateway, not here), as a held top-up's rejection. A partial refund after a
 * credit has money to take back: only a figure ends it. Pure, like `transition`.
 */
export function rejectPartialRefund(t: TopUp, adminId: number, now: number): RejectPartialResult {
  if (t.status !== "partial_refund" || !t.partialRefund)
    return { ok: false, reason: "not_partial" };
  if (!t.partialRefund.uncredited) return { ok: false, reason: "credited" };
  return {
    ok: true,
    transition: {
      topUp: {
        ...t,
        status: "rejected",
        decision: { kind: "reject", adminId, at: now },
        updatedAt: now,
      },
      changed: true,
      from: t.status,
    },
  };
}

/** The admins' alert a top-up's status calls for, and the field that records who has it. */
export interface StatusAlert {
  reason: "held" | "partial_refund" | "refund" | "unknown_status" | "stuck";
  field: "heldAlert" | "partialAlert" | "refundAlert" | "unknownAlert" | "stuckAlert";
}

/**
 * The admins' alert `t`'s status calls for (held, a partial refund, a refund's reversal, an
 * unknown word after a credit, still open with no end in sight once the reconciler owed it); null:
 * none, or it was recorded as sent to every admin (the older flags `heldAlerted`,
 * `partialRefund.alerted` and `stuckAlerted` included). An open top-up that ends meanwhile owes
 * the stuck alert no more: its end is told as any other.
 */
export function owedAlert(t: TopUp): StatusAlert | null {
  const a: StatusAlert | null =
    t.status === "held" && !t.heldAlerted
      ? { reason: "held", field: "heldAlert" }
      : t.status === "partial_refund" && !t.partialRefund?.alerted
        ? { reason: "partial_refund", field: "partialAlert" }
        : t.status === "refunded" && t.reversedPaisa !== undefined
          ? { reason: "refund", field: "refundAlert" }
          : t.status === "completed" && t.unknownAfterCredit
            ? { reason: "unknown_status", field: "unknownAlert" }
            : needsLookup(t) && t.stuckAlert && !t.stuckAlerted
              ? { reason: "stuck", field: "stuckAlert" }
              : null;
  return a && !t[a.field]?.done ? a : null;
}

/** Whether the reconciler still has to look at it: open, or completed and a refund may come. */
export function needsLookup(t: TopUp): boolean {
  return OPEN.has(t.status);
}

/** Whether the customer still has to hear of its current status. */
export function needsPush(t: TopUp): boolean {
  // A refund's shortfall taken back later: the customer hears of each taking (review s31-pay, 4b).
  const r = t.refundRecovery;
  if (t.status === "refunded" && r && r.toldPaisa < r.takenPaisa) return true;
  return t.status !== "initiated" && t.status !== "pending" && t.notified !== t.status;
}
