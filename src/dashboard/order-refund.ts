import type { JournalEntry, LedgerStore } from "../ledger/index.ts";
import type { Order } from "../orders/index.ts";
import type { ActionDeps } from "./actions/deps.ts";

/**
 * A complaint's refund of an order (review s24-e, 7): the refund is a transfer of its own, under
 * the complaint's number, which the order record does not carry, so the order page would say
 * "charged" for money given back. The complaint that refunded the order is the complaint store's
 * exact order -> refunding complaint mark (one refund per order; written in the refund's own step),
 * however many complaints its customer raised since, and the amount and time are the books' own
 * entry of that transfer.
 */

export interface ComplaintRefund {
  complaint: string;
  entry: JournalEntry;
}

export async function complaintRefundOf(
  complaints: Pick<NonNullable<ActionDeps["complaints"]>, "refundOf"> | undefined,
  ledger: Pick<LedgerStore, "entryOf">,
  o: Order,
): Promise<ComplaintRefund | null> {
  // Only a successful order paid from the balance is refunded on a complaint (complaints/rules.ts).
  if (!complaints || o.status !== "success" || o.holdId === undefined) return null;
  const refunded = await complaints.refundOf(o.reference);
  const transferId = refunded?.closing?.refund?.transferId;
  if (!refunded || transferId === undefined) return null;
  const entry = await ledger.entryOf(transferId);
  return entry ? { complaint: refunded.reference, entry } : null;
}
