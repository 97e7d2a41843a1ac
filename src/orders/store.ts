import type { LedgerResult, Refusal } from "../ledger/model.ts";
import type { Notification, Order, UnmatchedEvent } from "./model.ts";
import type { OrderSearch, OrderSearchPage } from "./search.ts";

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

/**
 * A transaction id the write would have given the order, found already indexed to another order
 * (review s31-orders, 2): one recharge is one order's, so the write is refused and the mutation
 * run again with it.
 */
export interface TakenTransaction {
  transactionId: string;
  /** The order that holds it. */
  reference: string;
}

/**
 * The mutation run inside the compare-and-set loop; null means "no change". `owes`: the hourly
 * alert windows (crossings note names) the step marks the order owed a count in, with its write
 * (owed.ts owedWindows). `taken`: the store refused the write before because the transaction id
 * it gave the order belongs to another order; the mutation must then not give it (else the store
 * gives up, StoreConflictError).
 */
export type Mutation = (
  current: Order,
  taken?: TakenTransaction,
) => { order: Order; notifications: Notification[]; owes?: readonly string[] } | null;

export interface UpdateResult {
  order: Order;
  /** False when the mutation answered null (nothing written). */
  updated: boolean;
  notifications: Notification[];
  /** The post or void of the order's hold written with this update, if it settled one. */
  settlement?: LedgerResult;
  /** The transfers booked with this update (bookingsOf), in order, if any. */
  bookings?: LedgerResult[];
  /**
   * The hourly alert windows this write marked the order owed a count in (owed.ts owedWindows):
   * its count there is then the mark's to take.
   */
  owed?: readonly string[];
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
   * Orders an admin settled whose aggregator's final word is awaited (settled-watch.ts): watched
   * (or asked again later) at `dueAt`, listed once due (soonest first), and unwatched only while
   * still due at the `dueAt` read, so a newer settlement's entry stays. Apart from the order's
   * own step: never on the normal order path.
   */
  watchSettled(reference: string, dueAt: number): Promise<void>;
  dueSettled(now: number, limit: number): Promise<{ reference: string; dueAt: number }[]>;
  unwatchSettled(reference: string, dueAt: number): Promise<void>;
  /**
   * A webhook's claim against an order's final outcome may cost one status query per order per
   * cooldown, across every process (webhook/apply.ts claimOnFinal): true for the first caller at
   * `at` (the cooldown then runs until at + cooldownMs), false while one runs. Only on that rare
   * path, never on the normal order path.
   */
  takeClaimCheck(reference: string, at: number, cooldownMs: number): Promise<boolean>;
  /**
   * Atomic compare-and-set: reads the order, runs `mutate`, writes the result and its notifications
   * only if nobody wrote in between (retrying otherwise). Null when the order does not exist.
   * `mutate` must be pure: it may run several times. `known`, an order the caller has just read,
   * saves the first read; a stale one only costs a retry, since the write compares versions.
   */
  update(reference: string, mutate: Mutation, known?: Order): Promise<UpdateResult | null>;
  /**
   * One page of orders matching every given criterion, newest first (search.ts: the index the
   * create writes in the order's own atomic step, a bounded scan per page for the filters).
   */
  search(query: OrderSearch): Promise<OrderSearchPage>;
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
