import { accountPageOf } from "./account-index.ts";
import type { AccountId } from "./chart.ts";
import {
  audit,
  commit,
  type Decision,
  decide,
  emptyState,
  type LedgerOp,
  step,
  toBalance,
} from "./core.ts";
import {
  holdInputSchema,
  type JournalEntry,
  type LedgerResult,
  type PendingState,
  transferIdSchema,
  transferInputSchema,
  ZERO,
} from "./model.ts";
import { JOURNAL_PAGE_MAX, type LedgerStore } from "./store.ts";

/**
 * The memory ledger, plus synchronous decide/commit for the memory order store, which must take a
 * hold (or post/void one) and write its order in one synchronous step: decide, check, then commit
 * both with no await between.
 */
export interface MemoryLedger extends LedgerStore {
  decideSync(op: LedgerOp): Decision;
  commitSync(d: Decision): LedgerResult;
  /** An account's available balance now, read in the same synchronous step (an order's balance after). */
  availableSync(account: AccountId): number;
}

/** The ledger in memory, for local mode and as the contract's reference: core.ts's rules as they are. */
export function createMemoryLedger(opts: { now?: () => number } = {}): MemoryLedger {
  const now = opts.now ?? Date.now;
  const state = emptyState();
  // Each call runs to completion before the next (no await inside): the same atomicity as a script.
  // A malformed input rejects the promise, as the Redis store's does (`op` builds inside the try).
  const run = async (op: () => LedgerOp): Promise<LedgerResult> => step(state, op(), now());

  return {
    decideSync: (op) => decide(state, op, now()),
    commitSync: (d) => commit(state, d),
    availableSync: (acc) => toBalance(acc, state.balances.get(acc) ?? ZERO).availablePaisa,
    transfer: (t) => run(() => ({ op: "transfer", input: transferInputSchema.parse(t) })),
    hold: (t) => run(() => ({ op: "hold", input: holdInputSchema.parse(t) })),
    post: (id) => run(() => ({ op: "post", pendingId: transferIdSchema.parse(id) })),
    void: (id) => run(() => ({ op: "void", pendingId: transferIdSchema.parse(id) })),

    async balance(account) {
      return toBalance(account, state.balances.get(account) ?? ZERO);
    },

    async journal(q = {}) {
      const limit = Math.min(q.limit ?? JOURNAL_PAGE_MAX, JOURNAL_PAGE_MAX);
      const after = q.after === undefined ? undefined : seqKey(q.after);
      const entries: JournalEntry[] = [];
      for (const e of state.journal) {
        if (after !== undefined && compareSeq(seqKey(e.seq), after) <= 0) continue;
        if (q.from !== undefined && e.at < q.from) continue;
        if (q.to !== undefined && e.at >= q.to) break;
        if (entries.length === limit) return { entries, next: entries.at(-1)!.seq };
        entries.push(e);
      }
      return { entries };
    },

    async pendingOf(id) {
      const p = state.pending.get(id);
      if (!p) return null;
      const hold = state.bySeq.get(state.transfers.get(id)!.seq)!;
      return p.seq === undefined
        ? { state: p.state, hold }
        : { state: p.state, hold, resolution: state.bySeq.get(p.seq)! };
    },

    async entryOf(id) {
      const t = state.transfers.get(id);
      return t === undefined ? null : (state.bySeq.get(t.seq) ?? null);
    },

    async accountEntries(account, q) {
      return accountPageOf(state.journal, account, q);
    },

    async entriesOf(reference) {
      return state.journal.filter((e) => e.reference === reference).slice(0, JOURNAL_PAGE_MAX);
    },

    async accounts() {
      return [...state.balances.keys()].sort();
    },

    async check() {
      const pending = new Map<string, PendingState>();
      for (const [id, p] of state.pending) pending.set(id, p.state);
      return audit(state.balances, state.journal, pending);
    },
  };
}

const seqKey = (seq: string): [number, number] => seq.split("-").map(Number) as [number, number];
const compareSeq = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
