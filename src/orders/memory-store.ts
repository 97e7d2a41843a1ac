import type { MemoryLedger } from "../ledger/memory-store.ts";
import type { LedgerResult } from "../ledger/model.ts";
import type { Notification, Order, UnmatchedEvent } from "./model.ts";
import { holdIdOf, isFinal, orderSchema } from "./model.ts";
import { balanceAccountOf, bookingsOf, holdOf, settlementOf } from "./postings.ts";
import {
  type CreateResult,
  HoldRefusedError,
  type ListOpenOptions,
  type Mutation,
  nextCounterValue,
  type OrderStore,
  ReferenceInUseError,
  UNMATCHED_CAP,
  type UpdateResult,
} from "./store.ts";

/**
 * Memory adapter of the order store, for the embedded (single-process) mode and logic tests. Orders
 * are parsed with the order schema on every write, as in the Redis adapter. Every
 * method does its reads and writes without an await in between, so each is atomic on the event loop;
 * notifications go to the outbox synchronously inside the same step.
 */

/** Where the memory store hands notifications (the memory notification queue implements it). */
export interface MemoryOutbox {
  append(notifications: readonly Notification[]): void;
}

export interface MemoryOrderStoreOptions {
  outbox?: MemoryOutbox;
  /** The books an order's hold is taken in; required for orders with a holdId. */
  ledger?: MemoryLedger;
  now?: () => number;
}

const clone = <T>(v: T): T => structuredClone(v);

export function createMemoryOrderStore(opts: MemoryOrderStoreOptions = {}): OrderStore {
  const now = opts.now ?? Date.now;
  const orders = new Map<string, Order>();
  const byAlias = new Map<string, string>();
  const byTx = new Map<string, string>();
  const byKey = new Map<string, string>();
  const unmatched: UnmatchedEvent[] = [];
  let counter = 0;

  const find = (reference: string): Order | undefined => {
    const direct = orders.get(reference);
    if (direct) return direct;
    const main = byAlias.get(reference);
    return main === undefined ? undefined : orders.get(main);
  };

  const ledgerOf = (o: Order): MemoryLedger => {
    if (!opts.ledger)
      throw new Error(`order ${o.reference} has a hold but the store has no ledger`);
    return opts.ledger;
  };

  /** The order with the customer's balance after this step, when the step records it. */
  const withBalanceAfter = (current: Order | null, written: Order): Order => {
    const acc = balanceAccountOf(current, written);
    if (acc === null) return written;
    return { ...written, balanceAfterPaisa: ledgerOf(written).availableSync(acc) };
  };

  return {
    async nextReference() {
      counter = nextCounterValue(counter, now());
      return String(counter);
    },

    async create(unnumbered: Order, opts: { numbered?: boolean } = {}): Promise<CreateResult> {
      const existing = byKey.get(unnumbered.idempotencyKey);
      if (existing !== undefined) {
        const o = orders.get(existing);
        if (o) return { created: false, order: clone(o) };
      }
      let order = unnumbered;
      if (opts.numbered) {
        // As the Redis script: the next free number, once the key is known to be new.
        let reference: string;
        do {
          counter = nextCounterValue(counter, now());
          reference = String(counter);
        } while (orders.has(reference) || byAlias.has(reference));
        order = {
          ...unnumbered,
          reference,
          ...(unnumbered.holdId === undefined ? {} : { holdId: holdIdOf(reference) }),
        };
      }
      if (orders.has(order.reference) || byAlias.has(order.reference))
        throw new ReferenceInUseError(order.reference);
      const alias =
        order.executeReference !== undefined && order.executeReference !== order.reference
          ? order.executeReference
          : undefined;
      if (alias !== undefined && (orders.has(alias) || byAlias.has(alias)))
        throw new ReferenceInUseError(alias);
      // Parsed like the Redis store does: an order one store refuses, the other refuses too.
      const parsed = orderSchema.parse(order);
      // The hold is decided before anything is written and committed with the order, no await
      // between: an order without its hold, or a hold without its order, cannot exist.
      const hold = holdOf(parsed);
      const decision = hold ? ledgerOf(parsed).decideSync({ op: "hold", input: hold }) : null;
      if (decision?.type === "refused") throw new HoldRefusedError(decision.refusal);
      if (decision) ledgerOf(parsed).commitSync(decision);
      const stored = withBalanceAfter(null, parsed);
      if (alias !== undefined) byAlias.set(alias, order.reference);
      orders.set(order.reference, stored);
      byKey.set(order.idempotencyKey, order.reference);
      if (order.transactionId) byTx.set(order.transactionId, order.reference);
      return { created: true, order: clone(stored) };
    },

    async get(reference) {
      const o = find(reference);
      return o ? clone(o) : null;
    },

    async getByTransactionId(transactionId) {
      const ref = byTx.get(transactionId);
      const o = ref === undefined ? undefined : orders.get(ref);
      return o ? clone(o) : null;
    },

    async getByIdempotencyKey(key) {
      const ref = byKey.get(key);
      const o = ref === undefined ? undefined : orders.get(ref);
      return o ? clone(o) : null;
    },

    async listByUser(userId, limit, offset = 0) {
      return [...orders.values()]
        .filter((o) => o.userId === userId)
        .sort((a, b) => b.createdAt - a.createdAt || b.reference.localeCompare(a.reference))
        .slice(offset, offset + limit)
        .map(clone);
    },

    async listOpen({ createdBefore, limit, offset = 0 }: ListOpenOptions) {
      return [...orders.values()]
        .filter((o) => !isFinal(o.status) && o.createdAt <= createdBefore)
        .sort((a, b) => a.createdAt - b.createdAt || a.reference.localeCompare(b.reference))
        .slice(offset, offset + limit)
        .map(clone);
    },

    async update(reference: string, mutate: Mutation): Promise<UpdateResult | null> {
      const current = find(reference);
      if (!current) return null;
      const result = mutate(clone(current));
      if (!result) return { order: clone(current), updated: false, notifications: [] };
      const written = orderSchema.parse({ ...result.order, version: current.version + 1 });
      const action = settlementOf(current, written);
      let settlement: LedgerResult | undefined;
      if (action && written.holdId) {
        const l = ledgerOf(written);
        settlement = l.commitSync(l.decideSync({ op: action, pendingId: written.holdId }));
      }
      // A store without books (logic tests of open mode only; the system always gives one) has
      // nowhere to book: an order with a hold would have thrown above.
      const transfers = opts.ledger ? bookingsOf(current, written) : [];
      const bookings = transfers.map((input) => {
        const l = ledgerOf(written);
        return l.commitSync(l.decideSync({ op: "transfer", input }));
      });
      const final = withBalanceAfter(current, written);
      orders.set(current.reference, final);
      if (written.transactionId && !byTx.has(written.transactionId))
        byTx.set(written.transactionId, written.reference);
      opts.outbox?.append(result.notifications);
      return {
        order: clone(final),
        updated: true,
        notifications: result.notifications,
        ...(settlement ? { settlement } : {}),
        ...(bookings.length > 0 ? { bookings } : {}),
      };
    },

    async recordUnmatched(event) {
      unmatched.unshift(clone(event));
      if (unmatched.length > UNMATCHED_CAP) unmatched.length = UNMATCHED_CAP;
    },

    async listUnmatched(limit) {
      return unmatched.slice(0, limit).map(clone);
    },
  };
}
