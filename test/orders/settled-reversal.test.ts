import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import { notificationRender } from "../../src/bot/notification-render.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Notification, Order } from "../../src/orders/model.ts";
import type { Orders } from "../../src/orders/service.ts";
import type { ProviderClient } from "../../src/provider/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { applyWebhookEvent, CLAIM_COOLDOWN_MS } from "../../src/webhook/apply.ts";
import { createConfirmations } from "../../src/webhook/confirm.ts";
import {
  adminAlertsOf,
  availableOf,
  creditCustomer,
  KEPT_PENDING,
  orderJournal,
  ordersOnRedis,
  reconcilerOnRedis,
  type SandboxAggregator,
  startSandboxAggregator,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis } from "../support/orders.ts";

/**
 * A success an admin settled (/settle) that the aggregator later says it reversed ("refunded",
 * "reversed": orders/reversal.ts), on real Redis (orders, ledger and outbox in one step) and the
 * sandbox aggregator over HTTP. Before session 32 the word was kept as one nobody understood:
 * the aggregator took the money back while the customer stayed charged, and no admin heard of
 * it. Now it is recorded once on the order (`settled.contradictedAt`, a history entry naming the
 * word) and every admin is alerted once, in the order's own write; no money moves.
 */

const TOKEN = "settled-reversal-token";
const HOUR = 3_600_000;
const SETTLE_AFTER = 4 * HOUR;
const ADMIN = 7301;
const OTHER_ADMIN = 7302;
const ADMINS = [ADMIN, OTHER_ADMIN];

describe("the aggregator reverses a success an admin settled", () => {
  const r = testRedis("settled-reversal");
  let aggregator: SandboxAggregator;
  let sandbox: Sandbox;
  let client: ProviderClient;
  let ledger: LedgerStore;
  let orders: Orders;
  /** When set for a reference, the status endpoint answers this word for it ("refunded"). */
  const statusWord = new Map<string, string>();
  let clock = Date.now() - 500 * HOUR;
  let userSeq = 9300;
  const render = notificationRender(createChatI18n(CATEGORY_MODULES));

  beforeAll(async () => {
    aggregator = await startSandboxAggregator({
      token: TOKEN,
      balancePaisa: 5_000_000,
      delays: KEPT_PENDING,
      maxRetries: 0,
      front: async (req, env, sandbox) => {
        const res = await sandbox.app.fetch(req, env);
        if (!new URL(req.url).pathname.endsWith("/status")) return res;
        const body = (await res.json()) as { data?: { status?: string; order_id?: string } };
        const word = statusWord.get(String(body.data?.order_id));
        if (word !== undefined && body.data) body.data.status = word;
        return Response.json(body, { status: res.status });
      },
    });
    ({ sandbox, client } = aggregator);
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: client,
      settleAfterMs: SETTLE_AFTER,
      adminChatIds: ADMINS,
      now: () => clock,
    });
  });

  afterEach(() => statusWord.clear());

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  /** A prepaid customer's Rs 200 order the aggregator keeps pending, settled as succeeded by two admins. */
  async function settledSuccess(connectionNo: string): Promise<Order> {
    const userId = ++userSeq;
    await creditCustomer(ledger, userId, 50_000);
    const order = await placeAndSubmit(
      orders,
      mobileInput({ userId, chatId: userId, connectionNo, amountPaisa: 20_000 }),
    );
    clock += SETTLE_AFTER;
    const ask = { reference: order.reference, outcome: "success" as const, admins: ADMINS };
    const reason = "operator confirms the top-up arrived";
    expect(await orders.settle({ ...ask, adminId: ADMIN, reason })).toMatchObject({
      done: "proposed",
    });
    const p = (await orders.get(order.reference))?.settleProposal;
    const approves = { by: p?.by ?? 0, at: p?.at ?? 0 };
    const done = await orders.settle({ ...ask, adminId: OTHER_ADMIN, reason, approves });
    expect(done).toMatchObject({ ok: true, done: "settled" });
    const settled = (await orders.get(order.reference)) as Order;
    expect([settled.status, settled.settled?.admins.sort()]).toEqual(["success", ADMINS]);
    expect(await availableOf(ledger, userId)).toBe(30_000);
    return settled;
  }

  /** The aggregator takes the recharge back (its wallet re-credited) and answers `word` for it. */
  function reverseAtAggregator(order: Order, word: string): void {
    const tx = sandbox.transactions(TOKEN).find((t) => t.referenceNo === order.reference);
    expect(sandbox.forceStatus(TOKEN, tx?.transactionId ?? "", "failed").ok).toBe(true);
    statusWord.set(order.reference, word);
  }

  const reversedEntries = (o: Order | null) =>
    o?.history.filter((h) => h.note?.includes("it reversed the success")) ?? [];

  /** Every admin alerted once, worded from the aggregator's own word. */
  async function expectAlertedOnce(order: Order, word: string): Promise<void> {
    const alerts = await adminAlertsOf(r, order.reference);
    const reversal = alerts.filter((n) => n.kind === "admin_alert" && n.contradicted);
    expect(reversal.map((n) => n.chatId).sort()).toEqual(ADMINS);
    expect(reversal.every((n) => n.kind === "admin_alert" && n.word === word)).toBe(true);
    const after = (await orders.get(order.reference)) as Order;
    const text = render(reversal[0] as Exclude<Notification, { kind: "complaint" }>, after).text;
    expect(text).toContain(order.reference);
    expect(text).toContain(`answers "${word}"`);
    expect(text).toContain(`settled as successful by admin ${ADMIN}`);
    expect(text).toContain("may be owed a refund");
    expect(text).not.toContain("says it failed");
  }

  it("a webhook's 'refunded', confirmed by the status answer: recorded once, every admin alerted once; no money moves", async () => {
    const order = await settledSuccess("9841550001");
    const journal = await orderJournal(ledger, order.reference);
    const confirmations = createConfirmations({
      orders,
      provider: client,
      logger: undefined,
      now: () => clock,
    });
    const deps = { orders, confirmFinal: true, confirmations, logger: undefined, now: () => clock };
    const webhook = {
      status: "refunded",
      reference: order.reference,
      transactionId: undefined,
      amountPaisa: 20_000,
      timestampMs: null,
      connectionNo: undefined,
      operator: undefined,
      packageName: undefined,
    };
    reverseAtAggregator(order, "refunded");
    clock += 1;
    await applyWebhookEvent(deps, webhook);
    await confirmations.settled();
    const at = clock;
    const after = (await orders.get(order.reference)) as Order;
    expect(after.status).toBe("success");
    expect(after.settled?.contradictedAt).toBe(at);
    const entries = reversedEntries(after);
    expect(entries.map((h) => h.source)).toEqual(["status"]);
    expect(entries[0]?.note).toContain('answers "refunded"');
    await expectAlertedOnce(order, "refunded");

    // Redelivered, past the claims' cooldown, in any word: nothing more recorded or alerted.
    for (const status of ["refunded", "reversed", "failed"]) {
      clock += CLAIM_COOLDOWN_MS;
      await applyWebhookEvent(deps, { ...webhook, status });
      await confirmations.settled();
    }
    const later = (await orders.get(order.reference)) as Order;
    expect(later.settled?.contradictedAt).toBe(at);
    expect(reversedEntries(later)).toHaveLength(1);
    const told = await adminAlertsOf(r, order.reference);
    expect(told.filter((n) => n.kind === "admin_alert" && n.contradicted)).toHaveLength(2);
    // Still charged: any refund is an admin's decision.
    expect(await orderJournal(ledger, order.reference)).toEqual(journal);
    expect(await availableOf(ledger, order.userId)).toBe(30_000);
  });

  it("the settled watch's answer 'reversed': recorded once, every admin alerted once, asked no more; no money moves", async () => {
    const order = await settledSuccess("9841550002");
    const journal = await orderJournal(ledger, order.reference);
    const watchKey = keyspace(r.prefix).settledWatch;
    expect(await r.redis.zscore(watchKey, order.reference)).not.toBeNull();
    reverseAtAggregator(order, "reversed");
    const reconciler = reconcilerOnRedis(r, {
      orders,
      provider: client,
      maxAgeMs: 1_000 * HOUR,
      adminChatIds: ADMINS,
      leaseName: "settled-reversal",
      now: () => clock,
    });
    clock += HOUR;
    expect((await reconciler.runOnce()).settledAsked).toBeGreaterThan(0);
    const after = (await orders.get(order.reference)) as Order;
    expect(after.status).toBe("success");
    expect(after.settled?.contradictedAt).toBeDefined();
    expect(reversedEntries(after).map((h) => h.source)).toEqual(["reconciler"]);
    await expectAlertedOnce(order, "reversed");
    expect(await r.redis.zscore(watchKey, order.reference)).toBeNull();
    expect(await orderJournal(ledger, order.reference)).toEqual(journal);
    expect(await availableOf(ledger, order.userId)).toBe(30_000);
  });
});
