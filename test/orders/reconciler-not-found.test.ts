import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../dev/sandbox/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { account, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { toExecuteRequest } from "../../src/orders/execute-request.ts";
import { createRedisLease } from "../../src/orders/lease.ts";
import { holdIdOf } from "../../src/orders/model.ts";
import { orderPartsOf } from "../../src/orders/parts.ts";
import { createReconciler, type Reconciler } from "../../src/orders/reconciler.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders, type Orders } from "../../src/orders/service.ts";
import { createProviderClient, type ProviderClient } from "../../src/provider/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { mobileInput, serveFetch, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Review s22, finding 1: an order whose execute got no readable answer (here a 5xx before the
 * aggregator applied anything) was failed on the first "not found" of the status endpoint once the
 * execute timeout + grace (30 s + 30 s) had passed: its hold voided, the customer told nothing was
 * charged. A slow aggregator may record it later; the customer then got the recharge free. Now the
 * order stays open, its hold held, until "not found" came on 3 queries spread over 30 minutes
 * (the defaults). Real Redis (orders and books), the sandbox aggregator over loopback, the
 * product's reconciler with its defaults; only its clock runs ahead of the wall clock.
 */

const TOKEN = "recon-not-found-token";
const MINUTE = 60_000;

describe("'not found' for an order whose outcome is unknown", () => {
  const r = testRedis("recon-nf");
  let sandbox: Sandbox;
  let server: { url: string; close(): Promise<void> };
  let client: ProviderClient;
  let ledger: LedgerStore;
  let orders: Orders;
  let reconciler: Reconciler;
  let ahead = 0;
  let n = 0;

  beforeAll(async () => {
    sandbox = createSandbox({
      accounts: [{ token: TOKEN, balancePaisa: 5_000_000 }],
      delays: { toPendingMs: 10, toFinalMs: 20 },
      rateLimitPerSecond: 0,
    });
    server = await serveFetch((req, env) => sandbox.app.fetch(req, env));
    client = createProviderClient({
      baseUrl: server.url,
      token: TOKEN,
      executeTimeoutMs: 2_000,
      lookupTimeoutMs: 2_000,
      maxRetries: 1,
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    const store = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
    orders = createOrders({
      categories: CATEGORY_MODULES,
      store,
      provider: client,
      accessMode: "prepaid",
    });
    reconciler = createReconciler({
      orders,
      provider: client,
      lease: createRedisLease(r.redis, r.prefix),
      now: () => Date.now() + ahead,
      intervalMs: 15_000,
      minAgeMs: 20_000,
      maxAgeMs: 60 * MINUTE,
      // The production default: the not-found grace is the execute timeout (30 s).
      executeTimeoutMs: 30_000,
      adminChatIds: [],
    });
  });

  afterAll(async () => {
    await client.close();
    sandbox.close();
    await server.close();
    await r.cleanup();
  });

  beforeEach(() => {
    ahead = 0;
  });

  /** A Rs 250 prepaid order whose execute was answered 503 (nothing applied): unknown, held. */
  async function unknownOrder() {
    const userId = 81_000 + ++n;
    const credit = await ledger.transfer({
      id: `recon-nf-credit-${r.prefix}-${n}`,
      debit: account.merchant.funding,
      credit: account.customer(userId),
      amountPaisa: 100_000,
      kind: "demo_credit",
    });
    expect(credit.ok).toBe(true);
    sandbox.setFaults(TOKEN, { errorRate5xx: 1 });
    const placed = await orders.place(
      mobileInput({
        userId,
        chatId: userId,
        connectionNo: `98412${30_000 + n}`,
        amountPaisa: 25_000,
      }),
    );
    const submitted = await orders.submit(placed.reference, { known: placed });
    sandbox.clearFaults(TOKEN);
    expect(submitted.status).toBe("unknown");
    expect(sandbox.transactions(TOKEN).some((t) => t.referenceNo === placed.reference)).toBe(false);
    expect((await ledger.pendingOf(holdIdOf(placed.reference)))?.state).toBe("pending");
    return { order: submitted, userId };
  }

  it("keeps it open and its hold held after the first 'not found'; a late record then succeeds it", async () => {
    const { order, userId } = await unknownOrder();
    const ref = order.reference;

    // 61 s after the send: the old rule failed the order here and voided its hold.
    ahead = 61_000;
    const first = await reconciler.runOnce();
    expect(first).toMatchObject({ queried: 1, notExecuted: 0, errors: 0 });
    let now = await orders.get(ref);
    expect(now?.status).toBe("unknown");
    expect(now?.providerMessage).toBeUndefined();
    expect((await ledger.pendingOf(holdIdOf(ref)))?.state).toBe("pending");
    ahead = 11 * MINUTE;
    await reconciler.runOnce();
    expect((await orders.get(ref))?.status).toBe("unknown");

    // The slow aggregator records and executes the order after all.
    const late = await client.execute(toExecuteRequest(order, orderPartsOf(CATEGORY_MODULES)));
    expect(late.kind).not.toBe("failed");
    await waitUntil(
      async () =>
        sandbox.transactions(TOKEN).some((t) => t.referenceNo === ref && t.status === "success"),
      "the sandbox's late success",
      { timeoutMs: 5_000, intervalMs: 20 },
    );

    ahead = 16 * MINUTE;
    await reconciler.runOnce();
    now = await orders.get(ref);
    expect(now?.status).toBe("success");
    expect((await ledger.pendingOf(holdIdOf(ref)))?.state).toBe("posted");
    expect((await ledger.balance(account.customer(userId))).postedPaisa).toBe(100_000 - 25_000);
    await expectBooksBalanced(ledger);
  });

  it("fails it and voids the hold once 'not found' came 3 times over 30 minutes", async () => {
    const { order, userId } = await unknownOrder();
    const ref = order.reference;
    for (const at of [61_000, 12 * MINUTE, 23 * MINUTE, 29 * MINUTE]) {
      ahead = at;
      expect((await reconciler.runOnce()).notExecuted).toBe(0);
      expect((await orders.get(ref))?.status).toBe("unknown");
    }
    expect((await ledger.pendingOf(holdIdOf(ref)))?.state).toBe("pending");
    ahead = 31 * MINUTE;
    expect((await reconciler.runOnce()).notExecuted).toBe(1);
    const failed = await orders.get(ref);
    expect(failed?.status).toBe("failed");
    expect(
      failed?.history.filter((h) => h.note?.startsWith("provider has no such reference (answer")),
    ).toHaveLength(3);
    expect((await ledger.pendingOf(holdIdOf(ref)))?.state).toBe("voided");
    expect((await ledger.balance(account.customer(userId))).postedPaisa).toBe(100_000);
    await expectBooksBalanced(ledger);
  });
});
