import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import { COLLISION_KIND } from "../../src/books/collision-alert.ts";
import {
  createCollisionAlert,
  createMemoryCrossings,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryLedger, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { createMemoryLease } from "../../src/orders/lease.ts";
import { createMemoryOrderStore, type MemoryOwed } from "../../src/orders/memory-store.ts";
import type { Notification, Order } from "../../src/orders/model.ts";
import { createReconciler } from "../../src/orders/reconciler.ts";
import { createOrders, type Orders } from "../../src/orders/service.ts";
import {
  adminAlertsOf,
  availableOf,
  creditCustomer,
  ordersOnRedis,
  reconcileUntil,
  type SandboxAggregator,
  type SandboxAggregatorOptions,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placedOrder, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Review s31-orders, 2: an execute answer about another order taken as ours. The customer orders
 * Rs 100 for a number twice (A, then B, a new reference and a new hold); the aggregator does not
 * execute B but answers it with A's data (its duplicate guard answering with the earlier
 * transaction, or a proxy handing back another request's answer). Before: B success with A's
 * transaction, its hold posted, a float debit booked, the customer charged twice for one recharge,
 * nobody told; answered `queued`, B stayed open for good. Now B is never settled by that answer:
 * unknown, its hold held, until the status query by its own reference finds nothing over the
 * window and fails it, the hold returned. The sandbox aggregator behind a front, real Redis and
 * the memory store.
 */

const TOKEN = "echo-token";
const FUNDED = 100_000;
const ADMIN = 9101;
const NUMBER = "9841310002";

/**
 * A front that passes the first execute to the sandbox and answers every later one with the
 * first's answer, its data reshaped by `shape` (B is never executed).
 */
function echoFront(
  shape: (data: Record<string, unknown>) => void,
): NonNullable<SandboxAggregatorOptions["front"]> {
  let first: string | undefined;
  return async (req, env, sandbox: Sandbox) => {
    const execute =
      req.method === "POST" && new URL(req.url).pathname.endsWith("/recharge/execute");
    if (!execute) return sandbox.app.fetch(req, env);
    if (first === undefined) {
      const res = await sandbox.app.fetch(req, env);
      first = await res.text();
      return new Response(first, { status: res.status, headers: res.headers });
    }
    const body = JSON.parse(first) as { data: Record<string, unknown> };
    shape(body.data);
    return Response.json(body);
  };
}

/** A, then B for the same number and amount; B as its execute answer left it. */
async function twice(orders: Orders, ledger: LedgerStore, userId: number) {
  await creditCustomer(ledger, userId, FUNDED);
  const input = () => mobileInput({ userId, chatId: userId, connectionNo: NUMBER });
  const placedA = await orders.place(input());
  const a = await orders.submit(placedA.reference, { known: placedA });
  expect(a.transactionId).toBeDefined();
  const placedB = await orders.place(input());
  const b = await orders.submit(placedB.reference, { known: placedB });
  return { a, b };
}

/** What B must be after the answer: unknown, no transaction, nothing posted or booked. */
async function untaken(b: Order, a: Order, ledger: LedgerStore, userId: number) {
  expect(b.status).toBe("unknown");
  expect(b.transactionId).toBeUndefined();
  expect(b.wallet).toBeUndefined();
  expect(b.history.some((h) => h.status === "success" || h.status === "queued")).toBe(false);
  // Both holds still held: nothing posted for B.
  expect(await availableOf(ledger, userId)).toBe(FUNDED - 2 * 10_000);
  expect(a.reference).not.toBe(b.reference);
}

const executedFor = (sandbox: Sandbox) =>
  sandbox.transactions(TOKEN).filter((t) => t.connectionNo === NUMBER);

/** The reconciler set so one "not found" past the send fails an order (no window). */
const FAIL_ON_NOT_FOUND = {
  executeTimeoutMs: 0,
  notFoundGraceMs: 0,
  notFoundAnswers: 1,
  notFoundWindowMs: 0,
} as const;

describe("an execute answer about another order, on Redis", () => {
  const r = testRedis("echo");
  let aggregator: SandboxAggregator | undefined;
  const ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });

  afterEach(async () => {
    await aggregator?.close();
  });

  const start = async (shape: (data: Record<string, unknown>) => void) => {
    const agg = await startQuickSandbox(TOKEN, { front: echoFront(shape) });
    aggregator = agg;
    const orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: agg.client,
      adminChatIds: [ADMIN],
      onAdminNote: createCollisionAlert({
        crossings: createRedisCrossings(r.redis, r.prefix),
        adminChatIds: [ADMIN],
      }),
    });
    return { agg, orders };
  };

  it("echoing another reference: B unknown, never charged; not found by its own reference, it fails and its hold returns", async () => {
    const { agg, orders } = await start((d) => {
      d.status = "success";
    });
    const userId = 3101;
    const { a, b } = await twice(orders, ledger, userId);
    await untaken(b, a, ledger, userId);
    expect(b.history.at(-1)?.note).toBe("outcome unknown (malformed)");
    expect(executedFor(agg.sandbox)).toHaveLength(1);
    const failed = await reconcileUntil(
      r,
      orders,
      agg.client,
      b.reference,
      "failed",
      FAIL_ON_NOT_FOUND,
    );
    expect(failed.transactionId).toBeUndefined();
    // B's hold returned; A's stays A's (held, or posted once its success came).
    expect(await availableOf(ledger, userId)).toBe(FUNDED - 10_000);
    expect((await orders.getByTransactionId(a.transactionId ?? ""))?.reference).toBe(a.reference);
  });

  it("another order's transaction id, no reference echoed, answered queued: recorded, the admins told once, then failed by its own reference", async () => {
    const { agg, orders } = await start((d) => {
      delete d.reference_no;
      d.status = "queued";
    });
    const userId = 3102;
    const { a, b } = await twice(orders, ledger, userId);
    await untaken(b, a, ledger, userId);
    expect(b.history.at(-1)?.note).toBe(
      `transaction id ${a.transactionId} belongs to order ${a.reference} (queued): not applied`,
    );
    expect((await orders.getByTransactionId(a.transactionId ?? ""))?.reference).toBe(a.reference);
    const alerts = await adminAlertsOf(r, b.reference);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ chatId: ADMIN });
    expect(JSON.stringify(alerts[0])).toContain(`order ${a.reference}'s`);
    // The same answer again (a redelivery) records and tells nothing more.
    const again = await orders.apply({
      reference: b.reference,
      source: "execute",
      status: "queued",
      at: b.updatedAt + 1,
      transactionId: a.transactionId ?? "",
    });
    expect(again.outcome).toBe("unchanged");
    expect(await adminAlertsOf(r, b.reference)).toHaveLength(1);
    expect(executedFor(agg.sandbox)).toHaveLength(1);
    // Not open for good: the status query by B's own reference finds nothing, and fails it.
    await reconcileUntil(r, orders, agg.client, b.reference, "failed", FAIL_ON_NOT_FOUND);
    expect(await availableOf(ledger, userId)).toBe(FUNDED - 10_000);
  });
});

describe("an execute answer about another order, on the memory store", () => {
  let aggregator: SandboxAggregator | undefined;

  afterEach(async () => {
    await aggregator?.close();
  });

  it("another order's transaction id: recorded, the admins told once, then failed by its own reference", async () => {
    const agg = await startQuickSandbox(TOKEN, {
      front: echoFront((d) => {
        delete d.reference_no;
        d.status = "success";
      }),
    });
    aggregator = agg;
    const sent: Notification[] = [];
    const outbox = { append: (ns: readonly Notification[]) => sent.push(...ns) };
    const owed: MemoryOwed = new Map();
    const ledger = createMemoryLedger();
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      store: createMemoryOrderStore({ ledger, outbox, owed }),
      accessMode: "prepaid",
      provider: agg.client,
      adminChatIds: [ADMIN],
      onAdminNote: createCollisionAlert({
        crossings: createMemoryCrossings(outbox, owed),
        adminChatIds: [ADMIN],
      }),
    });
    const userId = 3103;
    const { a, b } = await twice(orders, ledger, userId);
    await untaken(b, a, ledger, userId);
    expect(b.history.at(-1)?.note).toMatch(/^transaction id \S+ belongs to order \d+ \(success\)/);
    const alerts = sent.filter((n) => n.kind === "admin_alert" && n.reference === b.reference);
    expect(alerts).toHaveLength(1);
    expect(executedFor(agg.sandbox)).toHaveLength(1);
    const reconciler = createReconciler({
      orders,
      provider: agg.client,
      lease: createMemoryLease(),
      intervalMs: 1,
      minAgeMs: 0,
      maxAgeMs: 3_600_000,
      adminChatIds: [],
      ...FAIL_ON_NOT_FOUND,
    });
    await waitUntil(
      async () => {
        await reconciler.runOnce();
        return (await orders.get(b.reference))?.status === "failed";
      },
      "B failed",
      { timeoutMs: 10_000, intervalMs: 30 },
    );
    expect(await availableOf(ledger, userId)).toBe(FUNDED - 10_000);
  });
});

describe("the owed count's repair of such an order", () => {
  it("tells the words of its step, from the order's history, not a reference collision's", () => {
    const order = placedOrder({
      status: "unknown",
      history: [
        { source: "system", status: "placed", at: 1 },
        {
          source: "execute",
          status: "unknown",
          at: 2,
          note: "transaction id 1795873689790 belongs to order 1795960089698 (success): not applied",
        },
      ],
    });
    const words = COLLISION_KIND.owedDetail?.(order) ?? "";
    expect(words).toContain("transaction 1795873689790, which is order 1795960089698's");
    expect(words).not.toMatch(/already holds/);
  });
});
