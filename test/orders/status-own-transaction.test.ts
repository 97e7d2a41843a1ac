import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import type { Books } from "../../src/books/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Order } from "../../src/orders/model.ts";
import type { Orders } from "../../src/orders/service.ts";
import { createConfirmations } from "../../src/webhook/confirm.ts";
import { booksOnRedis } from "../support/books.ts";
import {
  availableOf,
  creditCustomer,
  orderJournal,
  ordersOnRedis,
  reconcileUntil,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, testRedis } from "../support/orders.ts";

/**
 * Review s33-rvprov, 2: a status answer naming the transaction id the aggregator gave the order
 * (its execute answer said "queued") was still checked by its number, and an id the aggregator
 * echoes in another form (spec 2.1: `details.connection_no` is "number or user id"; here an ISP
 * login with its realm) read as another recharge's: recorded, never applied. The order stayed
 * queued for good, its hold held, the aggregator's debit never booked (the float drifting by it),
 * the customer never told it went through. Now the aggregator's own transaction id says whose
 * recharge it is: the answer is applied, from the reconciler and from a webhook's confirmation.
 * The sandbox aggregator behind a front that rewrites the status answers' number, real Redis.
 */

const TOKEN = "own-transaction-token";
const FUNDED = 10_000_000;
const LOGIN = "ram_shrestha";
/** The same account as the aggregator echoes it, realm and all. */
const ECHOED = "ram_shrestha@worldlink";

async function front(req: Request, env: unknown, sandbox: Sandbox): Promise<Response> {
  const res = await sandbox.app.fetch(req, env);
  const status = req.method === "POST" && new URL(req.url).pathname.endsWith("/order/status");
  if (!status || !res.ok) return res;
  const body = (await res.json()) as { data: { details?: Record<string, unknown> } };
  body.data.details = { ...body.data.details, connection_no: ECHOED };
  return Response.json(body);
}

describe("a status answer naming the order's own transaction, its number echoed in another form", () => {
  const r = testRedis("own-transaction");
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;
  let books: Books;

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, { front });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, { accessMode: "prepaid", provider: aggregator.client });
    books = booksOnRedis(r.redis, r.prefix, () => aggregator.sandbox.balance(TOKEN));
    expect((await books.report()).float.driftPaisa).toBe(0);
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  /** A Worldlink package for the login, its execute answered queued with a transaction id. */
  async function queuedInternet(userId: number): Promise<Order> {
    const query = { operatorId: 20, operatorTypeId: 5, connectionNo: LOGIN, referenceNo: "1" };
    const packs = await aggregator.client.listInternetPackages(query);
    const pack = packs.find((p) => p.name === "Worldlink 100 Mbps - 1 Month");
    if (!pack) throw new Error("no Worldlink package");
    await creditCustomer(ledger, userId, FUNDED);
    const placed = await orders.place(
      mobileInput({
        userId,
        chatId: userId,
        category: "internet",
        operatorId: 20,
        operatorTypeId: 5,
        operatorName: "Worldlink",
        connectionNo: LOGIN,
        amountPaisa: pack.amountPaisa,
        details: { packageId: pack.id, packageName: pack.name },
      }),
    );
    const sent = await orders.submit(placed.reference, { known: placed });
    expect(sent.status).toBe("queued");
    expect(sent.transactionId).toBeDefined();
    return sent;
  }

  async function expectPaidOnce(done: Order, userId: number): Promise<void> {
    expect(done.status).toBe("success");
    expect(done.history.some((h) => /another recharge/.test(h.note ?? ""))).toBe(false);
    const total = done.price?.totalPaisa ?? 0;
    expect(await availableOf(ledger, userId)).toBe(FUNDED - total);
    const journal = await orderJournal(ledger, done.reference);
    expect(journal.filter((e) => e.id === `order:${done.reference}:float`)).toHaveLength(1);
    expect((await books.report()).float.driftPaisa).toBe(0);
  }

  it("the reconciler's answer is applied: success, paid once, the float exact", async () => {
    const userId = 3311;
    const sent = await queuedInternet(userId);
    const done = await reconcileUntil(r, orders, aggregator.client, sent.reference, "success");
    await expectPaidOnce(done, userId);
  });

  it("a webhook's success confirmed by such an answer is applied too", async () => {
    const userId = 3312;
    const sent = await queuedInternet(userId);
    // The sandbox makes it a success within 20 ms; the claim is confirmed by a status query.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const confirmations = createConfirmations({
      orders,
      provider: aggregator.client,
      logger: undefined,
      now: Date.now,
    });
    confirmations.schedule(sent, "success");
    await confirmations.settled();
    const done = await orders.get(sent.reference);
    if (!done) throw new Error("order gone");
    expect(done.history.some((h) => h.note === "confirms webhook success")).toBe(true);
    await expectPaidOnce(done, userId);
  });
});
