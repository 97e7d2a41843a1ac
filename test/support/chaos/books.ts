import type { Redis } from "ioredis";
import { expect } from "vitest";
import type { Books } from "../../../src/books/index.ts";
import { booksOnRedis } from "../books.ts";

/**
 * The books as an admin reads them (GET /books), computed from the product's Redis by the test
 * (issue 25): the float the books expect against the sandbox's wallet. `anchor` before the first
 * order (a no-op when the product's check at start did it), `expectNoDrift` once every order is
 * final: the journal balances, no debit is unknown, and the drift is 0.
 */
export function chaosBooks(redis: Redis, prefix: string, wallet: () => number) {
  const books = booksOnRedis(redis, prefix, wallet);
  return {
    anchor: () => expectAnchored(books),
    expectNoDrift: () => expectNoDrift(books),
  };
}

/**
 * Before the first order: the opening float is booked and nothing drifts yet. The product's own
 * check at start may book the opening while this report reads the float before and after the
 * wallet: that reading counts the move as one unknown debit (scan.ts `inFlight`) and gives no
 * verdict, so it is read again (a few times, briefly) until a reading is consistent.
 */
export async function expectAnchored(books: Pick<Books, "report">): Promise<void> {
  let r = await books.report();
  for (let tries = 1; r.float.unknownDebits !== 0 && tries < 20; tries++) {
    await new Promise((done) => setTimeout(done, 250));
    r = await books.report();
  }
  expect(r.float.unknownDebits).toBe(0);
  expect(r.float.driftPaisa).toBe(0);
}

/**
 * Once every order is final: the journal balances, no debit is unknown, and the float the books
 * expect is the aggregator's wallet (drift 0). Answers the figures for the test's report.
 */
export async function expectNoDrift(books: Pick<Books, "report">): Promise<Record<string, number>> {
  const r = await books.report();
  const figures = {
    "books: float expected (paisa)": r.float.expectedPaisa,
    "books: aggregator's wallet (paisa)": r.float.reportedPaisa ?? -1,
    "books: drift (paisa)": r.float.driftPaisa ?? -1,
    "books: debits inferred (orders)": r.inferredDebits.orders,
    "books: margin counted on (orders)": r.margin.orders,
  };
  expect(r.balanced).toBe(true);
  expect(r.float.unknownDebits).toBe(0);
  expect(figures["books: drift (paisa)"]).toBe(0);
  return figures;
}
