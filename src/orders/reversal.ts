import type { Order, OrderEvent } from "./model.ts";

/**
 * The aggregator's words for a recharge it undid after its success (its wallet credited back).
 * The spec names none (its status set is open-ended, recharge-api.md section 3): these are the
 * usual ones, compared without case, spaces, "_" or "-" ("rolled_back", "Charge-Back").
 */
const REVERSAL_WORDS: ReadonlySet<string> = new Set([
  "refunded",
  "refund",
  "reversed",
  "reversal",
  "rolledback",
  "chargeback",
]);

export const isReversalWord = (raw: string | undefined): boolean =>
  raw !== undefined && REVERSAL_WORDS.has(raw.toLowerCase().replace(/[\s_-]+/g, ""));

/**
 * An order a reversal word is read on: a success, whether the aggregator said so or an admin
 * settled it (settle.ts): either way the customer was charged, and the aggregator taking the
 * money back may leave them owed a refund.
 */
export const reversible = (order: Order): boolean => order.status === "success";

/**
 * A reversal word on a successful order says what "failed" says of it: the aggregator undid it
 * while the customer stays charged. The event read so (final-order.ts weighs it as the
 * aggregator's "failed", which only its own answers may be: against the outcome, or against an
 * admin's settlement as succeeded); null otherwise: an open order or a failed one (a reversal
 * agrees) keep the word as not understood.
 */
export function reversalAsFailed(order: Order, event: OrderEvent): OrderEvent | null {
  if (!reversible(order)) return null;
  if (event.status !== null || !isReversalWord(event.unrecognised)) return null;
  const { unrecognised: _, ...rest } = event;
  return { ...rest, status: "failed" };
}
