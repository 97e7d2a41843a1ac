import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Order } from "../../src/orders/model.ts";
import type { Orders } from "../../src/orders/service.ts";
import { transition } from "../../src/orders/state.ts";
import {
  creditCustomer,
  ordersOnRedis,
  outboxOf,
  reconcilerOnRedis,
  type SandboxAggregator,
  startSandboxAggregator,
} from "../support/order-rig.ts";
import {
  mobileInput,
  placeAndSubmit,
  placedOrder,
  testRedis,
  waitUntil,
} from "../support/orders.ts";

/**
 * Review s25-c, finding 1: the aggregator's amount and debit are booked as it reports them (the
 * float must agree with its wallet), but figures far from what the order asked (here the
 * execute answer says ten times the amount: a units or decimal slip on one side) are recorded on
 * the order and alerted to the admins once, in the same step. The sandbox's execute answers go
 * through a front that multiplies `amount` and `debit_amount` by ten for one number.
 */

const TOKEN = "amount-mismatch-token";
const ADMINS = [9_001, 9_002];
const SLIPPED = "9841255010";

describe("the aggregator's figures far from the order's", () => {
  const r = testRedis("amount-mismatch");
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;

  beforeAll(async () => {
    aggregator = await startSandboxAggregator({
      token: TOKEN,
      balancePaisa: 5_000_000,
      delays: { toPendingMs: 10, toFinalMs: 20 },
      maxRetries: 1,
      front: async (req, env, sandbox) => {
        const execute =
          req.method === "POST" && new URL(req.url).pathname.endsWith("/recharge/execute");
        const asked = execute ? ((await req.clone().json()) as { connection_no?: string }) : {};
        const res = await sandbox.app.fetch(req, env);
        if (asked.connection_no !== SLIPPED) return res;
        const body = (await res.json()) as {
          data?: { amount: number; credit_consumed?: { debit_amount?: number } };
        };
        if (body.data) {
          body.data.amount *= 10;
          const used = body.data.credit_consumed;
          if (used?.debit_amount !== undefined) used.debit_amount *= 10;
        }
        return Response.json(body, { status: res.status });
      },
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      adminChatIds: ADMINS,
    });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  async function success(input: ReturnType<typeof mobileInput>): Promise<Order> {
    await creditCustomer(ledger, input.userId, 100_000, `credit-${input.connectionNo}`);
    const placed = await placeAndSubmit(orders, input);
    const reconciler = reconcilerOnRedis(r, {
      orders,
      provider: aggregator.client,
      maxAgeMs: 3_600_000,
    });
    let done: Order | null = null;
    await waitUntil(
      async () => {
        await reconciler.runOnce();
        done = await orders.get(placed.reference);
        return done?.status === "success";
      },
      "the order a success",
      { timeoutMs: 10_000, intervalMs: 30 },
    );
    if (!done) throw new Error("no order");
    return done;
  }

  const alertsOf = async (reference: string) =>
    (await outboxOf(r)).filter((n) => n.kind === "admin_alert" && n.reference === reference);

  it("a Rs 100 order answered as Rs 1000: booked as reported, recorded, each admin alerted once", async () => {
    const done = await success(
      mobileInput({ userId: 2551, chatId: 2551, connectionNo: SLIPPED, amountPaisa: 10_000 }),
    );
    expect(done.wallet).toMatchObject({ amountPaisa: 100_000, debitAmountPaisa: 100_000 });
    // The books agree with the aggregator: its debit is the float transfer.
    const { entries } = await ledger.journal({ limit: 200 });
    const float = entries.filter((e) => e.id === `order:${done.reference}:float`);
    expect(float).toHaveLength(1);
    expect(float[0]).toMatchObject({ amountPaisa: 100_000, kind: "float_debit" });
    // Recorded on the order, and one alert per admin naming both figures.
    expect(done.figuresOffAt).toBeDefined();
    expect(done.history.filter((h) => /figures are off/.test(h.note ?? ""))).toHaveLength(1);
    const alerts = await alertsOf(done.reference);
    expect(alerts.map((a) => a.chatId).sort()).toEqual(ADMINS);
    for (const a of alerts) {
      expect(a.kind === "admin_alert" && a.note).toMatch(/amount 100000 paisa, not the 10000 sent/);
      expect(a.kind === "admin_alert" && a.note).toMatch(/debit 100000 paisa/);
    }
  });

  it("an order answered with its own figures alerts nobody", async () => {
    const done = await success(
      mobileInput({ userId: 2552, chatId: 2552, connectionNo: "9841255011", amountPaisa: 10_000 }),
    );
    expect(done.figuresOffAt).toBeUndefined();
    expect(await alertsOf(done.reference)).toEqual([]);
  });
});

describe("the figures check's tolerance and once-per-order", () => {
  const wallet = (amountPaisa: number, debitAmountPaisa: number) => ({
    amountPaisa,
    serviceChargePaisa: 0,
    instantDiscountPaisa: 0,
    debitAmountPaisa,
    creditAvailablePaisa: null,
    source: "execute" as const,
  });
  const submitting = (): Order => ({
    ...placedOrder({ amountPaisa: 10_000 }),
    status: "submitting",
  });
  const answer = (w: ReturnType<typeof wallet>, at = 5) =>
    ({ source: "execute", status: "success", at, wallet: w }) as const;

  it("allows a service charge or discount within the factor, alerts beyond it", () => {
    // A Rs 10 charge or a 40 % discount: within twice / half the face amount.
    expect(transition(submitting(), answer(wallet(10_000, 11_000)), [1]).notifications).toEqual([
      expect.objectContaining({ kind: "status" }),
    ]);
    expect(transition(submitting(), answer(wallet(10_000, 6_000)), [1]).order.figuresOffAt).toBe(
      undefined,
    );
    const high = transition(submitting(), answer(wallet(10_000, 20_001)), [1]);
    expect(high.order.figuresOffAt).toBe(5);
    expect(high.notifications.filter((n) => n.kind === "admin_alert")).toHaveLength(1);
    const low = transition(submitting(), answer(wallet(10_000, 4_999)), [1]);
    expect(low.order.figuresOffAt).toBe(5);
  });

  it("alerts once, when the figures are booked: a later answer with figures off says nothing more", () => {
    // Pending: nothing booked yet, so nothing told (review s25-e, 2).
    const first = transition(
      submitting(),
      { ...answer(wallet(100_000, 100_000)), status: "pending" },
      [1],
    );
    expect(first.order.figuresOffAt).toBeUndefined();
    expect(first.notifications.filter((n) => n.kind === "admin_alert")).toEqual([]);
    const booked = transition(first.order, answer(wallet(100_000, 100_000), 6), [1]);
    expect(booked.order.figuresOffAt).toBe(6);
    expect(booked.notifications.filter((n) => n.kind === "admin_alert")).toHaveLength(1);
    const later = transition(booked.order, answer(wallet(100_000, 100_000), 7), [1]);
    expect(later.notifications.filter((n) => n.kind === "admin_alert")).toEqual([]);
    expect(later.order.figuresOffAt).toBe(6);
  });

  // Review s25-e, 2: nothing is booked for a failed order (postings.ts), so its figures alert
  // nobody: an execute answer "failed" with debit 0, or figures off on a pending order that fails.
  it("a failed order's figures alert nobody", () => {
    const failed = transition(
      submitting(),
      { ...answer(wallet(10_000, 0)), status: "failed" },
      [1],
    );
    expect(failed.order.status).toBe("failed");
    expect(failed.order.figuresOffAt).toBeUndefined();
    expect(failed.notifications.filter((n) => n.kind === "admin_alert")).toEqual([]);
    const pending = transition(
      submitting(),
      { ...answer(wallet(100_000, 100_000)), status: "pending" },
      [1],
    );
    const then = transition(pending.order, { source: "reconciler", status: "failed", at: 6 }, [1]);
    expect(then.order.status).toBe("failed");
    expect(then.order.figuresOffAt).toBeUndefined();
    expect(
      [...pending.notifications, ...then.notifications].filter((n) => n.kind === "admin_alert"),
    ).toEqual([]);
  });
});
