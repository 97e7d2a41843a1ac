import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryLease, createRedisLease } from "../../src/orders/lease.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { Notification, OrderStatus } from "../../src/orders/model.ts";
import { createReconciler, NOT_EXECUTED_MESSAGE } from "../../src/orders/reconciler.ts";
import { createOrders, type OrdersProvider } from "../../src/orders/service.ts";
import { createProviderClient } from "../../src/provider/client.ts";
import { ProviderNotFoundError, ProviderUnavailableError } from "../../src/provider/errors.ts";
import type { StatusResult } from "../../src/provider/schemas.ts";
import {
  type FakeProvider,
  recordingSleep,
  startFakeProvider,
  TOKEN,
} from "../support/fake-provider.ts";
import { mobileInput, testRedis } from "../support/orders.ts";

type Answer = string | "not_found" | "error";

function setup(
  opts: {
    adminChatIds?: number[];
    batchSize?: number;
    /** A real status query instead of the scripted answers. */
    statusByReference?: OrdersProvider["statusByReference"];
    /** "Not found" answers and window before an order fails as never executed (the defaults: 3, 30 min). */
    notFound?: { answers: number; windowMs: number };
  } = {},
) {
  let now = 1_000_000;
  const outbox: Notification[] = [];
  const store = createMemoryOrderStore({
    outbox: { append: (ns) => outbox.push(...ns) },
    now: () => now,
  });
  const answers = new Map<string, Answer>();
  const queried: string[] = [];
  const provider: OrdersProvider = {
    async execute(req) {
      return { kind: "unknown", referenceNo: req.referenceNo, reason: "network", detail: "reset" };
    },
    async statusByReference(region, referenceNo): Promise<StatusResult> {
      queried.push(referenceNo);
      if (opts.statusByReference) return opts.statusByReference(region, referenceNo);
      const a = answers.get(referenceNo) ?? "not_found";
      if (a === "not_found") {
        // What the client throws for the provider's own "no such order" body.
        throw new ProviderNotFoundError({
          endpoint: "POST /np/order/status",
          httpStatus: 404,
          providerMessage: "Transaction not found",
        });
      }
      if (a === "error") {
        throw new ProviderUnavailableError({ endpoint: "POST /np/order/status", httpStatus: 503 });
      }
      return {
        status: a,
        transactionId: `TX-${referenceNo}`,
        referenceNo,
        amountPaisa: 10_000,
        timestampMs: null,
        connectionNo: null,
        operator: null,
        packageName: null,
      };
    },
  };
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store,
    provider,
    now: () => now,
  });
  const reconciler = createReconciler({
    orders,
    provider,
    lease: createMemoryLease(() => now),
    now: () => now,
    intervalMs: 1_000,
    minAgeMs: 5_000,
    maxAgeMs: 60_000,
    executeTimeoutMs: 10_000,
    adminChatIds: opts.adminChatIds ?? [],
    ...(opts.batchSize === undefined ? {} : { batchSize: opts.batchSize }),
    ...(opts.notFound === undefined
      ? {}
      : { notFoundAnswers: opts.notFound.answers, notFoundWindowMs: opts.notFound.windowMs }),
  });
  /**
   * An order in the given state, created at the current clock (under the provider's
   * `executeReference`, when given: what a listing answered with).
   */
  async function orderIn(status: OrderStatus, executeReference?: string): Promise<string> {
    // A listing's reference is a data pack's (text on the wire); a mobile order's is a number.
    const listed = {
      category: "datapack",
      operatorId: 8,
      operatorName: "NTC Data",
      details: { packageId: "PROD_001_inv", packageName: "1 GB" },
      executeReference,
    } as const;
    const o = await orders.place(mobileInput(executeReference ? listed : {}));
    if (status === "placed") return o.reference;
    await orders.submit(o.reference); // -> unknown (the fake execute is ambiguous)
    if (status === "submitting") {
      // As if the process died after marking submitting: rewind the row by hand.
      await store.update(o.reference, (cur) => ({
        order: { ...cur, status: "submitting", history: cur.history.slice(0, 2) },
        notifications: [],
      }));
    } else if (status !== "unknown") {
      await orders.apply({ reference: o.reference, source: "webhook", status, at: now });
    }
    return o.reference;
  }
  return {
    orders,
    reconciler,
    answers,
    queried,
    outbox,
    orderIn,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("reconciler", () => {
  it("asks about unknown orders past the minimum age and applies the answer", async () => {
    const t = setup();
    const ref = await t.orderIn("unknown");
    expect((await t.reconciler.runOnce()).queried).toBe(0); // too young
    t.advance(5_000);
    t.answers.set(ref, "success");
    const report = await t.reconciler.runOnce();
    expect(report).toMatchObject({ skipped: false, queried: 1, changed: 1 });
    const o = await t.orders.get(ref);
    expect(o?.status).toBe("success");
    expect(o?.transactionId).toBe(`TX-${ref}`);
    expect(o?.history.at(-1)?.source).toBe("reconciler");
  });

  it("leaves a submitting order alone while its execute may be in flight, then decides", async () => {
    const t = setup({ notFound: { answers: 1, windowMs: 0 } });
    const ref = await t.orderIn("submitting");
    t.outbox.length = 0;
    t.advance(15_000); // past minAge, within executeTimeout + grace (20 s)
    await t.reconciler.runOnce();
    expect(t.queried).toEqual([]);
    t.advance(6_000);
    const report = await t.reconciler.runOnce();
    expect(report.notExecuted).toBe(1);
    const o = await t.orders.get(ref);
    expect(o?.status).toBe("failed");
    expect(o?.providerMessage).toBe(NOT_EXECUTED_MESSAGE);
    expect(t.outbox.map((n) => n.status)).toEqual(["failed"]);
  });

  it("does not believe 'not found' for an unknown order before the in-flight window is over", async () => {
    const t = setup({ notFound: { answers: 1, windowMs: 0 } });
    const ref = await t.orderIn("unknown");
    t.advance(6_000);
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("unknown");
    t.advance(15_000);
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("failed");
  });

  // Review s22, finding 1: the first "not found" past 2 x the execute timeout failed the order
  // (its hold voided, the customer told nothing was charged), though a slow aggregator may record
  // it later. Fails on the code before: failed at the first tick past the grace.
  it("fails an unknown order only after 3 spaced 'not found' answers and 30 minutes (the defaults)", async () => {
    const t = setup();
    const ref = await t.orderIn("unknown");
    t.outbox.length = 0;
    t.advance(21_000); // past executeTimeout + grace: the old rule failed it here
    expect((await t.reconciler.runOnce()).notExecuted).toBe(0);
    let o = await t.orders.get(ref);
    expect(o?.status).toBe("unknown");
    expect(o?.history.at(-1)).toMatchObject({
      source: "reconciler",
      status: null,
      note: "provider has no such reference (answer 1 of 3)",
    });
    // Ticks every 15 s: one answer is counted per 10 minutes, however often it is asked.
    for (let i = 0; i < 40; i++) {
      t.advance(15_000);
      await t.reconciler.runOnce();
    }
    o = await t.orders.get(ref);
    expect(o?.status).toBe("unknown");
    expect(o?.history.filter((h) => h.note?.startsWith("provider has no such")).length).toBe(2);
    t.advance(10 * 60_000); // 3 answers counted, but 20 min 21 s after the send
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("unknown");
    t.advance(9 * 60_000); // 29 min 21 s
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("unknown");
    expect(t.outbox).toEqual([]); // the customer was told nothing new: still "checking"
    t.advance(60_000); // past 30 min after the send
    expect((await t.reconciler.runOnce()).notExecuted).toBe(1);
    o = await t.orders.get(ref);
    expect(o?.status).toBe("failed");
    expect(o?.providerMessage).toBe(NOT_EXECUTED_MESSAGE);
  });

  it("applies a late answer after 'not found' ones: the aggregator recorded the order after all", async () => {
    const t = setup();
    const ref = await t.orderIn("submitting");
    t.advance(21_000);
    await t.reconciler.runOnce();
    t.advance(11 * 60_000);
    t.answers.set(ref, "error"); // a failed query counts nothing and resets nothing
    await t.reconciler.runOnce();
    t.answers.delete(ref);
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("submitting");
    t.advance(11 * 60_000);
    t.answers.set(ref, "success");
    await t.reconciler.runOnce();
    const o = await t.orders.get(ref);
    expect(o?.status).toBe("success");
    expect(o?.history.filter((h) => h.note?.startsWith("provider has no such")).length).toBe(2);
  });

  it("never fails an order the provider accepted just because a status query says not found", async () => {
    const t = setup();
    const ref = await t.orderIn("pending");
    t.advance(30_000);
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("pending");
  });

  it("fails a placed order never submitted, without asking the provider", async () => {
    const t = setup();
    const ref = await t.orderIn("placed");
    t.advance(10_000);
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("placed");
    t.advance(20_000);
    await t.reconciler.runOnce();
    expect((await t.orders.get(ref))?.status).toBe("failed");
    expect(t.queried).toEqual([]);
  });

  it("keeps an order unchanged when the status query fails", async () => {
    const t = setup();
    const ref = await t.orderIn("unknown");
    t.answers.set(ref, "error");
    t.advance(30_000);
    const report = await t.reconciler.runOnce();
    expect(report.errors).toBe(1);
    expect((await t.orders.get(ref))?.status).toBe("unknown");
  });

  // Fails on the code before: the other order's success was applied (status success, its
  // transaction id planted). Review s20-r1, finding 6.
  it("does not apply a status answer about another reference: a failed query", async () => {
    const t = setup({
      statusByReference: async () => ({
        status: "success",
        transactionId: "TX-OTHER",
        referenceNo: "1700000000999",
        amountPaisa: 10_000,
        timestampMs: null,
        connectionNo: null,
        operator: null,
        packageName: null,
      }),
    });
    const ref = await t.orderIn("unknown");
    t.advance(30_000);
    const report = await t.reconciler.runOnce();
    expect(report).toMatchObject({ queried: 1, changed: 0, errors: 1 });
    const o = await t.orders.get(ref);
    expect(o?.status).toBe("unknown");
    expect(o?.transactionId).toBeUndefined();
  });

  it("flags an order still not final after the maximum age, alerting each admin once", async () => {
    const t = setup({ adminChatIds: [7, 8] });
    const ref = await t.orderIn("pending");
    t.answers.set(ref, "pending");
    t.advance(61_000);
    expect((await t.reconciler.runOnce()).flagged).toBe(1);
    t.advance(5_000);
    expect((await t.reconciler.runOnce()).flagged).toBe(0);
    const alerts = t.outbox.filter((n) => n.kind === "admin_alert");
    expect(alerts.map((n) => n.chatId)).toEqual([7, 8]);
    expect((await t.orders.get(ref))?.flaggedAt).toBeDefined();
  });
});

describe("reconciler batches", () => {
  it("pages through the open orders so stuck ones cannot starve the rest", async () => {
    const t = setup({ batchSize: 2 });
    const stuck = [await t.orderIn("unknown"), await t.orderIn("unknown")];
    const rest = [
      await t.orderIn("unknown"),
      await t.orderIn("unknown"),
      await t.orderIn("unknown"),
    ];
    for (const ref of stuck) t.answers.set(ref, "pending");
    for (const ref of rest) t.answers.set(ref, "success");
    t.advance(6_000);
    for (let i = 0; i < 3; i++) await t.reconciler.runOnce();
    for (const ref of rest) expect((await t.orders.get(ref))?.status).toBe("success");
    for (const ref of stuck) expect((await t.orders.get(ref))?.status).toBe("pending");
  });
});

describe("reconciler over real HTTP: only the provider's own body is 'not found'", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("an HTML 404 from a gateway leaves a debited order open past the grace; shape B fails it", async () => {
    const client = createProviderClient({
      baseUrl: fake.baseUrl,
      token: TOKEN,
      sleep: recordingSleep().sleep,
    });
    const t = setup({
      statusByReference: (region, ref) => client.statusByReference(region, ref),
      notFound: { answers: 1, windowMs: 0 },
    });
    const ref = await t.orderIn("unknown");
    t.advance(25_000); // past the execute timeout + the not-found grace (20 s here)
    fake.on("POST", "/np/order/status", {
      status: 404,
      text: "<html><head><title>404 Not Found</title></head><body>nginx</body></html>",
    });
    for (let i = 0; i < 3; i++) {
      const report = await t.reconciler.runOnce();
      expect(report).toMatchObject({ queried: 1, errors: 1, notExecuted: 0, changed: 0 });
      t.advance(10_000);
    }
    expect((await t.orders.get(ref))?.status).toBe("unknown");

    // The provider itself saying so, in its status error shape, is believed.
    fake.on("POST", "/np/order/status", {
      status: 404,
      json: { status: false, message: "Transaction not found", data: [] },
    });
    expect((await t.reconciler.runOnce()).notExecuted).toBe(1);
    expect((await t.orders.get(ref))?.status).toBe("failed");
    await client.close();
  });
});

/**
 * The status answer's `order_id` echoes the reference asked, but not always in the form it was
 * sent (spec: `reference_no` is a number for some categories and text for others; ids come as
 * strings or numbers): a number, text with spaces around it, or a number that lost the leading
 * zeros of a reference sent as text. Each is the same order and is applied; another reference is
 * still a failed query. The real client over HTTP, the answer's JSON as the provider would send it.
 */
describe("reconciler over real HTTP: the status answer's reference as the provider echoes it", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(async () => {
    await fake.close();
  });

  /** An unknown order asked about (by `asked`, when given: its execute reference), and the reconciler's answer to `orderId`. */
  async function answered(orderId: (ref: string) => unknown, asked?: string) {
    const client = createProviderClient({
      baseUrl: fake.baseUrl,
      token: TOKEN,
      sleep: recordingSleep().sleep,
    });
    const t = setup({ statusByReference: (region, ref) => client.statusByReference(region, ref) });
    const ref = await t.orderIn("unknown", asked);
    t.advance(30_000);
    fake.on("POST", "/np/order/status", {
      json: {
        error: false,
        message: "Transaction status",
        data: {
          status: "success",
          transaction_id: 88_001,
          order_id: orderId(asked ?? ref),
          amount: "100",
          timestamp: "December 21,2024 9:03pm",
          details: { connection_no: "9841234567", operator: "NTC" },
          package_name: null,
        },
      },
    });
    const report = await t.reconciler.runOnce();
    const order = await t.orders.get(ref);
    await client.close();
    return { report, order, queried: t.queried };
  }

  it("applies an answer whose order_id is the reference as a JSON number", async () => {
    const { report, order } = await answered((ref) => Number(ref));
    expect(report).toMatchObject({ queried: 1, changed: 1, errors: 0 });
    expect(order?.status).toBe("success");
    expect(order?.transactionId).toBe("88001");
  });

  it("applies an answer whose order_id has whitespace around it", async () => {
    const { report, order } = await answered((ref) => `  ${ref} \n`);
    expect(report).toMatchObject({ changed: 1, errors: 0 });
    expect(order?.status).toBe("success");
  });

  it("applies an answer that lost the leading zeros of a reference sent as text", async () => {
    // A listing's reference the execute and the query carry as text ("0042…"), echoed as a number.
    const { report, order, queried } = await answered((ref) => Number(ref), "004217000001");
    expect(queried).toEqual(["004217000001"]);
    expect(report).toMatchObject({ changed: 1, errors: 0 });
    expect(order?.status).toBe("success");
  });

  it("still refuses an answer about another reference, as a number or as text", async () => {
    for (const other of [
      (ref: string) => Number(ref) + 1,
      (ref: string) => `${ref}1`,
      () => "42",
    ]) {
      const { report, order } = await answered(other);
      expect(report).toMatchObject({ queried: 1, changed: 0, errors: 1 });
      expect(order?.status).toBe("unknown");
      expect(order?.transactionId).toBeUndefined();
    }
    // Zeros inside or after the digits are not leading zeros: another reference.
    const padded = await answered(() => "42170000010", "004217000001");
    expect(padded.report).toMatchObject({ changed: 0, errors: 1 });
  });
});

describe("reconciler lease (Redis)", () => {
  const r = testRedis("lease");
  afterEach(async () => {
    await r.cleanup();
  });

  it("lets only one of several processes work per tick", async () => {
    const leases = [
      createRedisLease(r.redis, r.prefix),
      createRedisLease(r.connect(), r.prefix),
      createRedisLease(r.connect(), r.prefix),
    ];
    const got = await Promise.all(leases.map((l) => l.acquire("reconciler", 5_000)));
    expect(got.filter(Boolean)).toHaveLength(1);
    const holder = leases[got.indexOf(true)]!;
    expect(await holder.acquire("reconciler", 5_000)).toBe(true); // renewal by the holder
    await holder.release("reconciler");
    const other = leases.find((l) => l !== holder)!;
    expect(await other.acquire("reconciler", 5_000)).toBe(true);
  });
});
