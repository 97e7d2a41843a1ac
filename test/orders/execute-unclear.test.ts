import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Orders } from "../../src/orders/service.ts";
import {
  availableOf,
  creditCustomer,
  frontOnExecute,
  ordersOnRedis,
  reconcileUntil,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis } from "../support/orders.ts";

/**
 * Review s25-c (note): every 4xx on execute was read as "not executed" and the hold released at
 * once. A proxy in front of the aggregator that forwards the execute (the aggregator executes it
 * and debits its wallet) and then answers 408 must not fail the order: it is unknown, its hold
 * stays, and the reconciler's status query makes it a success, paid once. The sandbox behind a
 * front that answers 408 after forwarding.
 */

const TOKEN = "execute-unclear-token";
const FUNDED = 100_000;

describe("an execute answered 408 by a proxy after the aggregator executed it", () => {
  const r = testRedis("execute-unclear");
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, {
      front: frontOnExecute(
        () => new Response("<html><body>408 Request Timeout</body></html>", { status: 408 }),
      ),
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, { accessMode: "prepaid", provider: aggregator.client });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  it("stays unknown with its hold, then succeeds by the status query, paid once", async () => {
    const userId = 2581;
    await creditCustomer(ledger, userId, FUNDED);
    const input = mobileInput({ userId, chatId: userId, connectionNo: "9841258101" });
    const sent = await placeAndSubmit(orders, input);
    expect(sent.status).toBe("unknown");
    const total = sent.price?.totalPaisa ?? 0;
    expect(total).toBeGreaterThan(0);
    // Still held: not returned on a refusal that proves nothing.
    expect(await availableOf(ledger, userId)).toBe(FUNDED - total);

    const done = await reconcileUntil(r, orders, aggregator.client, sent.reference, "success");
    expect(done.contradicted).toBeUndefined();
    expect(await availableOf(ledger, userId)).toBe(FUNDED - total);
    const { entries } = await ledger.journal({ limit: 100 });
    expect(entries.filter((e) => e.id === `order:${sent.reference}:float`)).toHaveLength(1);
    expect(
      aggregator.sandbox.ledger(TOKEN).filter((x) => x.referenceNo === sent.reference),
    ).toHaveLength(1);
  });
});
