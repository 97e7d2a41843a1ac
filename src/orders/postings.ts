import { type AccountId, account } from "../ledger/chart.ts";
import {
  type HoldInput,
  holdInputSchema,
  type TransferInput,
  transferInputSchema,
} from "../ledger/model.ts";
import { isInferred } from "./inferred-debit.ts";
import { chargedPaisa, isFinal, type Order } from "./model.ts";

/**
 * The posting rules of an order: what it writes in the merchant's books (the chart of accounts,
 * src/ledger/chart.ts) as it is created and as it moves: its hold, the hold's post or void, the
 * float debit and fee of a success. Pure; both store adapters write what these say in the same
 * atomic step as the order itself (store.ts). They live beside the orders, not in src/ledger,
 * because they are functions of an order and the ledger knows nothing of orders (it is the layer
 * below: dependency-cruiser forbids the upward import).
 */

/**
 * The hold an order takes at create, or null (no holdId, or nothing to pay). Shared by both
 * adapters so they hold the same transfer.
 */
export function holdOf(order: Order): HoldInput | null {
  if (order.holdId === undefined) return null;
  if (!order.price) throw new Error(`order ${order.reference} has a hold id but no price`);
  // In the balance's currency: an India order holds its Nepal-rupee equivalent.
  const amountPaisa = chargedPaisa(order);
  if (amountPaisa === 0) return null;
  return holdInputSchema.parse({
    id: order.holdId,
    debit: account.customer(order.userId),
    credit: account.merchant.sales,
    amountPaisa,
    reference: order.reference,
  });
}

/**
 * What an update does to the order's hold: post when it becomes success, void when it becomes
 * failed, nothing otherwise (unknown and the rest stay held). Only the step INTO a final state
 * settles, and a final order never changes status again, so a hold is settled once.
 */
export function settlementOf(current: Order, written: Order): "post" | "void" | null {
  if (holdOf(written) === null || isFinal(current.status) || !isFinal(written.status)) return null;
  return written.status === "success" ? "post" : "void";
}

/**
 * Whose available balance a step records on the order as `balanceAfterPaisa`: the customer's, for
 * an order paid through the books (it has a hold id), at its create (after the hold) and at its
 * step into a final state (after the post or void); null for every other step, which keeps the
 * figure as it was. `current` is null at create. Shared by both adapters.
 */
export function balanceAccountOf(current: Order | null, written: Order): AccountId | null {
  if (written.holdId === undefined) return null;
  if (current !== null && (isFinal(current.status) || !isFinal(written.status))) return null;
  return account.customer(written.userId);
}

/**
 * The posted transfers a successful order books, in the same atomic step as its transition
 * (LEDGER.md): the aggregator's debit of the merchant's float (`debit_amount`, in the wallet's
 * Nepal rupees as the aggregator reports it, India orders too) and, in prepaid mode, the order's
 * fee moved from sales into fee income. A prepaid order's float debit is paid from sales (what the
 * customer paid); an order nobody paid for (staff mode: no hold) from the merchant's own money
 * (`merchant:funding`). Commission is not booked here: it stays on the order until the
 * aggregator's balance shows it credited (LEDGER.md), so the float check stays exact.
 *
 * Booked once, whichever path made the order final (issue 25): every success carries a wallet
 * (state.ts), the aggregator's figures or, when no answer gave them, figures inferred from the
 * order, and the float transfer's reason says which. When the aggregator's figures arrive after an
 * inferred success (a late execute answer), the difference is booked once as a correction
 * (`order:<ref>:float-fix`, an adjustment with its reason). An order made success before every
 * success carried a wallet books its figures when they arrive. Ids derive from the reference, so a
 * repeat is a ledger duplicate anyway.
 */
export function bookingsOf(current: Order, written: Order): TransferInput[] {
  if (written.status !== "success" || !written.wallet) return [];
  const entering = current.status !== "success" || !current.wallet;
  if (!entering) return correctionOf(current, written);
  const reference = written.reference;
  const prepaid = written.holdId !== undefined;
  const out: TransferInput[] = [];
  const debit = written.wallet.debitAmountPaisa;
  if (debit > 0) {
    out.push({
      id: `order:${reference}:float`,
      debit: payerOf(written),
      credit: account.merchant.float,
      amountPaisa: debit,
      kind: "float_debit",
      reference,
      ...(isInferred(written.wallet) ? { reason: INFERRED_REASON } : {}),
    });
  }
  // In the books' rupees: an India order's fee as converted when it was placed.
  const fee = prepaid ? (written.exchange?.feePaisa ?? written.price?.feePaisa ?? 0) : 0;
  if (fee > 0) {
    out.push({
      id: `order:${reference}:fee`,
      debit: account.merchant.sales,
      credit: account.merchant.fees,
      amountPaisa: fee,
      kind: "fee",
      reference,
    });
  }
  return out.map((t) => transferInputSchema.parse(t));
}

/** The float transfer's reason when the debit was inferred (/books counts these). */
export const INFERRED_REASON =
  "inferred from the order: no answer of the aggregator carried its debit";

/** Who pays the aggregator's debit in the books: sales (prepaid) or the merchant's own money. */
const payerOf = (o: Order): AccountId =>
  o.holdId !== undefined ? account.merchant.sales : account.merchant.funding;

/** An inferred debit replaced by the aggregator's own figure: the difference, once. */
function correctionOf(current: Order, written: Order): TransferInput[] {
  if (!isInferred(current.wallet) || !written.wallet || isInferred(written.wallet)) return [];
  const diff = written.wallet.debitAmountPaisa - (current.wallet?.debitAmountPaisa ?? 0);
  if (diff === 0) return [];
  const payer = payerOf(written);
  return [
    transferInputSchema.parse({
      id: `order:${written.reference}:float-fix`,
      debit: diff > 0 ? payer : account.merchant.float,
      credit: diff > 0 ? account.merchant.float : payer,
      amountPaisa: Math.abs(diff),
      kind: "adjustment",
      reference: written.reference,
      reason: "the aggregator's own debit replaces the inferred one",
    }),
  ];
}
