import type { JournalEntry, LedgerStore } from "../ledger/index.ts";
import type { Order } from "../orders/index.ts";

/**
 * The books' transfers of one order: every entry booked with its reference, read by reference
 * from the ledger's read index (written with each booking: a reversal booked later is there too),
 * plus the hold and its resolution read by the hold's id (a hold may carry no reference).
 */

export function isOrdersEntry(e: JournalEntry, order: Order): boolean {
  return (
    e.reference === order.reference ||
    (order.holdId !== undefined && (e.id === order.holdId || e.pendingId === order.holdId))
  );
}

export async function transfersOf(
  ledger: Pick<LedgerStore, "entriesOf" | "pendingOf">,
  order: Order,
): Promise<JournalEntry[]> {
  const found = new Map<string, JournalEntry>();
  for (const e of await ledger.entriesOf(order.reference)) found.set(e.seq, e);
  if (order.holdId !== undefined) {
    const pending = await ledger.pendingOf(order.holdId);
    if (pending) {
      found.set(pending.hold.seq, pending.hold);
      if (pending.resolution) found.set(pending.resolution.seq, pending.resolution);
    }
  }
  return [...found.values()].sort((a, b) => a.at - b.at || a.seq.localeCompare(b.seq));
}
