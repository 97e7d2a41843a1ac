import { z } from "zod";

/**
 * An order's statuses (the state machine's, state.ts), their ranks, and how the aggregator's
 * open-ended status words map onto them. Split from model.ts (its size), unchanged.
 */

export const ORDER_STATUSES = [
  "placed",
  "submitting",
  "unknown",
  "queued",
  "pending",
  "success",
  "failed",
] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/**
 * Forward-only ranks. `unknown` ranks below queued/pending so a late "outcome unknown" never
 * overwrites a state the provider told us; success and failed share the top rank and are final.
 */
export const STATUS_RANK: Readonly<Record<OrderStatus, number>> = {
  placed: 0,
  submitting: 1,
  unknown: 2,
  queued: 3,
  pending: 4,
  success: 5,
  failed: 5,
};

/**
 * What the customer's receipt tells of a status, as a rank (the receipt shows one word per rank).
 * Queued and pending rank alike: both say the order is with the operator and not final yet, and
 * the receipt says exactly that for both ("with the operator", locales `receipt-status-open`), so a
 * move from one to the other changes nothing the receipt shows and is not sent to the chat (the
 * order records it all the same). Everything that decides whether a receipt edit is overtaken
 * compares these ranks: an edit is dropped only for a later state that reads differently.
 */
export const RECEIPT_RANK: Readonly<Record<OrderStatus, number>> = {
  placed: 0,
  submitting: 1,
  unknown: 2,
  queued: 3,
  pending: 3,
  success: 4,
  failed: 4,
};

export const isFinal = (s: OrderStatus): boolean => s === "success" || s === "failed";

/** The provider's open-ended status words, mapped onto ours; null when the word means nothing to us. */
export function normalizeProviderStatus(raw: string): OrderStatus | null {
  const s = raw.trim().toLowerCase();
  if (["success", "successful", "succeeded", "completed", "complete", "done"].includes(s))
    return "success";
  if (["failed", "failure", "fail", "error", "rejected", "cancelled", "canceled"].includes(s))
    return "failed";
  if (["pending", "processing", "in progress", "in_progress", "initiated"].includes(s))
    return "pending";
  if (["queued", "queue", "accepted", "received"].includes(s)) return "queued";
  return null;
}
