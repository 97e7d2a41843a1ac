import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { checkWaterBill } from "../../src/categories/water/lookup.ts";
import { createMemoryNotificationQueue } from "../../src/notify/memory-queue.ts";
import { createMemoryLease } from "../../src/orders/lease.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import { createReconciler } from "../../src/orders/reconciler.ts";
import { createOrders } from "../../src/orders/service.ts";
import { isProviderError } from "../../src/provider/index.ts";
import { countBy, report } from "../support/chaos/env.ts";
import { createProviderClient, type TermsClient } from "../support/execute-terms.ts";
import {
  type FakeProvider,
  type Reply,
  startFakeProvider,
  TOKEN,
} from "../support/fake-provider.ts";

/**
 * The aggregator answering nonsense: HTML error pages with 200 and 5xx, empty bodies, truncated
 * JSON, JSON of the wrong type or shape, random JSON (fast-check), a reset connection, no answer.
 * Every lookup either returns a value its schema accepted or throws a typed ProviderError, never
 * anything else; an execute answered with something unreadable is "outcome unknown" (the money may
 * have moved), never "failed", and stays so until a readable status answer decides it.
 */

const HTML = [
  "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>",
  "<!DOCTYPE html><html><body>Maintenance</body></html>",
  "<?xml version='1.0'?><error>down</error>",
];
/** Answers no reading can turn into a result. */
const UNREADABLE: Array<{ name: string; reply: Reply }> = [
  ...HTML.map((text, i) => ({ name: `HTML page ${i} (200)`, reply: { text, status: 200 } })),
  {
    name: "HTML page (200, claims JSON)",
    reply: { text: HTML[0] ?? "", status: 200, contentType: "application/json" },
  },
  { name: "empty (200)", reply: { text: "", status: 200, contentType: "application/json" } },
  {
    name: "truncated JSON",
    reply: {
      text: '{"error":false,"data":{"transaction_id":',
      status: 200,
      contentType: "application/json",
    },
  },
  { name: "JSON null", reply: { json: "null" } },
  { name: "JSON string", reply: { json: '"ok"' } },
  { name: "JSON number", reply: { json: "42" } },
  { name: "success without data", reply: { json: { error: false, message: "ok" } } },
  { name: "data of the wrong type", reply: { json: { error: false, data: "done" } } },
  {
    name: "data fields of the wrong type",
    reply: { json: { error: false, data: { transaction_id: {}, amount: [], status: 7 } } },
  },
];
const FAILING: Array<{ name: string; reply: Reply }> = [
  { name: "HTML 502", reply: { text: HTML[0] ?? "", status: 502 } },
  { name: "empty 500", reply: { text: "", status: 500 } },
  { name: "JSON 503", reply: { json: { message: "down" }, status: 503 } },
  { name: "connection reset", reply: { destroy: true } },
];

const replyArb: fc.Arbitrary<Reply> = fc.oneof(
  fc.json({ maxDepth: 4 }).map((text) => ({ text, status: 200, contentType: "application/json" })),
  fc
    .record(
      {
        error: fc.oneof(fc.constant(false), fc.anything()),
        status: fc.oneof(fc.constant(true), fc.anything()),
        message: fc.anything(),
        data: fc.oneof(
          fc.anything(),
          fc.array(
            fc.dictionary(
              fc.constantFrom("value", "label", "id", "amount", "name", "package_id"),
              fc.anything(),
            ),
          ),
          fc.dictionary(
            fc.constantFrom(
              "transaction_id",
              "status",
              "amount",
              "order_id",
              "credit_consumed",
              "bill_amount",
              "customer_name",
            ),
            fc.anything(),
          ),
        ),
      },
      { requiredKeys: [] },
    )
    .map((json) => ({ json, status: 200 })),
  fc.string({ maxLength: 200 }).map((text) => ({ text, status: 200, contentType: "text/plain" })),
  fc.constantFrom(...UNREADABLE.map((u) => u.reply)),
  fc.constantFrom(...FAILING.filter((f) => !("destroy" in f.reply)).map((f) => f.reply)),
);

describe("malformed aggregator responses", () => {
  let fake: FakeProvider;
  let client: TermsClient;

  beforeAll(async () => {
    fake = await startFakeProvider();
    client = createProviderClient({
      baseUrl: fake.baseUrl,
      token: TOKEN,
      lookupTimeoutMs: 500,
      executeTimeoutMs: 500,
      maxRetries: 1,
      sleep: async () => {},
    });
  });

  afterAll(async () => {
    await client?.close();
    await fake?.close();
  });

  const lookups: Array<{
    name: string;
    method: string;
    path: string;
    run: () => Promise<unknown>;
  }> = [
    {
      name: "packages",
      method: "POST",
      path: "/np/recharge/package",
      run: () =>
        client.listDataPackages({
          operatorId: 3,
          operatorTypeId: 3,
          connectionNo: "9801234567",
          referenceNo: "77",
        }),
    },
    {
      name: "office codes",
      method: "POST",
      path: "/utility/office-codes",
      run: () => client.officeCodes(46),
    },
    { name: "circles", method: "GET", path: "/in/circle", run: () => client.circles() },
    {
      name: "water bill",
      method: "POST",
      path: "/np/recharge/check",
      run: () =>
        checkWaterBill(client, {
          operatorId: 46,
          operatorTypeId: 7,
          connectionNo: "123456",
          referenceNo: "78",
          monthId: 7,
          officeCode: "512",
        }),
    },
    {
      name: "status",
      method: "POST",
      path: "/np/order/status",
      run: () => client.statusByReference("np", "79"),
    },
    { name: "wallet", method: "GET", path: "/wallet/balance", run: () => client.walletBalance() },
    {
      name: "india plans",
      method: "POST",
      path: "/in/operator-plans",
      run: () => client.indiaPlans({ operatorId: 200, circleId: "1" }),
    },
  ];

  const execute = (ref: string) =>
    client.execute({
      category: "mobile",
      operatorId: 5,
      operatorTypeId: 1,
      connectionNo: "9841234567",
      referenceNo: ref,
      amountPaisa: 10_000,
    });

  it("turns every unreadable or failing lookup answer into a typed error", async () => {
    const kinds: string[] = [];
    const notErrors: string[] = [];
    for (const l of lookups) {
      for (const u of [...UNREADABLE, ...FAILING]) {
        fake.on(l.method, l.path, u.reply);
        const err = await l.run().then(
          (value) => `returned ${JSON.stringify(value)}`,
          (e: unknown) => e,
        );
        if (isProviderError(err)) kinds.push(err.kind);
        else notErrors.push(`${l.name} / ${u.name}: ${String(err)}`);
      }
    }
    // Random answers (fast-check): a value the schema accepted, or a typed error; nothing else.
    const outcomes: string[] = [];
    const samples = fc.sample(replyArb, { numRuns: 300, seed: 11 });
    for (const [i, reply] of samples.entries()) {
      const l = lookups[i % lookups.length];
      if (!l) continue;
      fake.on(l.method, l.path, reply);
      const r = await l.run().then(
        () => "value",
        (e: unknown) => (isProviderError(e) ? e.kind : `UNTYPED ${String(e)}`),
      );
      outcomes.push(r);
    }
    report("malformed aggregator responses: lookups", {
      "fixed bad answers x lookups": (UNREADABLE.length + FAILING.length) * lookups.length,
      "their typed errors": countBy(kinds, String),
      "accepted as a value instead": notErrors.length,
      "random answers (fast-check)": samples.length,
      "random answers' outcomes": countBy(outcomes, String),
    });
    // Tolerated on purpose: the plans answer's shape is undocumented, and a record without plan
    // lists reads as "no plans", after which the user types an amount.
    expect(notErrors.filter((e) => !e.startsWith("india plans / data fields"))).toEqual([]);
    expect(kinds.every((k) => k === "malformed" || k === "unavailable" || k === "network")).toBe(
      true,
    );
    expect(outcomes.filter((o) => o.startsWith("UNTYPED"))).toEqual([]);
  });

  it("calls an execute with an unreadable answer 'outcome unknown', never 'failed'", async () => {
    const queue = createMemoryNotificationQueue();
    const store = createMemoryOrderStore({ outbox: queue });
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store,
      provider: client,
    });
    let n = 0;
    const place = () =>
      orders.place({
        idempotencyKey: `m-${n++}`,
        userId: 680_001,
        chatId: 680_001,
        category: "mobile",
        region: "np",
        operatorId: 5,
        operatorTypeId: 1,
        operatorName: "NTC Prepaid",
        connectionNo: "9841234567",
        amountPaisa: 10_000,
        details: {},
      });
    const results: Record<string, string> = {};
    const refs: string[] = [];
    for (const u of [
      ...UNREADABLE,
      ...FAILING,
      { name: "no answer", reply: { hold: true } as Reply },
    ]) {
      fake.on("POST", "/np/recharge/execute", u.reply);
      const order = await place();
      const after = await orders.submit(order.reference);
      results[u.name] = after.status;
      refs.push(order.reference);
    }
    // Random answers: never throws; a failure only where the answer says "error".
    const randomKinds: string[] = [];
    for (const reply of fc.sample(replyArb, { numRuns: 200, seed: 12 })) {
      fake.on("POST", "/np/recharge/execute", reply);
      const r = await execute(String(900_000 + n++));
      randomKinds.push(r.kind === "unknown" ? `unknown (${r.reason})` : r.kind);
    }

    // The status query answers nonsense too: the orders stay unknown; then a readable answer.
    const reconciler = createReconciler({
      orders,
      provider: client,
      lease: createMemoryLease(),
      intervalMs: 1_000,
      minAgeMs: 0,
      maxAgeMs: 3_600_000,
      executeTimeoutMs: 0,
      notFoundGraceMs: 0,
      adminChatIds: [],
    });
    fake.on("POST", "/np/order/status", { text: HTML[0] ?? "", status: 200 });
    const garbled = await reconciler.runOnce();
    const stillUnknown = (await Promise.all(refs.map((r) => orders.get(r)))).filter(
      (o) => o?.status === "unknown",
    ).length;
    // Each order its own transaction: one id for every order is another order's for all but the
    // first, and is not taken (review s31-orders, 2).
    let tx = 4242;
    fake.on("POST", "/np/order/status", (req) => ({
      json: {
        error: false,
        message: "Transaction status",
        data: {
          status: "success",
          transaction_id: tx++,
          order_id: (req.body as { order_id?: unknown }).order_id,
          amount: 100,
        },
      },
    }));
    const readable = await reconciler.runOnce();
    const final = countBy(
      (await Promise.all(refs.map((r) => orders.get(r)))).map((o) => o?.status ?? "missing"),
      String,
    );
    report("malformed aggregator responses: execute", {
      "execute answers, fixed": Object.keys(results).length,
      "order status after each": results,
      "random execute answers (fast-check)": countBy(randomKinds, String),
      "status query unreadable: reconciler errors / orders still unknown": `${garbled.errors} / ${stillUnknown}`,
      "after a readable status answer": final,
    });
    expect(Object.values(results).every((s) => s === "unknown")).toBe(true);
    expect(stillUnknown).toBe(refs.length);
    expect(garbled.errors).toBe(refs.length);
    expect(readable.changed).toBe(refs.length);
    expect(final).toEqual({ success: refs.length });
  });
});
