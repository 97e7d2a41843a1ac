import type { Order } from "../orders/model.ts";
import type { BotDeps } from "./deps.ts";
import type { BookedRefund } from "./order-texts.ts";

/**
 * The complaint refunds booked for these orders (review s33-rvtruth 7), by reference, for the
 * customer's views of them (/history, the receipt): only a successful order paid from the balance
 * is refunded on a complaint (complaints/rules.ts), so a page without one costs no read, and one
 * with some costs one read of their refund marks (and one per refunded order).
 */
export async function bookedRefunds(
  deps: Pick<BotDeps, "complaints">,
  orders: readonly Order[],
): Promise<ReadonlyMap<string, BookedRefund>> {
  const refs = orders
    .filter((o) => o.status === "success" && o.holdId !== undefined)
    .map((o) => o.reference);
  if (!deps.complaints || refs.length === 0) return new Map();
  return deps.complaints.refundsOf(refs);
}
