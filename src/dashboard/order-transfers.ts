import type { JournalEntry, LedgerStore } from "../ledger/index.ts";
import type { Order } from "../orders/index.ts";

/**
 * The books' transfers of one order. The ledger has no index by reference, but an order's
 * transfers are booked with its own writes: the hold when it is created, the post or void, the
 * float debit and the fee when it turns final (src/orders/store.ts bookingsOf). So the journal is
 * read over the order's own lifetime (a margin either side for clocks) and filtered by reference
 * and hold id; the hold and its resolution are also read by id, in case they fall outside it.
 * A reversal booked by an admin later, beyond the window, is not found here (noted as not done).
 */

const MARGIN_MS = 60 * 60_000;
/** At most this many journal pages are read for one order (each JOURNAL_PAGE_MAX long). */
const MAX_PAGES = 20;

export function isOrdersEntry(e: JournalEntry, order: Order): boolean {
  return (
    e.reference === order.reference ||
    (order.holdId !== undefined && (e.id === order.holdId || e.pendingId === order.holdId))
  );
}

export async function transfersOf(
  ledger: Pick<LedgerStore, "journal" | "pendingOf">,
  order: Order,
): Promise<JournalEntry[]> {
  const found = new Map<string, JournalEntry>();
  const range = {
    from: Math.max(0, order.createdAt - MARGIN_MS),
    to: Math.max(order.updatedAt, order.createdAt) + MARGIN_MS,
  };
  let after: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await ledger.journal({ ...range, ...(after ? { after } : {}) });
    for (const e of page.entries) if (isOrdersEntry(e, order)) found.set(e.seq, e);
    if (!page.next) break;
    after = page.next;
  }
  if (order.holdId !== undefined) {
    const pending = await ledger.pendingOf(order.holdId);
    if (pending) {
      found.set(pending.hold.seq, pending.hold);
      if (pending.resolution) found.set(pending.resolution.seq, pending.resolution);
    }
  }
  return [...found.values()].sort((a, b) => a.at - b.at || a.seq.localeCompare(b.seq));
}
