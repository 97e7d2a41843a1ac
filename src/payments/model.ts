import { z } from "zod";
import { type LookupStatus, paymentIdSchema } from "./gateway/port.ts";

/**
 * A top-up: a customer adding money to their balance through a gateway's web checkout. It has its
 * own states, changed only by `transition` (state.ts) as the top-up service applies it:
 *
 *   initiated ─▶ pending ─▶ completed ─▶ refunded
 *       │           │            ▲    │         ▲
 *       │           │            │    └─▶ partial_refund   (an admin enters what was returned)
 *       │           ├─▶ held ────┴─▶ rejected      (an admin decides)
 *       │           ├─▶ partial_refund ─▶ refunded | rejected (refunded in part before we looked)
 *       └───────────┴─▶ expired | cancelled | refunded (paid and refunded before we looked)
 *
 * Only a gateway lookup moves it (never the browser's redirect), except held, which only an
 * admin's decision moves. `completed` is the one state that credits the customer, once; a lookup
 * credits only when it reports exactly what was initiated, within the caps, in our currency and for
 * our order: anything else is `held` (nothing credited, the admins alerted). `refunded` after
 * `completed` reverses that credit. A partial refund (or a refund whose amount the lookup does not
 * say) moves it to `partial_refund` instead: nothing is reversed until an admin enters the figure
 * returned (then `refunded`, reversing exactly it). Seen before any credit, the admin's figure
 * credits the rest of the payment (then `refunded`), or the admin rejects it (nothing credited).
 */

const topUpStatusSchema = z.enum([
  "initiated",
  "pending",
  "completed",
  "expired",
  "cancelled",
  "refunded",
  "held",
  "rejected",
  "partial_refund",
]);
export type TopUpStatus = z.infer<typeof topUpStatusSchema>;

const FINAL: ReadonlySet<TopUpStatus> = new Set(["expired", "cancelled", "refunded", "rejected"]);
/**
 * Nothing a lookup says moves a final top-up (completed is not final: a refund may still come;
 * held and partial_refund are not final: an admin's decision moves them).
 */
export const isFinalTopUp = (s: TopUpStatus) => FINAL.has(s);

/**
 * Why a top-up was held instead of credited. `status`: the lookup's status word is not one the
 * gateway documents, so whether it was paid is not known (nothing credited on it).
 */
const heldReasonSchema = z.enum(["amount", "cap", "currency", "merchant", "status"]);
export type HeldReason = z.infer<typeof heldReasonSchema>;

/** The currency every top-up is initiated in (Khalti takes NPR only). */
export const TOPUP_CURRENCY = "NPR";

const paisa = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * An admins' alert recorded on a top-up (held, a partial refund, a refund's reversal, no end in
 * sight): the admin
 * chats that have it, `done` once all do; `failures` rounds in a row left one out, the last at
 * `at`. Only the chats still owed are sent it again, with a backoff (context.ts), never given up.
 */
const adminAlertSchema = z.object({
  sentTo: z.array(z.number().int()).max(100),
  done: z.boolean(),
  failures: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
});
export type AdminAlert = z.infer<typeof adminAlertSchema>;

export const topUpSchema = z.object({
  /** Our id, sent as Khalti's purchase_order_id. */
  id: z.string().regex(/^TU[A-Za-z0-9]{6,40}$/),
  gateway: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/),
  paymentId: paymentIdSchema,
  paymentUrl: z.string().url(),
  userId: z.number().int().positive(),
  chatId: z.number().int(),
  locale: z.string().min(2).max(8),
  /** What the customer asked to add. */
  amountPaisa: paisa.positive(),
  /**
   * Started from an order's confirmation that waits for it ("Add Rs X and continue"): the credited
   * notice offers Continue, which brings that confirmation back (src/bot/flow/shortfall.ts).
   */
  resume: z.boolean().optional(),
  status: topUpStatusSchema,
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
  /** When the gateway stops accepting the payment. */
  expiresAt: z.number().int().nonnegative(),
  /** The credit, as the completing lookup reported it. */
  creditedPaisa: paisa.optional(),
  /**
   * When it was credited (a lookup's Completed, or an admin's credit of a held one): the refund
   * watch counts from it. Absent on older records: the admin's decision, else the creation.
   */
  creditedAt: z.number().int().nonnegative().optional(),
  transactionId: z.string().max(128).optional(),
  feePaisa: paisa.optional(),
  /** Held: what the completing lookup reported instead of crediting it. */
  held: z
    .object({
      reasons: z.array(heldReasonSchema).min(1),
      reportedPaisa: paisa,
      transactionId: z.string().max(128).nullable(),
      feePaisa: paisa,
      currency: z.string().max(8).optional(),
      purchaseOrderId: z.string().max(128).optional(),
      /** Reason `status`: the gateway's word, as it said it. */
      statusWord: z.string().max(40).optional(),
      at: z.number().int().nonnegative(),
    })
    .optional(),
  /** The admins' alert that it is held (adminAlertSchema). */
  heldAlert: adminAlertSchema.optional(),
  /** Written before `heldAlert`: the admins were alerted that it is held (read as done). */
  heldAlerted: z.boolean().optional(),
  /** An admin's decision on a held top-up (or the rejection of an uncredited partial refund). */
  decision: z
    .object({
      kind: z.enum(["credit_initiated", "credit_paid", "reject"]),
      adminId: z.number().int(),
      at: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * A refund the gateway reported without its amount (status partial_refund): when, whether the
   * admins were alerted, and the admin's figure of what the gateway returned (then refunded).
   */
  partialRefund: z
    .object({
      at: z.number().int().nonnegative(),
      /**
       * The lookup said Completed with `refunded: true`, not Partially Refunded: the refund may be
       * whole or partial (absent: Partially Refunded).
       */
      mayBeWhole: z.boolean().optional(),
      /**
       * Reported before any credit: nothing was credited, and the payer may be owed what the
       * gateway kept. What the lookup reported paid, to credit the rest of on the admin's figure.
       */
      uncredited: z
        .object({
          reportedPaisa: paisa.positive(),
          transactionId: z.string().max(128).nullable(),
          feePaisa: paisa,
        })
        .optional(),
      /** Written before `partialAlert`: the admins were alerted (read as done). */
      alerted: z.boolean().optional(),
      decision: z
        .object({
          returnedPaisa: paisa.positive(),
          adminId: z.number().int(),
          at: z.number().int().nonnegative(),
        })
        .optional(),
    })
    .optional(),
  /** The admins' alert of the partial refund (adminAlertSchema). */
  partialAlert: adminAlertSchema.optional(),
  /**
   * What the refund's reversal took back from the balance (less than credited, or than a partial
   * refund's returned figure: shortfall).
   */
  reversedPaisa: paisa.optional(),
  /**
   * A refund's shortfall taken back later (review s31-pay, 4b): the balance was short when the
   * gateway refunded (an order's hold had it), so the rest stays owed and is taken back as the
   * balance rises, never below zero: `transfers` later reversals booked (ids `…:refund:2`, `:3`…),
   * `takenPaisa` what they took (counted in `reversedPaisa` too), `toldPaisa` what of it the
   * customer was told; `writtenOff`, an admin's write-off of what could not be taken back (booked
   * merchant:adjustments → the gateway's clearing account), which ends the recovery.
   */
  refundRecovery: z
    .object({
      transfers: z.number().int().nonnegative(),
      takenPaisa: paisa,
      toldPaisa: paisa,
      at: z.number().int().nonnegative(),
      writtenOff: z
        .object({
          paisa: paisa.positive(),
          adminId: z.number().int(),
          reason: z.string().min(1).max(200),
          at: z.number().int().nonnegative(),
        })
        .optional(),
    })
    .optional(),
  /** The last status the customer was told about (a push after the change, at least once). */
  notified: topUpStatusSchema.optional(),
  /**
   * The admins' alert that it is still open long after its link expired (adminAlertSchema):
   * written, owed to every admin, by the reconciler's pass that finds it so (review s31-pay, 2).
   */
  stuckAlert: adminAlertSchema.optional(),
  /** Written before `stuckAlert`, whether or not the send went through: read as done. */
  stuckAlerted: z.boolean().optional(),
  /** One process is pushing until then: others do not push the same status meanwhile. */
  pushLeaseUntil: z.number().int().nonnegative().optional(),
  /**
   * The customer's push of `status` failed `tries` times in a row, the last at `at`: tried again
   * with a backoff; `gaveUp`: not tried again (the chat is gone, or it kept failing).
   */
  pushFailed: z
    .object({
      status: topUpStatusSchema,
      tries: z.number().int().positive(),
      at: z.number().int().nonnegative(),
      gaveUp: z.boolean().optional(),
    })
    .optional(),
  /** The admins' alert of a refund's reversal (adminAlertSchema). */
  refundAlert: adminAlertSchema.optional(),
  /**
   * A failed lookup of an open top-up: `tries` in a row in `status`, the last at `at` (looked up
   * again with a backoff; a new status, or a lookup that answers, starts afresh).
   */
  lookupFailed: z
    .object({
      status: topUpStatusSchema,
      tries: z.number().int().positive(),
      at: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * A completed top-up whose refund check got a status word the gateway does not document, a
   * documented one that says it was never paid, or Completed with another amount or transaction
   * id than at the credit (its first such word, cut to 40 printable
   * characters): nothing moves on it; the admins are told once (`unknownAlert`), as the money may
   * have gone back to the payer, or never come.
   */
  unknownAfterCredit: z
    .object({
      statusWord: z.string().max(40).optional(),
      /** The word is a documented one that says it was never paid (state.ts `contradictsCredit`). */
      contradicts: z.literal(true).optional(),
      /**
       * Completed again, with another total or transaction id than Khalti gave at the credit
       * (`completedDiffers`): what it says now (review s33-rvpay 2).
       */
      differs: z
        .object({ reportedPaisa: paisa, transactionId: z.string().max(128).nullable() })
        .optional(),
      at: z.number().int().nonnegative(),
    })
    .optional(),
  /** The admins' alert of `unknownAfterCredit` (adminAlertSchema). */
  unknownAlert: adminAlertSchema.optional(),
  /** When the gateway was last asked about a completed top-up (its refund watch). */
  checkedAt: z.number().int().nonnegative().optional(),
  version: z.number().int().nonnegative(),
});
export type TopUp = z.infer<typeof topUpSchema>;

/** Open (initiated or pending: no end from the gateway yet) and created before `before`. */
export const isOpenBefore = (t: Pick<TopUp, "status" | "createdAt">, before: number) =>
  (t.status === "initiated" || t.status === "pending") && t.createdAt < before;

/** An age in the admins' words: "8 d 3 h" (whole hours, down). */
export function ageText(ms: number): string {
  const hours = Math.max(0, Math.floor(ms / 3_600_000));
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** What a lookup told us: the only event that changes a top-up. */
export interface TopUpEvent {
  status: LookupStatus;
  totalPaisa: number;
  transactionId: string | null;
  feePaisa: number;
  refunded: boolean;
  /** Status `unknown`: the gateway's own word. */
  statusWord?: string;
  /** When the gateway's answer carries them (Khalti's lookup carries neither today). */
  currency?: string;
  purchaseOrderId?: string;
}

/** The ledger transfer ids of a top-up: derived from the payment id, so a second credit is a duplicate. */
export const creditTransferId = (gateway: string, paymentId: string) =>
  `topup:${gateway}:${paymentId}`;
export const reversalTransferId = (gateway: string, paymentId: string) =>
  `topup:${gateway}:${paymentId}:refund`;
/** The `n`-th reversal of a refund's shortfall (n from 2: the first is `reversalTransferId`). */
export const recoveryTransferId = (gateway: string, paymentId: string, n: number) =>
  `${reversalTransferId(gateway, paymentId)}:${n}`;
/** An admin's write-off of a refund's shortfall that could not be taken back. */
export const writeOffTransferId = (gateway: string, paymentId: string) =>
  `topup:${gateway}:${paymentId}:writeoff`;

/**
 * What a refunded top-up still owes back (paisa): what should have been taken back (the credit,
 * or an admin's figure of a partial refund after a credit) less what was, and less any write-off.
 */
export function refundShortfall(t: TopUp): number {
  if (t.status !== "refunded" || t.reversedPaisa === undefined) return 0;
  const p = t.partialRefund;
  const owed = p?.decision && !p.uncredited ? p.decision.returnedPaisa : (t.creditedPaisa ?? 0);
  const off = t.refundRecovery?.writtenOff?.paisa ?? 0;
  return Math.max(0, owed - t.reversedPaisa - off);
}

/** A lookup's status in the gateway's own words (Khalti's documented ones), for the admins. */
export const SAID: Record<LookupStatus, string> = {
  completed: "Completed",
  pending: "Pending",
  initiated: "Initiated",
  expired: "Expired",
  cancelled: "User canceled",
  refunded: "Refunded",
  partially_refunded: "Partially Refunded",
  unknown: "",
};

/**
 * A documented word that says a credited payment was never paid (Pending, Initiated, Expired,
 * User canceled). Before, a refund check that got one changed nothing and told nobody, not even
 * a log line, while the books kept saying the gateway owes the credit (review s33-rvpay 1). Like
 * an unknown word after the credit, it is recorded once and the admins alerted; nothing moves
 * (only Refunded says the money went back, and how much).
 */
export function contradictsCredit(e: Pick<TopUpEvent, "status">): boolean {
  return (
    e.status === "pending" ||
    e.status === "initiated" ||
    e.status === "expired" ||
    e.status === "cancelled"
  );
}

/**
 * A refund check's Completed (not refunded) with another total or transaction id than the gateway
 * gave when it was credited (a held one's: what it reported before the admin's credit). Khalti does
 * not document such a change; before, it changed nothing and told nobody (review s33-rvpay 2). An
 * answer without an amount, or without a transaction id, is no contradiction (look again).
 */
export function completedDiffers(t: TopUp, e: TopUpEvent): boolean {
  if (t.status !== "completed" || e.status !== "completed" || e.refunded) return false;
  if (e.totalPaisa <= 0) return false;
  const paid = t.held ? t.held.reportedPaisa : t.creditedPaisa;
  const txn = t.held ? t.held.transactionId : (t.transactionId ?? null);
  if (paid !== undefined && e.totalPaisa !== paid) return true;
  return txn !== null && e.transactionId !== null && e.transactionId !== txn;
}
