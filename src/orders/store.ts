import { type AccountId, account } from "../ledger/accounts.ts";
import {
  type HoldInput,
  holdInputSchema,
  type LedgerResult,
  type Refusal,
  type TransferInput,
  transferInputSchema,
} from "../ledger/model.ts";
import { isInferred } from "./inferred-debit.ts";
import {
  chargedPaisa,
  isFinal,
  type Notification,
  type Order,
  type UnmatchedEvent,
} from "./model.ts";

/**
 * The order store port. Two adapters: Redis (production, many processes) and memory (embedded mode
 * and pure-logic tests); one contract suite (test/orders/store.contract.test.ts) runs against both.
 *
 * The notification outbox lives behind this port too: `update` writes the new order and the
 * notifications its change produced in ONE atomic step, so a crash between "status changed" and
 * "notification queued" cannot happen.
 */

export type CreateResult =
  /** The order was stored. */
  | { created: true; order: Order }
  /** An order with the same idempotency key exists: that one is returned, nothing was written. */
  | { created: false; order: Order };

/** The mutation run inside the compare-and-set loop; null means "no change". */
export type Mutation = (current: Order) => { order: Order; notifications: Notification[] } | null;

export interface UpdateResult {
  order: Order;
  /** False when the mutation answered null (nothing written). */
  updated: boolean;
  notifications: Notification[];
  /** The post or void of the order's hold written with this update, if it settled one. */
  settlement?: LedgerResult;
  /** The transfers booked with this update (bookingsOf), in order, if any. */
  bookings?: LedgerResult[];
}

export interface ListOpenOptions {
  /** Only orders created at or before this time (epoch ms). */
  createdBefore: number;
  limit: number;
  /** Skip this many (oldest first), so a caller can page through a long list. Default 0. */
  offset?: number;
}

export interface OrderStore {
  /**
   * A fresh reference_no: numeric, at most 15 digits, unique across processes and restarts and never
   * reused. Values are max(last + 1, now in ms), so even a store that lost its counter does not
   * hand out a reference seen before (unless more than one reference per ms was sustained).
   */
  nextReference(): Promise<string>;
  /**
   * Create-if-absent by idempotency key. Throws ReferenceInUseError if the reference is taken.
   * An order with a `holdId` takes its hold (holdOf) in the same atomic step; when the ledger
   * refuses (insufficient funds) nothing is written and HoldRefusedError is thrown.
   * `numbered`: the store gives the order its reference (as nextReference would) in the same step,
   * only once the idempotency key is known to be new; the order's `reference` (and `holdId`, which
   * becomes holdIdOf the reference) are placeholders. The created order carries the real ones.
   */
  create(order: Order, opts?: { numbered?: boolean }): Promise<CreateResult>;
  /** By our reference or by the execute reference (listing reference of data packs / DTH). */
  get(reference: string): Promise<Order | null>;
  getByTransactionId(transactionId: string): Promise<Order | null>;
  getByIdempotencyKey(key: string): Promise<Order | null>;
  /** The user's orders, newest first; `offset` skips that many of the newest (paging). */
  listByUser(userId: number, limit: number, offset?: number): Promise<Order[]>;
  /** Non-final orders, oldest first. */
  listOpen(opts: ListOpenOptions): Promise<Order[]>;
  /**
   * Atomic compare-and-set: reads the order, runs `mutate`, writes the result and its notifications
   * only if nobody wrote in between (retrying otherwise). Null when the order does not exist.
   * `mutate` must be pure: it may run several times. `known`, an order the caller has just read,
   * saves the first read; a stale one only costs a retry, since the write compares versions.
   */
  update(reference: string, mutate: Mutation, known?: Order): Promise<UpdateResult | null>;
  /** Events naming no known order, newest first (capped). */
  recordUnmatched(event: UnmatchedEvent): Promise<void>;
  listUnmatched(limit: number): Promise<UnmatchedEvent[]>;
}

export class ReferenceInUseError extends Error {
  constructor(readonly reference: string) {
    super(`reference ${reference} is already used by another order`);
    this.name = "ReferenceInUseError";
  }
}

export class HoldRefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(`order hold refused: ${refusal.code}`);
    this.name = "HoldRefusedError";
  }
}

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
 * customer paid); an order nobody paid for (open mode) from the merchant's own money
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

export class StoreConflictError extends Error {
  constructor(readonly reference: string) {
    super(`order ${reference}: too many concurrent writers, giving up`);
    this.name = "StoreConflictError";
  }
}

/** The counter rule shared by both adapters: strictly increasing, never below the clock. */
export function nextCounterValue(last: number, nowMs: number): number {
  return Math.max(last + 1, Math.floor(nowMs));
}

/** How many unmatched events are kept. */
export const UNMATCHED_CAP = 1000;
/** How many times a compare-and-set is retried before StoreConflictError. */
export const CAS_ATTEMPTS = 64;
