import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { account, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { toExecuteRequest } from "../../src/orders/execute-request.ts";
import { holdIdOf, type Order } from "../../src/orders/model.ts";
import { orderPartsOf } from "../../src/orders/parts.ts";
import { NOT_EXECUTED_MESSAGE, type Reconciler } from "../../src/orders/reconciler.ts";
import type { Orders } from "../../src/orders/service.ts";
import { MAX_HISTORY, transition } from "../../src/orders/state.ts";
import type { ProviderClient } from "../../src/provider/index.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import {
  ordersOnRedis,
  reconcilerOnRedis,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placedOrder, testRedis, waitUntil } from "../support/orders.ts";

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
  let aggregator: SandboxAggregator;
  let sandbox: Sandbox;
  let client: ProviderClient;
  let ledger: LedgerStore;
  let orders: Orders;
  let reconciler: Reconciler;
  let ahead = 0;
  let n = 0;
  /** Status queries the aggregator got, per order reference. */
  const asked = new Map<string, number>();
  /** Orders whose status queries a gateway answers with its own page (failed queries). */
  const gatewayDown = new Set<string>();

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, {
      front: async (req, env, sandbox) => {
        if (new URL(req.url).pathname.endsWith("/order/status")) {
          const body = (await req.clone().json()) as { order_id?: unknown };
          const ref = String(body.order_id);
          asked.set(ref, (asked.get(ref) ?? 0) + 1);
          // A gateway in front of the aggregator: its own HTML 404, a failed query (not "not found").
          if (gatewayDown.has(ref))
            return new Response("<html><body>404 Not Found</body></html>", {
              status: 404,
              headers: { "content-type": "text/html" },
            });
        }
        return sandbox.app.fetch(req, env);
      },
    });
    ({ sandbox, client } = aggregator);
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, { provider: client, accessMode: "prepaid" });
    reconciler = reconcilerOnRedis(r, {
      orders,
      provider: client,
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
    await aggregator.close();
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

  const notFoundCount = (o: Order | null) =>
    o?.history.filter((h) => h.note?.startsWith("provider has no such reference (answer")).length;

  it("asks a counted order again only when its next answer may count; an order whose query fails is asked every tick", async () => {
    const counted = await unknownOrder();
    const failing = await unknownOrder();
    const a = counted.order.reference;
    const b = failing.order.reference;
    gatewayDown.add(b);
    asked.delete(a);
    asked.delete(b);
    let ticks = 0;
    let notExecuted = 0;
    // A tick every 30 s from 61 s after the send to past the 30-minute window.
    for (ahead = 61_000; ahead <= 32 * MINUTE; ahead += 30_000) {
      const report = await reconciler.runOnce();
      expect(report.skipped).toBe(false);
      notExecuted += report.notExecuted;
      ticks++;
    }
    const a1 = await orders.get(a);
    expect(a1?.status).toBe("failed");
    expect(notFoundCount(a1)).toBe(3);
    expect(notExecuted).toBe(1);
    expect((await ledger.pendingOf(holdIdOf(a)))?.state).toBe("voided");
    // Three counted answers (10 minutes apart) and the one that failed it once the window was
    // over: not one query a tick for 30 minutes.
    expect(ticks).toBeGreaterThan(60);
    expect(asked.get(a)).toBe(4);
    // The other unknown order, never answered "not found", keeps the tick's cadence.
    expect(asked.get(b)).toBeGreaterThanOrEqual(ticks);
    expect((await orders.get(b))?.status).toBe("unknown");
    expect((await ledger.pendingOf(holdIdOf(b)))?.state).toBe("pending");

    // Its gateway back, the failing one is counted and failed the same way (and leaves the set).
    gatewayDown.delete(b);
    for (ahead = 33 * MINUTE; ahead <= 80 * MINUTE; ahead += 11 * MINUTE)
      await reconciler.runOnce();
    const b1 = await orders.get(b);
    expect(b1?.status).toBe("failed");
    // Past the window already: the third answer failed it (two recorded before it).
    expect(notFoundCount(b1)).toBe(2);
    expect((await ledger.balance(account.customer(failing.userId))).postedPaisa).toBe(100_000);
    await expectBooksBalanced(ledger);
  });

  it("counts the answers of an order whose history is full (100 entries): failed and its hold voided after the window", async () => {
    const { order, userId } = await unknownOrder();
    const ref = order.reference;
    // Many distinct records (webhook claims nobody confirmed, say) fill the history to its cap.
    let at = Date.now();
    for (let i = 0; ((await orders.get(ref))?.history.length ?? 0) < MAX_HISTORY; i++) {
      await orders.apply({
        reference: ref,
        source: "webhook",
        status: null,
        at: ++at,
        note: `unconfirmed claim ${i}`,
      });
    }
    expect((await orders.get(ref))?.history).toHaveLength(MAX_HISTORY);
    for (const t of [61_000, 12 * MINUTE, 23 * MINUTE]) {
      ahead = t;
      expect((await reconciler.runOnce()).notExecuted).toBe(0);
      expect((await orders.get(ref))?.status).toBe("unknown");
    }
    expect(notFoundCount(await orders.get(ref))).toBe(3);
    expect((await ledger.pendingOf(holdIdOf(ref)))?.state).toBe("pending");
    ahead = 32 * MINUTE;
    expect((await reconciler.runOnce()).notExecuted).toBe(1);
    const failed = await orders.get(ref);
    expect(failed?.status).toBe("failed");
    expect(failed?.providerMessage).toBe(NOT_EXECUTED_MESSAGE);
    expect((await ledger.pendingOf(holdIdOf(ref)))?.state).toBe("voided");
    expect((await ledger.balance(account.customer(userId))).postedPaisa).toBe(100_000);
    await expectBooksBalanced(ledger);
  });

  it("keeps the room past the history cap bounded, and for counted answers only", () => {
    const full: Order = {
      ...placedOrder({ status: "unknown" }),
      history: Array.from({ length: MAX_HISTORY }, (_, i) => ({
        source: "webhook" as const,
        status: null,
        at: i,
        note: `claim ${i}`,
      })),
    };
    // Anything else is dropped on a full history, as before.
    const other = transition(full, { source: "reconciler", status: null, at: 1e6, note: "x" });
    expect(other.order.history).toHaveLength(MAX_HISTORY);
    let o = full;
    for (let k = 1; k <= 50; k++) {
      o = transition(o, {
        source: "reconciler",
        status: null,
        at: 1e6 + k,
        note: `provider has no such reference (answer ${k} of 50)`,
      }).order;
    }
    expect(o.history.length).toBe(MAX_HISTORY + 20);
  });
});
