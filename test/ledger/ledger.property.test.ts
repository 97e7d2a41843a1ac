import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { emptyState, type LedgerOp, step } from "../../src/ledger/core.ts";
import {
  type AccountId,
  account,
  createMemoryLedger,
  createRedisLedger,
  type JournalEntry,
  type LedgerResult,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { testRedis } from "../support/redis.ts";

/**
 * Random interleavings of credits, cash-ins, holds, posts, voids, float debits, reversals and
 * resubmissions (a small pool of ids, so the same id comes back with the same fields or others),
 * on both stores. Sequentially, each store must answer exactly as the pure rules (core.ts) do, so
 * memory and Redis agree with each other; with two "processes" at once (two Redis connections),
 * the books must still balance and the journal must be a sequence the rules accept.
 */

const customers = [account.customer(101), account.customer(102), account.customer(103)];
const agents = [account.agent("a1"), account.agent("a2")];
const { funding, sales, float, fees, commission } = account.merchant;

// Few ids per use, so resubmissions (same fields or others) and post/void of live holds are
// frequent; now and then an id of another use, for conflicts across kinds. Credits are larger
// than holds, so holds often succeed and later resolve.
const ids = (p: string, n: number) =>
  fc.oneof(
    { weight: 9, arbitrary: fc.integer({ min: 0, max: n }).map((i) => `${p}${i}`) },
    { weight: 1, arbitrary: fc.constantFrom("c0", "h0", "d0", "r0") },
  );
const creditId = ids("c", 4);
const holdId = ids("h", 4);
const amount = fc.integer({ min: 1, max: 2_000 });
const credit = fc.integer({ min: 1_000, max: 20_000 });
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

/** `repeat`: resubmit the operation `back` steps before, as a retry would (same id, same fields). */
type Step = LedgerOp | { op: "tick"; ms: number } | { op: "repeat"; back: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ id: creditId, to: pick([...customers, ...agents]), amount: credit }).map(
    (r): Step => ({
      op: "transfer",
      input: { id: r.id, debit: funding, credit: r.to, amountPaisa: r.amount, kind: "credit" },
    }),
  ),
  fc.record({ id: creditId, from: pick(agents), to: pick(customers), amount }).map(
    (r): Step => ({
      op: "transfer",
      input: { id: r.id, debit: r.from, credit: r.to, amountPaisa: r.amount, kind: "cash_in" },
    }),
  ),
  fc.record({ id: holdId, from: pick(customers), amount }).map(
    (r): Step => ({
      op: "hold",
      input: { id: r.id, debit: r.from, credit: sales, amountPaisa: r.amount },
    }),
  ),
  fc.record({ id: holdId, from: pick(customers), amount }).map(
    (r): Step => ({
      op: "hold",
      input: { id: r.id, debit: r.from, credit: sales, amountPaisa: r.amount },
    }),
  ),
  holdId.map((pendingId): Step => ({ op: "post", pendingId })),
  holdId.map((pendingId): Step => ({ op: "void", pendingId })),
  holdId.map((pendingId): Step => ({ op: "post", pendingId })),
  holdId.map((pendingId): Step => ({ op: "void", pendingId })),
  fc.record({ id: ids("d", 2), amount }).map(
    (r): Step => ({
      op: "transfer",
      input: { id: r.id, debit: sales, credit: float, amountPaisa: r.amount, kind: "float_debit" },
    }),
  ),
  // A success's other bookings (orders/store.ts bookingsOf): the fee into fee income, an open-mode
  // float debit paid from the merchant's own money, and a commission the aggregator credited.
  fc.record({ id: ids("f", 2), amount }).map(
    (r): Step => ({
      op: "transfer",
      input: { id: r.id, debit: sales, credit: fees, amountPaisa: r.amount, kind: "fee" },
    }),
  ),
  fc.record({ id: ids("o", 2), amount }).map(
    (r): Step => ({
      op: "transfer",
      input: {
        id: r.id,
        debit: funding,
        credit: float,
        amountPaisa: r.amount,
        kind: "float_debit",
      },
    }),
  ),
  fc.record({ id: ids("m", 2), amount }).map(
    (r): Step => ({
      op: "transfer",
      input: {
        id: r.id,
        debit: float,
        credit: commission,
        amountPaisa: r.amount,
        kind: "commission",
      },
    }),
  ),
  fc.record({ id: ids("r", 2), from: pick(customers), amount }).map(
    (r): Step => ({
      op: "transfer",
      input: {
        id: r.id,
        debit: r.from,
        credit: funding,
        amountPaisa: r.amount,
        kind: "reversal",
        reason: "admin correction",
      },
    }),
  ),
  fc.integer({ min: -5, max: 50 }).map((ms): Step => ({ op: "tick", ms })),
  fc.integer({ min: 1, max: 4 }).map((back): Step => ({ op: "repeat", back })),
  fc.integer({ min: 1, max: 4 }).map((back): Step => ({ op: "repeat", back })),
);

/** Turns repeats into the operations they resubmit, over one process's own history. */
function resolveSteps(steps: Step[]): Array<LedgerOp | { op: "tick"; ms: number }> {
  const done: LedgerOp[] = [];
  const out: Array<LedgerOp | { op: "tick"; ms: number }> = [];
  for (const s of steps) {
    if (s.op === "tick") out.push(s);
    else if (s.op === "repeat") {
      const again = done[done.length - s.back];
      if (again) out.push(again);
    } else {
      done.push(s);
      out.push(s);
    }
  }
  return out;
}

async function apply(store: LedgerStore, op: LedgerOp): Promise<LedgerResult> {
  switch (op.op) {
    case "transfer":
      return store.transfer(op.input);
    case "hold":
      return store.hold(op.input);
    case "post":
      return store.post(op.pendingId);
    case "void":
      return store.void(op.pendingId);
  }
}

/** Every invariant the books promise, read through the store's own API. */
async function expectBalanced(store: LedgerStore) {
  await expectBooksBalanced(store);
  for (const a of [...customers, ...agents]) {
    expect((await store.balance(a)).availablePaisa).toBeGreaterThanOrEqual(0);
  }
}

async function wholeJournal(store: LedgerStore): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await store.journal(after ? { after } : {});
    out.push(...page.entries);
    if (!page.next) return out;
    after = page.next;
  }
}

/** The operation a journal entry records, to replay the journal through the rules. */
function opOf(e: JournalEntry): LedgerOp {
  if (e.kind === "post" || e.kind === "void") return { op: e.kind, pendingId: e.pendingId! };
  if (e.kind === "hold") {
    return {
      op: "hold",
      input: { id: e.id, debit: e.debit, credit: e.credit, amountPaisa: e.amountPaisa },
    };
  }
  return {
    op: "transfer",
    input: {
      id: e.id,
      debit: e.debit,
      credit: e.credit,
      amountPaisa: e.amountPaisa,
      kind: e.kind,
      ...(e.reason ? { reason: e.reason } : {}),
    },
  };
}

const redisT = testRedis("ledger-prop");
let run = 0;
afterAll(() => redisT.cleanup());
const second = redisT.connect();

const T0 = 1_741_600_000_000;

describe("ledger property", () => {
  it("memory, Redis and the pure rules answer every sequence alike, and the books balance", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 60, size: "max" }), async (steps) => {
        let now = T0;
        const clock = () => now;
        const prefix = `${redisT.prefix}s${run++}:`;
        const oracle = emptyState();
        const memory = createMemoryLedger({ now: clock });
        const redis = createRedisLedger({ redis: redisT.redis, prefix, now: clock });
        for (const s of resolveSteps(steps)) {
          if (s.op === "tick") {
            now += s.ms;
            continue;
          }
          const expected = step(oracle, s, now);
          expect(await apply(memory, s)).toEqual(expected);
          expect(await apply(redis, s)).toEqual(expected);
        }
        const journal = await wholeJournal(redis);
        expect(journal).toEqual(oracle.journal);
        expect(await wholeJournal(memory)).toEqual(oracle.journal);
        const accounts = await redis.accounts();
        expect(accounts).toEqual(await memory.accounts());
        for (const a of accounts as AccountId[]) {
          expect(await redis.balance(a)).toEqual(await memory.balance(a));
        }
        await expectBalanced(memory);
        await expectBalanced(redis);
      }),
      { numRuns: 60 },
    );
  });

  it("two processes at once (two Redis connections) keep the books balanced and each hold resolved once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { maxLength: 30, size: "max" }),
        fc.array(stepArb, { maxLength: 30, size: "max" }),
        fc.boolean(),
        async (left, right, onRedis) => {
          let now = T0;
          const clock = () => now;
          const prefix = `${redisT.prefix}c${run++}:`;
          const memory = createMemoryLedger({ now: clock });
          const stores: [LedgerStore, LedgerStore] = onRedis
            ? [
                createRedisLedger({ redis: redisT.redis, prefix, now: clock }),
                createRedisLedger({ redis: second, prefix, now: clock }),
              ]
            : [memory, memory];
          const fresh = new Map<string, number>();
          const drive = async (store: LedgerStore, steps: Step[]) => {
            for (const s of resolveSteps(steps)) {
              if (s.op === "tick") {
                now += Math.max(s.ms, 0);
                continue;
              }
              const r = await apply(store, s);
              if (r.ok && !r.duplicate && (r.entry.kind === "post" || r.entry.kind === "void")) {
                fresh.set(r.entry.pendingId!, (fresh.get(r.entry.pendingId!) ?? 0) + 1);
              }
            }
          };
          await Promise.all([drive(stores[0], left), drive(stores[1], right)]);
          // Every hold was posted or voided at most once, whoever asked.
          for (const n of fresh.values()) expect(n).toBe(1);
          await expectBalanced(stores[0]);
          await expectBalanced(stores[1]);
          // The journal is a sequence the rules accept, entry for entry, and gives the same balances.
          const journal = await wholeJournal(stores[0]);
          const replayed = emptyState();
          for (const e of journal) {
            expect(step(replayed, opOf(e), e.at)).toEqual({ ok: true, duplicate: false, entry: e });
          }
          for (const a of await stores[0].accounts()) {
            const b = await stores[1].balance(a);
            expect(replayed.balances.get(a)).toEqual({
              debitsPosted: b.debitsPosted,
              creditsPosted: b.creditsPosted,
              debitsPending: b.debitsPending,
              creditsPending: b.creditsPending,
            });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
