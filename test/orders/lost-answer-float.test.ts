import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import type { Books } from "../../src/books/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { isFinal } from "../../src/orders/model.ts";
import type { Orders } from "../../src/orders/service.ts";
import { booksOnRedis } from "../support/books.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import {
  ordersOnRedis,
  reconcilerOnRedis,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Issue 25, point 1: an order whose execute answer is lost after the aggregator committed (sandbox
 * fault commitThenDrop) and which then succeeds, through the reconciler's status query or through
 * the webhook's success, books the aggregator's debit once: one `order:<ref>:float` transfer,
 * marked as inferred (neither answer carries the debit), and the float the books expect equals
 * the sandbox's wallet (drift 0).
 */

const TOKEN = "lost-float-token";

describe("an execute answer lost after the aggregator committed", () => {
  const r = testRedis("lost-float");
  let aggregator: SandboxAggregator;
  let sandbox: Sandbox;
  let ledger: LedgerStore;
  let orders: Orders;
  let books: Books;

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, { faults: { [TOKEN]: { commitThenDrop: 1 } } });
    sandbox = aggregator.sandbox;
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, { accessMode: "staff", provider: aggregator.client });
    books = booksOnRedis(r.redis, r.prefix, () => sandbox.balance(TOKEN));
    // The opening float is booked from the aggregator's figure before any order.
    expect((await books.report()).float.driftPaisa).toBe(0);
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  async function floatTransfers(reference: string) {
    return (await ledger.journal()).entries.filter((e) => e.id === `order:${reference}:float`);
  }

  it("a Rs 200 mobile order made final by the reconciler books the debit once: drift 0", async () => {
    const placed = await placeAndSubmit(
      orders,
      mobileInput({ connectionNo: "9841220001", amountPaisa: 20_000 }),
    );
    expect(placed.status).toBe("unknown");
    const reconciler = reconcilerOnRedis(r, {
      orders,
      provider: aggregator.client,
      maxAgeMs: 3_600_000,
      notFoundGraceMs: 0,
    });
    await waitUntil(
      async () => {
        await reconciler.runOnce();
        const o = await orders.get(placed.reference);
        return o !== null && isFinal(o.status);
      },
      "the order final",
      { timeoutMs: 10_000, intervalMs: 30 },
    );
    const final = await orders.get(placed.reference);
    expect(final?.status).toBe("success");
    expect(final?.wallet).toMatchObject({ debitAmountPaisa: 20_000, source: "inferred" });
    const transfers = await floatTransfers(placed.reference);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amountPaisa: 20_000, kind: "float_debit" });
    expect(transfers[0]?.reason).toMatch(/inferred/);

    const report = await books.report();
    expect(report.float.reportedPaisa).toBe(5_000_000 - 20_000);
    expect(report.float.driftPaisa).toBe(0);
    expect(report.margin.orders).toBe(1);
    expect(report.inferredDebits).toEqual({ orders: 1, paisa: 20_000 });
    await expectBooksBalanced(ledger);
  });

  it("the same order made final by the webhook's success (a push) books it once, twice told", async () => {
    const placed = await placeAndSubmit(
      orders,
      mobileInput({ connectionNo: "9841220002", amountPaisa: 20_000 }),
    );
    expect(placed.status).toBe("unknown");
    await waitUntil(
      async () =>
        sandbox
          .transactions(TOKEN)
          .some((t) => t.referenceNo === placed.reference && t.status === "success"),
      "the sandbox's success",
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    // What the webhook route applies for a verified success push, delivered twice.
    for (let i = 0; i < 2; i++) {
      await orders.apply({
        reference: placed.reference,
        source: "webhook",
        status: "success",
        at: Date.now(),
      });
    }
    expect((await orders.get(placed.reference))?.status).toBe("success");
    expect(await floatTransfers(placed.reference)).toHaveLength(1);
    const report = await books.report();
    expect(report.float.driftPaisa).toBe(0);
    expect(report.margin.orders).toBe(2);
    expect(report.inferredDebits).toEqual({ orders: 2, paisa: 40_000 });
    await expectBooksBalanced(ledger);
  });
});
