import { z } from "zod";
import { type LookupStatus, paymentIdSchema } from "../gateway/port.ts";

/**
 * A top-up: a customer adding money to their balance through a gateway's web checkout. It has its
 * own states, changed only by `transition` (state.ts) as the top-up service applies it:
 *
 *   initiated ─▶ pending ─▶ completed ─▶ refunded
 *       │           │
 *       └───────────┴─▶ expired | cancelled | refunded (paid and refunded before we looked)
 *
 * Only a gateway lookup moves it (never the browser's redirect). `completed` is the one state that
 * credits the customer, once, with the amount the lookup reports; `refunded` after `completed`
 * reverses that credit.
 */

export const topUpStatusSchema = z.enum([
  "initiated",
  "pending",
  "completed",
  "expired",
  "cancelled",
  "refunded",
]);
export type TopUpStatus = z.infer<typeof topUpStatusSchema>;

const FINAL: ReadonlySet<TopUpStatus> = new Set(["expired", "cancelled", "refunded"]);
/** Nothing moves a final top-up (completed is not final: a refund may still come). */
export const isFinalTopUp = (s: TopUpStatus) => FINAL.has(s);

const paisa = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

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
  status: topUpStatusSchema,
  createdAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
  /** When the gateway stops accepting the payment. */
  expiresAt: z.number().int().nonnegative(),
  /** The credit, as the completing lookup reported it. */
  creditedPaisa: paisa.optional(),
  transactionId: z.string().max(128).optional(),
  feePaisa: paisa.optional(),
  /** What the refund's reversal took back from the balance (less than credited: shortfall). */
  reversedPaisa: paisa.optional(),
  /** The last status the customer was told about (a push after the change, at least once). */
  notified: topUpStatusSchema.optional(),
  /** The admins were told it is still open long after its link expired. */
  stuckAlerted: z.boolean().optional(),
  /** One process is pushing until then: others do not push the same status meanwhile. */
  pushLeaseUntil: z.number().int().nonnegative().optional(),
  version: z.number().int().nonnegative(),
});
export type TopUp = z.infer<typeof topUpSchema>;

/** What a lookup told us: the only event that changes a top-up. */
export interface TopUpEvent {
  status: LookupStatus;
  totalPaisa: number;
  transactionId: string | null;
  feePaisa: number;
  refunded: boolean;
}

/** The ledger transfer ids of a top-up: derived from the payment id, so a second credit is a duplicate. */
export const creditTransferId = (gateway: string, paymentId: string) =>
  `topup:${gateway}:${paymentId}`;
export const reversalTransferId = (gateway: string, paymentId: string) =>
  `topup:${gateway}:${paymentId}:refund`;
