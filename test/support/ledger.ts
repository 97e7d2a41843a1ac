import { expect } from "vitest";
import type { LedgerStore } from "../../src/ledger/index.ts";

/**
 * The books' own check, every invariant at once: balances recomputed from the journal equal the
 * stored ones, all accounts sum to zero (posted and pending), nobody the merchant owes is below
 * zero, and every hold was resolved at most once.
 */
export async function expectBooksBalanced(ledger: LedgerStore): Promise<void> {
  expect(await ledger.check()).toMatchObject({
    ok: true,
    postedSum: 0,
    pendingSum: 0,
    differences: [],
    belowZero: [],
    pendingProblems: [],
  });
}
