import type { JournalEntry, LedgerStore } from "../ledger/index.ts";
import type { Order } from "../orders/index.ts";
import type { ActionDeps } from "./actions/deps.ts";

/**
 * A complaint's refund of an order (review s24-e, 7): the refund is a transfer of its own, under
 * the complaint's number, which the order record does not carry, so the order page would say
 * "charged" for money given back. The complaint that refunded the order is looked for among its
 * customer's newest complaints (REFUND_LOOKUP; one refund per order), and the amount and time are
 * the books' own entry of that transfer.
 */

/** How many of the customer's newest complaints are read for the order's refund. */
export const REFUND_LOOKUP = 100;

export interface ComplaintRefund {
  complaint: string;
  entry: JournalEntry;
}

export async function complaintRefundOf(
  complaints: Pick<NonNullable<ActionDeps["complaints"]>, "ofUser"> | undefined,
  ledger: Pick<LedgerStore, "entryOf">,
  o: Order,
): Promise<ComplaintRefund | null> {
  // Only a successful order paid from the balance is refunded on a complaint (complaints/rules.ts).
  if (!complaints || o.status !== "success" || o.holdId === undefined) return null;
  const refunded = (await complaints.ofUser(o.userId, REFUND_LOOKUP)).find(
    (c) => c.orderReference === o.reference && c.closing?.refund,
  );
  const transferId = refunded?.closing?.refund?.transferId;
  if (!refunded || transferId === undefined) return null;
  const entry = await ledger.entryOf(transferId);
  return entry ? { complaint: refunded.reference, entry } : null;
}
