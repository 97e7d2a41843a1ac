import { afterAll, describe, expect, it } from "vitest";
import {
  type Books,
  createBooks,
  createBooksCheck,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { createRedisLedger } from "../../src/ledger/index.ts";
import { createRedisLease } from "../../src/orders/lease.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { testRedis, waitUntil } from "../support/orders.ts";

/**
 * Review s32-books 2: the scheduled books check takes its lease for the interval (a day) before it
 * runs. One that failed (Redis away a moment while the ledger or the orders were read) kept the
 * lease and set no retry: no process checked the books again for a day. It is now tried again
 * after `retryMs`, as a check without a verdict is, by whichever process gets the lease.
 */

describe("a books check that failed", () => {
  const r = testRedis("books-check-retry");
  afterAll(() => r.cleanup());

  it("is tried again after retryMs, not an interval later, by one of two processes", async () => {
    const runs: Array<{ process: number; failed: boolean }> = [];
    let failures = 1;
    const processes = [r.redis, r.connect()].map((redis, i) => {
      const books = createBooks(
        {
          ledger: createRedisLedger({ redis, prefix: r.prefix }),
          orders: createRedisOrderStore({ redis, prefix: r.prefix }),
          walletBalance: async () => ({ creditAvailablePaisa: 100_000 }),
          crossings: createRedisCrossings(redis, r.prefix),
          now: Date.now,
        },
        { tolerancePaisa: 0 },
      );
      // The first check's read fails as a Redis blip would; the books are the real ones.
      const flaky: Books = {
        ...books,
        check: async (admins) => {
          const failed = failures > 0;
          runs.push({ process: i, failed });
          if (failed) {
            failures -= 1;
            throw new Error("Connection is closed. (injected)");
          }
          return books.check(admins);
        },
      };
      return {
        books,
        check: createBooksCheck({
          books: flaky,
          lease: createRedisLease(redis, r.prefix),
          intervalMs: 86_400_000,
          retryMs: 50,
          adminChatIds: [3001],
        }),
      };
    });
    for (const p of processes) p.check.start();
    try {
      await waitUntil(async () => runs.some((x) => !x.failed), "the failed check's retry", {
        timeoutMs: 10_000,
      });
    } finally {
      await Promise.all(processes.map((p) => p.check.stop()));
    }
    // One failed run, then one that gave a verdict: never two at once, never the same day's twice.
    expect(runs.map((x) => x.failed)).toEqual([true, false]);
    const report = await processes[0]!.books.report();
    expect(report.lastCheck).toMatchObject({ verdict: "within", driftPaisa: 0 });
  });
});
