import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultText } from "../../conversations/settle/conversation.ts";
import { createSandbox, type Sandbox } from "../../dev/sandbox/index.ts";
import { translator } from "../../src/bot/i18n.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { refusalWords } from "../../src/dashboard/pages/order-settle.ts";
import { account, createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Order } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders, type Orders, type SettleResult } from "../../src/orders/service.ts";
import { createProviderClient, type ProviderClient } from "../../src/provider/index.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { mobileInput, placeAndSubmit, serveFetch, testRedis } from "../support/orders.ts";

/**
 * Each answer of the aggregator that refuses a settlement as succeeded ("aggregator_unsure",
 * src/orders/settle.ts) is named as what it was, on the back office and in the chat's /settle in
 * en/ne/hi: the old words named only "not found" (or a word the bot does not know) for every one,
 * a false word about money for a refused query or an unreadable answer. Silence (a 5xx) refuses
 * nothing. Real Redis, the sandbox aggregator over HTTP, its status answers rewritten per case.
 */

const TOKEN = "unsure-token";
const HOUR = 3_600_000;
const SETTLE_AFTER = 4 * HOUR;
const ADMIN = 7101;

type Mode = "not_found" | "refused" | "unreadable" | "unknown_word" | "other_order" | "silent";

describe("why the aggregator's answer refuses a settlement as succeeded", () => {
  const r = testRedis("unsure-cause");
  let sandbox: Sandbox;
  let server: { url: string; close(): Promise<void> };
  let client: ProviderClient;
  let ledger: LedgerStore;
  let orders: Orders;
  let mode: Mode | undefined;
  let clock = Date.now() - 500 * HOUR;
  let userSeq = 9100;

  /** The sandbox's own refusal body (its error shape) for an order it never had, re-sent. */
  async function refusal(req: Request, env: unknown, status: number, message: string) {
    const headers = new Headers(req.headers);
    headers.delete("content-length");
    const body = JSON.stringify({ order_id: "999999999999", transaction_id: "999999999999" });
    const res = await sandbox.app.fetch(
      new Request(req.url, { method: "POST", headers, body }),
      env,
    );
    const json = (await res.json()) as { message?: string };
    json.message = message;
    return Response.json(json, { status });
  }

  beforeAll(async () => {
    sandbox = createSandbox({
      accounts: [{ token: TOKEN, balancePaisa: 5_000_000 }],
      delays: { toPendingMs: 10, toFinalMs: HOUR },
      rateLimitPerSecond: 0,
    });
    server = await serveFetch(async (req, env) => {
      const status = new URL(req.url).pathname.endsWith("/status");
      if (!status || mode === undefined) return sandbox.app.fetch(req, env);
      if (mode === "not_found") return refusal(req, env, 404, "Transaction not found");
      if (mode === "refused") return refusal(req, env, 200, "Query refused for this merchant");
      if (mode === "unreadable") return new Response("<html>oops</html>", { status: 200 });
      if (mode === "silent") return new Response("upstream down", { status: 503 });
      const res = await sandbox.app.fetch(req, env);
      const body = (await res.json()) as { data?: { status?: string; order_id?: string } };
      if (body.data && mode === "unknown_word") body.data.status = "refunded";
      if (body.data && mode === "other_order") body.data.order_id = "777000111";
      return Response.json(body, { status: res.status });
    });
    client = createProviderClient({
      baseUrl: server.url,
      token: TOKEN,
      executeTimeoutMs: 2_000,
      lookupTimeoutMs: 2_000,
      maxRetries: 0,
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "prepaid",
      store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
      provider: client,
      settleAfterMs: SETTLE_AFTER,
      now: () => clock,
    });
  });

  afterAll(async () => {
    await client.close();
    sandbox.close();
    await server.close();
    await r.cleanup();
  });

  /** A prepaid customer's Rs 200 order the aggregator keeps pending, old enough to settle. */
  async function stuckOrder(connectionNo: string): Promise<Order> {
    const userId = ++userSeq;
    const credited = await ledger.transfer({
      id: `credit-${userId}`,
      debit: account.merchant.funding,
      credit: account.customer(userId),
      amountPaisa: 50_000,
      kind: "credit",
    });
    expect(credited.ok).toBe(true);
    const order = await placeAndSubmit(
      orders,
      mobileInput({ userId, chatId: userId, connectionNo, amountPaisa: 20_000 }),
    );
    clock += SETTLE_AFTER;
    return order;
  }

  const asSucceeded = (o: Order) =>
    orders.settle({
      reference: o.reference,
      outcome: "success",
      adminId: ADMIN,
      reason: "operator confirms the top-up arrived",
      admins: [ADMIN],
    });

  const i18n = createChatI18n(CATEGORY_MODULES);
  const chat = (locale: string, res: SettleResult) =>
    resultText(translator(i18n, locale), res, "REF", false);

  /** Each cause: the words it must be named by (dashboard, en, ne, hi). */
  const cases: [Mode, string, string[]][] = [
    ["not_found", "9841340001", ["no such order", "no such order", "फेला परेन", "नहीं मिला"]],
    [
      "refused",
      "9841340002",
      ["refused the status query", "refused the status query", "अस्वीकार", "ठुकरा"],
    ],
    [
      "unreadable",
      "9841340003",
      ["could not be read", "could not be read", "पढ्न सकिएन", "पढ़ा नहीं जा सका"],
    ],
    [
      "unknown_word",
      "9841340004",
      [
        "status word the bot does not know",
        "status word the bot does not know",
        "नचिन्ने",
        "नहीं जानता",
      ],
    ],
    ["other_order", "9841340005", ["another order", "another order", "अर्को अर्डर", "दूसरे ऑर्डर"]],
  ];

  for (const [cause, number, [board, en, ne, hi]] of cases) {
    it(`${cause}: refused as succeeded and named as such on the dashboard and in en/ne/hi`, async () => {
      const order = await stuckOrder(number);
      mode = cause;
      try {
        const res = await asSucceeded(order);
        expect(res).toMatchObject({ ok: false, code: "aggregator_unsure", cause });
        if (res.ok || res.code !== "aggregator_unsure") return;
        // What it said names the same cause (kept on a settlement as failed: `settled.aggregator`).
        if (cause === "unreadable") expect(res.said).toMatch(/^unreadable answer \(/);
        if (cause === "refused") expect(res.said).toMatch(/^refused \(/);
        const words = refusalWords(res);
        expect(words).toContain(board);
        if (cause !== "not_found") expect(words).not.toContain("(not found");
        expect(chat("en", res)).toContain(en);
        expect(chat("ne", res)).toContain(ne);
        expect(chat("hi", res)).toContain(hi);
        for (const l of ["en", "ne", "hi"]) expect(chat(l, res)).not.toMatch(/\{|settle-unsure/);
      } finally {
        mode = undefined;
      }
      // Nothing moved: the customer's money is still held.
      const held = await ledger.balance(account.customer(order.userId));
      expect(held.availablePaisa).toBe(30_000);
    });
  }

  it("silence (a 5xx) is no unsure answer: the admin's word is not refused by it", async () => {
    const order = await stuckOrder("9841340006");
    mode = "silent";
    try {
      const res = await asSucceeded(order);
      expect(res).toMatchObject({ ok: true, done: "settled" });
      if (res.ok) expect(res.aggregator).toMatch(/^no answer/);
    } finally {
      mode = undefined;
    }
  });
});
