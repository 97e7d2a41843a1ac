import type { MemoryLedger } from "../ledger/memory-store.ts";
import type { LedgerResult } from "../ledger/model.ts";
import type { Notification, Order, UnmatchedEvent } from "./model.ts";
import { holdIdOf, isFinal, orderSchema } from "./model.ts";
import { owedWindows } from "./owed.ts";
import { balanceAccountOf, bookingsOf, holdOf, settlementOf } from "./postings.ts";
import { indexMembers, runSearch, type SearchSource } from "./search.ts";
import {
  type CreateResult,
  HoldRefusedError,
  type ListOpenOptions,
  type Mutation,
  nextCounterValue,
  type OrderStore,
  ReferenceInUseError,
  StoreConflictError,
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

/**
 * The orders owed a count in an hourly alert's window, as the Redis store's `owed:<name>` sets:
 * note name -> reference -> when marked. One map shared by the memory order store, which marks an
 * order in its step, and the memory crossings, which count it (system/stores.ts).
 */
export type MemoryOwed = Map<string, Map<string, number>>;

export interface MemoryOrderStoreOptions {
  outbox?: MemoryOutbox;
  /** Where a step marks the order owed an hourly count (owed.ts owedWindows); none: not marked. */
  owed?: MemoryOwed;
  /** The books an order's hold is taken in; required for orders with a holdId. */
  ledger?: MemoryLedger;
  now?: () => number;
}

const clone = <T>(v: T): T => structuredClone(v);

/** The memory store's maps; every step reads and writes them with no await in between. */
interface MemoryState {
  opts: MemoryOrderStoreOptions;
  now: () => number;
  orders: Map<string, Order>;
  byAlias: Map<string, string>;
  byTx: Map<string, string>;
  byKey: Map<string, string>;
  /** The search index's members (search.ts), as the Redis create script writes them. */
  index: Set<string>;
  counter: number;
}

const find = (st: MemoryState, reference: string): Order | undefined => {
  const direct = st.orders.get(reference);
  if (direct) return direct;
  const main = st.byAlias.get(reference);
  return main === undefined ? undefined : st.orders.get(main);
};

const ledgerOf = (st: MemoryState, o: Order): MemoryLedger => {
  if (!st.opts.ledger)
    throw new Error(`order ${o.reference} has a hold but the store has no ledger`);
  return st.opts.ledger;
};

/** The order with the customer's balance after this step, when the step records it. */
const withBalanceAfter = (st: MemoryState, current: Order | null, written: Order): Order => {
  const acc = balanceAccountOf(current, written);
  if (acc === null) return written;
  return { ...written, balanceAfterPaisa: ledgerOf(st, written).availableSync(acc) };
};

/** As the Redis script: the next free number, once the key is known to be new. */
function numbered(st: MemoryState, unnumbered: Order): Order {
  let reference: string;
  do {
    st.counter = nextCounterValue(st.counter, st.now());
    reference = String(st.counter);
  } while (st.orders.has(reference) || st.byAlias.has(reference));
  return {
    ...unnumbered,
    reference,
    ...(unnumbered.holdId === undefined ? {} : { holdId: holdIdOf(reference) }),
  };
}

function create(st: MemoryState, unnumbered: Order, opts: { numbered?: boolean }): CreateResult {
  const existing = st.byKey.get(unnumbered.idempotencyKey);
  if (existing !== undefined) {
    const o = st.orders.get(existing);
    if (o) return { created: false, order: clone(o) };
  }
  const order = opts.numbered ? numbered(st, unnumbered) : unnumbered;
  const taken = (ref: string) => st.orders.has(ref) || st.byAlias.has(ref);
  if (taken(order.reference)) throw new ReferenceInUseError(order.reference);
  const alias =
    order.executeReference !== undefined && order.executeReference !== order.reference
      ? order.executeReference
      : undefined;
  if (alias !== undefined && taken(alias)) throw new ReferenceInUseError(alias);
  // Parsed like the Redis store does: an order one store refuses, the other refuses too.
  const parsed = orderSchema.parse(order);
  // The hold is decided before anything is written and committed with the order, no await
  // between: an order without its hold, or a hold without its order, cannot exist.
  const hold = holdOf(parsed);
  const decision = hold ? ledgerOf(st, parsed).decideSync({ op: "hold", input: hold }) : null;
  if (decision?.type === "refused") throw new HoldRefusedError(decision.refusal);
  if (decision) ledgerOf(st, parsed).commitSync(decision);
  const stored = withBalanceAfter(st, null, parsed);
  if (alias !== undefined) st.byAlias.set(alias, order.reference);
  st.orders.set(order.reference, stored);
  st.byKey.set(order.idempotencyKey, order.reference);
  for (const m of indexMembers(stored)) st.index.add(m);
  if (order.transactionId) st.byTx.set(order.transactionId, order.reference);
  return { created: true, order: clone(stored) };
}

/** The hold's post or void and the success's bookings, written with the order (postings.ts). */
function post(st: MemoryState, current: Order, written: Order) {
  const action = settlementOf(current, written);
  let settlement: LedgerResult | undefined;
  if (action && written.holdId) {
    const l = ledgerOf(st, written);
    settlement = l.commitSync(l.decideSync({ op: action, pendingId: written.holdId }));
  }
  // A store without books (logic tests only; the system always gives one) has nowhere to book:
  // an order with a hold would have thrown above.
  const transfers = st.opts.ledger ? bookingsOf(current, written) : [];
  const bookings = transfers.map((input) => {
    const l = ledgerOf(st, written);
    return l.commitSync(l.decideSync({ op: "transfer", input }));
  });
  return { ...(settlement ? { settlement } : {}), ...(bookings.length > 0 ? { bookings } : {}) };
}

/** As the Redis update script: the order owed a count in each hourly window named, in its step. */
function markOwed(st: MemoryState, reference: string, names: readonly string[]): void {
  const owed = st.opts.owed;
  if (!owed) return;
  for (const name of names) {
    let set = owed.get(name);
    if (!set) {
      set = new Map();
      owed.set(name, set);
    }
    set.set(reference, st.now());
  }
}

/**
 * As the Redis update script: a transaction id the step first gives the order, already indexed to
 * another order, is refused; the mutation runs again knowing it (once: a second is a bug).
 */
function takenBy(st: MemoryState, current: Order, written: Order): string | undefined {
  const tx = written.transactionId;
  if (tx === undefined || tx === current.transactionId) return undefined;
  const owner = st.byTx.get(tx);
  return owner === undefined || owner === current.reference ? undefined : owner;
}

function update(st: MemoryState, reference: string, mutate: Mutation): UpdateResult | null {
  const current = find(st, reference);
  if (!current) return null;
  let result = mutate(clone(current));
  const owner = result ? takenBy(st, current, result.order) : undefined;
  if (result && owner !== undefined) {
    const tx = result.order.transactionId ?? "";
    result = mutate(clone(current), { transactionId: tx, reference: owner });
    if (result && takenBy(st, current, result.order) !== undefined)
      throw new StoreConflictError(current.reference);
  }
  if (!result) return { order: clone(current), updated: false, notifications: [] };
  const written = orderSchema.parse({ ...result.order, version: current.version + 1 });
  const posted = post(st, current, written);
  const final = withBalanceAfter(st, current, written);
  st.orders.set(current.reference, final);
  if (written.transactionId && !st.byTx.has(written.transactionId))
    st.byTx.set(written.transactionId, written.reference);
  st.opts.outbox?.append(result.notifications);
  // Marked only where a map takes the marks (else no count would ever take them).
  const owed = st.opts.owed ? owedWindows(current, written, result.owes) : [];
  markOwed(st, written.reference, owed);
  return {
    order: clone(final),
    updated: true,
    notifications: result.notifications,
    ...posted,
    ...(owed.length > 0 ? { owed } : {}),
  };
}

/** The same search as the Redis adapter's, over the maps (a member is compared as Redis does: by text). */
function searchSource(st: MemoryState): SearchSource {
  const copy = (o: Order | undefined) => (o ? clone(o) : null);
  return {
    get: async (reference) => copy(find(st, reference)),
    getByTransactionId: async (tx) => {
      const ref = st.byTx.get(tx);
      return copy(ref === undefined ? undefined : st.orders.get(ref));
    },
    range: async (min, max, n) =>
      [...st.index]
        .filter((m) => m >= min && m < max)
        .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
        .slice(0, n),
    loadMany: async (refs) => refs.flatMap((r) => copy(st.orders.get(r)) ?? []),
  };
}

export function createMemoryOrderStore(opts: MemoryOrderStoreOptions = {}): OrderStore {
  const st: MemoryState = {
    opts,
    now: opts.now ?? Date.now,
    orders: new Map(),
    byAlias: new Map(),
    byTx: new Map(),
    byKey: new Map(),
    index: new Set(),
    counter: 0,
  };
  const { orders, byTx, byKey } = st;
  const unmatched: UnmatchedEvent[] = [];
  /** Settled orders awaiting the aggregator's word: reference -> when to ask next. */
  const watch = new Map<string, number>();
  /** Per order: until when a claim against its final outcome costs no status query (takeClaimCheck). */
  const claimChecks = new Map<string, number>();

  return {
    async nextReference() {
      st.counter = nextCounterValue(st.counter, st.now());
      return String(st.counter);
    },

    create: async (order, o = {}) => create(st, order, o),

    async get(reference) {
      const o = find(st, reference);
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

    async watchSettled(reference, dueAt) {
      watch.set(reference, dueAt);
    },
    async dueSettled(at, limit) {
      return [...watch]
        .filter(([, dueAt]) => dueAt <= at)
        .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
        .slice(0, Math.max(0, limit))
        .map(([reference, dueAt]) => ({ reference, dueAt }));
    },
    async unwatchSettled(reference, dueAt) {
      if (watch.get(reference) === dueAt) watch.delete(reference);
    },

    async takeClaimCheck(reference, at, cooldownMs) {
      if ((claimChecks.get(reference) ?? 0) > at) return false;
      // Ended cooldowns go (as the Redis keys expire), so the map stays small.
      for (const [ref, till] of claimChecks) if (till <= at) claimChecks.delete(ref);
      claimChecks.set(reference, Math.floor(at) + Math.max(1, Math.floor(cooldownMs)));
      return true;
    },

    update: async (reference, mutate) => update(st, reference, mutate),

    search: async (query) => runSearch(searchSource(st), query),

    async recordUnmatched(event) {
      unmatched.unshift(clone(event));
      if (unmatched.length > UNMATCHED_CAP) unmatched.length = UNMATCHED_CAP;
    },

    async listUnmatched(limit) {
      return unmatched.slice(0, limit).map(clone);
    },
  };
}
