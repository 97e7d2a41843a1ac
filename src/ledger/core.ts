import { type AccountId, debitsMustNotExceedCredits } from "./chart.ts";
import type {
  Balance,
  Balances,
  CheckReport,
  HoldInput,
  JournalEntry,
  LedgerResult,
  PendingState,
  Refusal,
  TransferInput,
} from "./model.ts";
import { ZERO } from "./model.ts";

/**
 * The ledger's rules as pure functions: the memory store runs on them and the tests use them as
 * the oracle the Redis store (the same rules in Lua, `lua.ts`) must agree with. `decide` reads a
 * state and returns what would change or why not; `commit` applies a decision; `step` does both.
 */

export type LedgerOp =
  | { op: "transfer"; input: TransferInput }
  | { op: "hold"; input: HoldInput }
  | { op: "post" | "void"; pendingId: string };

/** The whole ledger in memory. */
export interface LedgerState {
  balances: Map<AccountId, Balances>;
  /** Transfer id -> the seq of its journal entry and its fingerprint (the fields that must match). */
  transfers: Map<string, { seq: string; fingerprint: string }>;
  /** Hold id -> its state and, once resolved, the seq of the post or void entry. */
  pending: Map<string, { state: PendingState; seq?: string }>;
  journal: JournalEntry[];
  bySeq: Map<string, JournalEntry>;
}

export function emptyState(): LedgerState {
  return {
    balances: new Map(),
    transfers: new Map(),
    pending: new Map(),
    journal: [],
    bySeq: new Map(),
  };
}

export type Decision =
  | { type: "duplicate"; entry: JournalEntry }
  | { type: "refused"; refusal: Refusal }
  | {
      type: "apply";
      entry: JournalEntry;
      /** The new balances of the two accounts the entry touches. */
      balances: Array<[AccountId, Balances]>;
      transfer?: { id: string; fingerprint: string };
      pending?: { id: string; state: PendingState; seq?: string };
    };

/**
 * The fields a resubmission must repeat to be the same transfer. Time is not one of them: a retry
 * comes later. The Redis store stores and compares the same string.
 */
export function fingerprint(kind: string, t: HoldInput | TransferInput): string {
  const reason = "reason" in t ? (t.reason ?? "") : "";
  return JSON.stringify([
    kind,
    t.debit,
    t.credit,
    String(t.amountPaisa),
    t.reference ?? "",
    reason,
  ]);
}

/** The next journal position: never earlier than the last one ("<ms>-<n>", as Redis streams). */
function nextSeq(last: string | undefined, now: number): { seq: string; at: number } {
  if (!last) return { seq: `${now}-0`, at: now };
  const [ms, n] = last.split("-").map(Number) as [number, number];
  if (ms >= now) return { seq: `${ms}-${n + 1}`, at: ms };
  return { seq: `${now}-0`, at: now };
}

function availableOf(b: Balances): number {
  return b.creditsPosted - b.debitsPosted - b.debitsPending;
}

export function toBalance(account: AccountId, b: Balances): Balance {
  return {
    account,
    ...b,
    postedPaisa: b.creditsPosted - b.debitsPosted,
    heldPaisa: b.debitsPending,
    availablePaisa: availableOf(b),
  };
}

/** The balances of the two accounts after `entry`, which must be one of its kind's rules. */
function applyEntry(
  get: (a: AccountId) => Balances,
  entry: JournalEntry,
): Array<[AccountId, Balances]> {
  const a = entry.amountPaisa;
  const d = { ...get(entry.debit) };
  const c = { ...get(entry.credit) };
  switch (entry.kind) {
    case "hold":
      d.debitsPending += a;
      c.creditsPending += a;
      break;
    case "post":
      d.debitsPending -= a;
      c.creditsPending -= a;
      d.debitsPosted += a;
      c.creditsPosted += a;
      break;
    case "void":
      d.debitsPending -= a;
      c.creditsPending -= a;
      break;
    default:
      d.debitsPosted += a;
      c.creditsPosted += a;
  }
  return [
    [entry.debit, d],
    [entry.credit, c],
  ];
}

export function decide(state: LedgerState, op: LedgerOp, now: number): Decision {
  const balanceOf = (a: AccountId) => state.balances.get(a) ?? ZERO;
  const last = state.journal.at(-1)?.seq;

  if ("pendingId" in op) {
    const p = state.pending.get(op.pendingId);
    if (!p)
      return { type: "refused", refusal: { code: "unknown_pending", pendingId: op.pendingId } };
    const want: PendingState = op.op === "post" ? "posted" : "voided";
    if (p.state !== "pending") {
      if (p.state === want) return { type: "duplicate", entry: state.bySeq.get(p.seq!)! };
      return {
        type: "refused",
        refusal: { code: "already_resolved", pendingId: op.pendingId, state: p.state },
      };
    }
    const hold = state.bySeq.get(state.transfers.get(op.pendingId)!.seq)!;
    const { seq, at } = nextSeq(last, now);
    const entry: JournalEntry = {
      seq,
      at,
      id: `${op.pendingId}/${op.op}`,
      kind: op.op,
      debit: hold.debit,
      credit: hold.credit,
      amountPaisa: hold.amountPaisa,
      ...(hold.reference === undefined ? {} : { reference: hold.reference }),
      pendingId: op.pendingId,
    };
    return {
      type: "apply",
      entry,
      balances: applyEntry(balanceOf, entry),
      pending: { id: op.pendingId, state: want, seq },
    };
  }

  const t = op.input;
  const kind = op.op === "transfer" ? op.input.kind : "hold";
  const fp = fingerprint(kind, t);
  const prior = state.transfers.get(t.id);
  if (prior) {
    if (prior.fingerprint !== fp)
      return { type: "refused", refusal: { code: "id_conflict", id: t.id } };
    return { type: "duplicate", entry: state.bySeq.get(prior.seq)! };
  }
  if (debitsMustNotExceedCredits(t.debit)) {
    const available = availableOf(balanceOf(t.debit));
    if (available < t.amountPaisa) {
      return {
        type: "refused",
        refusal: {
          code: "insufficient_funds",
          account: t.debit,
          availablePaisa: available,
          amountPaisa: t.amountPaisa,
          shortfallPaisa: t.amountPaisa - available,
        },
      };
    }
  }
  const { seq, at } = nextSeq(last, now);
  const reason = "reason" in t ? t.reason : undefined;
  const entry: JournalEntry = {
    seq,
    at,
    id: t.id,
    kind,
    debit: t.debit,
    credit: t.credit,
    amountPaisa: t.amountPaisa,
    ...(t.reference === undefined ? {} : { reference: t.reference }),
    ...(reason === undefined ? {} : { reason }),
  };
  return {
    type: "apply",
    entry,
    balances: applyEntry(balanceOf, entry),
    transfer: { id: t.id, fingerprint: fp },
    ...(kind === "hold" ? { pending: { id: t.id, state: "pending" as const } } : {}),
  };
}

export function commit(state: LedgerState, d: Decision): LedgerResult {
  if (d.type === "refused") return { ok: false, refusal: d.refusal };
  if (d.type === "duplicate") return { ok: true, duplicate: true, entry: d.entry };
  for (const [a, b] of d.balances) state.balances.set(a, b);
  if (d.transfer)
    state.transfers.set(d.transfer.id, { seq: d.entry.seq, fingerprint: d.transfer.fingerprint });
  if (d.pending) {
    state.pending.set(
      d.pending.id,
      d.pending.seq === undefined
        ? { state: d.pending.state }
        : { state: d.pending.state, seq: d.pending.seq },
    );
  }
  state.journal.push(d.entry);
  state.bySeq.set(d.entry.seq, d.entry);
  return { ok: true, duplicate: false, entry: d.entry };
}

export function step(state: LedgerState, op: LedgerOp, now: number): LedgerResult {
  return commit(state, decide(state, op, now));
}

/** Balances recomputed from the journal alone. */
function replay(journal: readonly JournalEntry[]): Map<AccountId, Balances> {
  const out = new Map<AccountId, Balances>();
  for (const e of journal) {
    for (const [a, b] of applyEntry((x) => out.get(x) ?? ZERO, e)) out.set(a, b);
  }
  return out;
}

const same = (x: Balances, y: Balances) =>
  x.debitsPosted === y.debitsPosted &&
  x.creditsPosted === y.creditsPosted &&
  x.debitsPending === y.debitsPending &&
  x.creditsPending === y.creditsPending;

/**
 * The books' self-check over what a store holds: stored balances against the journal's
 * recomputation, the zero sums, nobody the merchant owes below zero, and every hold resolved at
 * most once and as the pending states say.
 */
export function audit(
  stored: ReadonlyMap<AccountId, Balances>,
  journal: readonly JournalEntry[],
  pending: ReadonlyMap<string, PendingState>,
): CheckReport {
  const recomputed = replay(journal);
  const accounts = new Set<AccountId>([...stored.keys(), ...recomputed.keys()]);
  const differences: CheckReport["differences"] = [];
  const belowZero: CheckReport["belowZero"] = [];
  let postedSum = 0;
  let pendingSum = 0;
  for (const a of [...accounts].sort()) {
    const s = stored.get(a) ?? ZERO;
    const j = recomputed.get(a) ?? ZERO;
    if (!same(s, j)) differences.push({ account: a, stored: { ...s }, journal: { ...j } });
    postedSum += s.creditsPosted - s.debitsPosted;
    pendingSum += s.creditsPending - s.debitsPending;
    if (debitsMustNotExceedCredits(a) && availableOf(s) < 0) {
      belowZero.push({ account: a, availablePaisa: availableOf(s) });
    }
  }

  const pendingProblems: string[] = [];
  const fromJournal = new Map<string, PendingState>();
  for (const e of journal) {
    if (e.kind === "hold") {
      if (fromJournal.has(e.id)) pendingProblems.push(`hold ${e.id} journaled twice`);
      fromJournal.set(e.id, "pending");
    } else if (e.kind === "post" || e.kind === "void") {
      const id = e.pendingId ?? "";
      const was = fromJournal.get(id);
      if (was === undefined) pendingProblems.push(`${e.kind} of unknown hold ${id}`);
      else if (was !== "pending") pendingProblems.push(`hold ${id} ${e.kind} after ${was}`);
      fromJournal.set(id, e.kind === "post" ? "posted" : "voided");
    }
  }
  for (const id of new Set([...pending.keys(), ...fromJournal.keys()])) {
    if (pending.get(id) !== fromJournal.get(id)) {
      pendingProblems.push(
        `hold ${id}: stored ${pending.get(id) ?? "none"}, journal ${fromJournal.get(id) ?? "none"}`,
      );
    }
  }

  return {
    ok:
      differences.length === 0 &&
      belowZero.length === 0 &&
      pendingProblems.length === 0 &&
      postedSum === 0 &&
      pendingSum === 0,
    accounts: accounts.size,
    entries: journal.length,
    postedSum,
    pendingSum,
    differences,
    belowZero,
    pendingProblems,
  };
}
