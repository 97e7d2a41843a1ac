import { isInferred } from "../orders/inferred-debit.ts";
import { chargedPaisa } from "../orders/model.ts";
import { INFERRED_REASON } from "../orders/postings.ts";
import { margin } from "../pricing/index.ts";
import { type BooksDeps, FLOAT_OPENING_ID } from "./deps.ts";

/** The reads the books report adds up: balances by group, the margin, the debits in flight. */

/** Open orders read per page when adding up the aggregator's debits not yet booked. */
const OPEN_PAGE = 500;

/** What the ledger says the merchant owes and has earned, order by order (the margin). */
export async function scan(deps: Pick<BooksDeps, "ledger" | "orders">) {
  const totals = {
    customers: { accounts: 0, balancePaisa: 0, heldPaisa: 0 },
    agents: { accounts: 0, balancePaisa: 0, heldPaisa: 0 },
  };
  for (const id of await deps.ledger.accounts()) {
    const group = id.startsWith("customer:")
      ? totals.customers
      : id.startsWith("agent:")
        ? totals.agents
        : null;
    if (!group) continue;
    const b = await deps.ledger.balance(id);
    group.accounts += 1;
    group.balancePaisa += b.postedPaisa;
    group.heldPaisa += b.heldPaisa;
  }
  // Margin: every float debit is one successful order booked (orders/postings.ts bookingsOf).
  const m = { orders: 0, marginPaisa: 0, commissionReportedPaisa: 0 };
  const inferred = { orders: 0, paisa: 0 };
  let anchored = false;
  let after: string | undefined;
  for (;;) {
    const page = await deps.ledger.journal(after === undefined ? {} : { after });
    for (const e of page.entries) {
      if (e.id === FLOAT_OPENING_ID) anchored = true;
      if (e.kind !== "float_debit" || !e.reference) continue;
      const order = await deps.orders.get(e.reference);
      // In Nepal rupees, as the debit is: an India order's converted total.
      const paid = order?.holdId !== undefined ? chargedPaisa(order) : 0;
      const commission = order?.wallet?.commissionPaisa ?? 0;
      // The order's figure is the latest: an inferred debit corrected later (float-fix).
      const debit = order?.wallet?.debitAmountPaisa ?? e.amountPaisa;
      m.orders += 1;
      m.commissionReportedPaisa += commission;
      m.marginPaisa += margin({
        pricePaidPaisa: paid,
        providerDebitPaisa: debit,
        commissionPaisa: commission,
      });
      if (order ? isInferred(order.wallet) : e.reason === INFERRED_REASON) {
        inferred.orders += 1;
        inferred.paisa += debit;
      }
    }
    if (!page.next) break;
    after = page.next;
  }
  return { ...totals, margin: m, inferred, anchored };
}

/**
 * The aggregator's debits our books do not have yet: open orders whose execute answer gave the
 * figure; and how many were sent without an answer yet (their debit is unknown, if any).
 */
export async function inFlight(
  deps: Pick<BooksDeps, "orders" | "now">,
): Promise<{ paisa: number; unknown: number }> {
  let paisa = 0;
  let unknown = 0;
  for (let offset = 0; ; offset += OPEN_PAGE) {
    const open = await deps.orders.listOpen({
      createdBefore: deps.now(),
      limit: OPEN_PAGE,
      offset,
    });
    for (const o of open) {
      if (o.wallet) paisa += o.wallet.debitAmountPaisa;
      else if (o.status !== "placed") unknown += 1;
    }
    if (open.length < OPEN_PAGE) return { paisa, unknown };
  }
}
