import { refundedOrderOf } from "../complaints/index.ts";
import { account, type JournalEntry } from "../ledger/index.ts";
import { inferredWallet, isInferred, UNKNOWN_DEBIT_FACTOR } from "../orders/inferred-debit.ts";
import { chargedPaisa, isFinal, type Order } from "../orders/model.ts";
import { INFERRED_REASON } from "../orders/postings.ts";
import { margin } from "../pricing/index.ts";
import { type BooksDeps, FLOAT_OPENING_ID } from "./deps.ts";
import type { BooksReport } from "./model.ts";

/** The reads the books report adds up: balances by group, the margin, the debits in flight. */

/** Open orders read per page when adding up the aggregator's debits not yet booked. */
const OPEN_PAGE = 500;

/**
 * The part of a complaint refund that returns the order's fee: the fee's share of what the
 * customer paid, applied to the refunded amount (a whole refund returns the whole fee). The
 * ledger books the refund from `merchant:sales` alone (complaints/rules.ts `refundTransfer`); the
 * report takes this part out of fee income, the whole refund out of the margin.
 */
export function refundedFeeOf(order: Order | null, refundPaisa: number): number {
  if (!order || order.holdId === undefined) return 0;
  const paid = chargedPaisa(order);
  // In the books' rupees, as the fee was booked (orders/postings.ts): an India order's converted.
  const fee = order.exchange?.feePaisa ?? order.price?.feePaisa ?? 0;
  if (paid <= 0 || fee <= 0) return 0;
  return Math.min(fee, Math.round((refundPaisa * fee) / paid));
}

/** Complaint refunds: money sales returned to customers (the only reversal debiting sales). */
const isComplaintRefund = (e: JournalEntry) =>
  e.kind === "reversal" && e.debit === account.merchant.sales;

type RefundTotals = BooksReport["complaintRefunds"];

/**
 * Adds one complaint refund to `t` and answers what it takes out of the margin. The refund comes
 * out of what its order earned: its margin, and its fee's share out of fee income. An order that
 * cannot be read (missing, trimmed) has no fee share to compute: its refund stays whole in the
 * margin's deduction and is counted in `orderUnread`, its fee share left in fee income (flagged:
 * at most the refund). An order booked with no float debit (a success whose debit was zero, or
 * one with no figures) was never counted in the margin: its refund is left out of it too and
 * counted in `outOfMargin`; the fee share only if its fee was booked (a success with figures).
 */
async function countRefund(
  deps: Pick<BooksDeps, "orders">,
  t: RefundTotals,
  e: JournalEntry,
): Promise<number> {
  const ref = refundedOrderOf(e.reason);
  const order = ref ? await deps.orders.get(ref) : null;
  t.refunds += 1;
  t.paisa += e.amountPaisa;
  if (!order) {
    t.orderUnread.refunds += 1;
    t.orderUnread.paisa += e.amountPaisa;
    return e.amountPaisa;
  }
  // bookingsOf (orders/postings.ts) books the fee only with the order's figures (its wallet).
  if (order.wallet) t.feePaisa += refundedFeeOf(order, e.amountPaisa);
  if ((order.wallet?.debitAmountPaisa ?? 0) > 0) return e.amountPaisa;
  t.outOfMargin.refunds += 1;
  t.outOfMargin.paisa += e.amountPaisa;
  return 0;
}

/**
 * LEDGER.md's "every final order has exactly one post or one void", for the holds still pending at
 * the journal's end (`open`: hold id -> its order's reference): those whose order is final or
 * missing. The ledger's own check finds a hold resolved twice or a post of none; this finds one
 * never resolved, the customer's money held for good (a refused post or void, a restore from a
 * backup taken between keys, a hand edit). The order is read first and the hold after, so an
 * order made final meanwhile (its post in the same step) is not taken for one.
 */
async function strandedHolds(
  deps: Pick<BooksDeps, "ledger" | "orders">,
  open: ReadonlyMap<string, string>,
): Promise<string[]> {
  const found: string[] = [];
  for (const [id, reference] of open) {
    const order = await deps.orders.get(reference);
    if (order && !isFinal(order.status)) continue;
    if ((await deps.ledger.pendingOf(id))?.state !== "pending") continue;
    found.push(`hold ${id}: ${order ? `order ${order.status}` : "no order"}, not posted or voided`);
  }
  return found;
}

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
  const refunds: RefundTotals = {
    refunds: 0,
    paisa: 0,
    feePaisa: 0,
    orderUnread: { refunds: 0, paisa: 0 },
    outOfMargin: { refunds: 0, paisa: 0 },
  };
  const open = new Map<string, string>();
  let anchored = false;
  let after: string | undefined;
  for (;;) {
    const page = await deps.ledger.journal(after === undefined ? {} : { after });
    for (const e of page.entries) {
      if (e.id === FLOAT_OPENING_ID) anchored = true;
      if (e.kind === "hold") open.set(e.id, e.reference ?? e.id.replace(/^order:/, ""));
      if (e.kind === "post" || e.kind === "void") open.delete(e.pendingId ?? "");
      if (isComplaintRefund(e)) {
        m.marginPaisa -= await countRefund(deps, refunds, e);
        continue;
      }
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
  const stranded = await strandedHolds(deps, open);
  return { ...totals, margin: m, inferred, refunds, stranded, anchored };
}

/**
 * The float's side of the books at one moment: the books' float and every open order's debit at
 * the aggregator as its execute answer gave it, null while unknown: sent without an answer yet,
 * or still "placed" (the checkout holds an order placed while it sends the receipt, then executes
 * it: it may be debited at any moment). `mostPaisa`: the most the aggregator can have taken for
 * it (its known debit, or a bound: see `mostDebitOf`).
 */
export interface FloatView {
  booksPaisa: number;
  debits: ReadonlyMap<string, { debit: number | null; mostPaisa: number }>;
}

/**
 * An order's debit not known yet is bounded by its face amount (in the wallet's Nepal rupees, as
 * inferred-debit.ts converts it) times UNKNOWN_DEBIT_FACTOR (defined there, where the orders'
 * figures check uses it too). Only widens the range a verdict must clear, so a generous bound
 * costs a little reach, never a false alert.
 */

function mostDebitOf(o: Order): number {
  const known = o.wallet?.debitAmountPaisa ?? 0;
  return Math.max(known, UNKNOWN_DEBIT_FACTOR * inferredWallet(o).debitAmountPaisa);
}

export async function floatView(
  deps: Pick<BooksDeps, "orders" | "now">,
  booksFloat: () => Promise<number>,
): Promise<FloatView> {
  const debits = new Map<string, { debit: number | null; mostPaisa: number }>();
  for (let offset = 0; ; offset += OPEN_PAGE) {
    const open = await deps.orders.listOpen({
      createdBefore: deps.now(),
      limit: OPEN_PAGE,
      offset,
    });
    for (const o of open) {
      debits.set(o.reference, {
        debit: o.wallet ? o.wallet.debitAmountPaisa : null,
        mostPaisa: mostDebitOf(o),
      });
    }
    if (open.length < OPEN_PAGE) break;
  }
  return { booksPaisa: await booksFloat(), debits };
}

/**
 * The aggregator's debits our books do not have yet (open orders whose execute answer gave the
 * figure, as `after` saw them), and how many debits a reading of the aggregator's wallet taken
 * between `before` and `after` may or may not include: an order unknown in either view, or one
 * that moved between them (its debit, or its booking at success, may have landed on either side
 * of the reading). A booking of the float between them with no open order moving (an order placed
 * and settled in between, a late debit's fix, the opening booked elsewhere) counts as one.
 * `boundPaisa`: the most those unknowns can move the difference, either way (each order's most
 * debit, and any move of the books' float between the views): the true difference lies within
 * ± that of the figure read.
 */
export function inFlight(
  before: FloatView,
  after: FloatView,
): { paisa: number; unknown: number; boundPaisa: number } {
  let paisa = 0;
  for (const d of after.debits.values()) paisa += d.debit ?? 0;
  const unsure = new Map<string, number>();
  const consider = (
    ref: string,
    d: { debit: number | null; mostPaisa: number },
    other?: number | null,
  ) => {
    if (d.debit !== null && other === d.debit) return;
    unsure.set(ref, Math.max(unsure.get(ref) ?? 0, d.mostPaisa));
  };
  for (const [ref, d] of after.debits) consider(ref, d, before.debits.get(ref)?.debit);
  for (const [ref, d] of before.debits) consider(ref, d, after.debits.get(ref)?.debit);
  const moved = Math.abs(after.booksPaisa - before.booksPaisa);
  const booked = moved !== 0 && unsure.size === 0 ? 1 : 0;
  let boundPaisa = moved;
  for (const most of unsure.values()) boundPaisa += most;
  return { paisa, unknown: unsure.size + booked, boundPaisa };
}
