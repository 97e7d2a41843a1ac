import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFiguresOffAlert, createRedisCrossings } from "../../src/books/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Order } from "../../src/orders/model.ts";
import type { Orders } from "../../src/orders/service.ts";
import { transition } from "../../src/orders/state.ts";
import {
  adminAlertsOf,
  creditCustomer,
  frontOnExecute,
  ordersOnRedis,
  outboxOf,
  reconcileUntil,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, placedOrder, testRedis } from "../support/orders.ts";

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
    aggregator = await startQuickSandbox(TOKEN, {
      front: frontOnExecute(async (res, req) => {
        const asked = (await req.json()) as { connection_no?: string };
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
      }),
    });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      adminChatIds: ADMINS,
      onFiguresOff: createFiguresOffAlert({
        crossings: createRedisCrossings(r.redis, r.prefix),
        adminChatIds: ADMINS,
      }),
    });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  async function success(input: ReturnType<typeof mobileInput>): Promise<Order> {
    await creditCustomer(ledger, input.userId, 100_000, `credit-${input.userId}`);
    const placed = await placeAndSubmit(orders, input);
    return reconcileUntil(r, orders, aggregator.client, placed.reference, "success");
  }

  const alertsOf = (reference: string) => adminAlertsOf(r, reference);

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
      // Money in rupees with its sign (review s25-e, note), not "paisa".
      expect(a.kind === "admin_alert" && a.note).toMatch(/amount Rs 1,000, not the Rs 100 sent/);
      expect(a.kind === "admin_alert" && a.note).toMatch(/debit Rs 1,000 against about Rs 100/);
    }
  });

  // Review s25-e, 3: a systematic slip alerted every admin for every order. Each order keeps its
  // record; the admins get the first at once and at most one alert an hour after it.
  it("20 slipped orders: each recorded, each admin alerted at most twice", async () => {
    const inputs = Array.from({ length: 20 }, (_, i) =>
      mobileInput({
        userId: 2560 + i,
        chatId: 2560 + i,
        connectionNo: SLIPPED,
        amountPaisa: 10_000,
      }),
    );
    const done = await Promise.all(inputs.map((input) => success(input)));
    for (const o of done) expect(o.figuresOffAt).toBeDefined();
    const alerts = (await outboxOf(r)).filter(
      (n) => n.kind === "admin_alert" && done.some((o) => o.reference === n.reference),
    );
    for (const admin of ADMINS) {
      expect(alerts.filter((a) => a.chatId === admin).length).toBeLessThanOrEqual(2);
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
    // Told after the write, within the overall limit (books/figures-off.ts).
    expect(high.figuresOff).toMatch(/debit Rs 200\.01 against about Rs 100 expected/);
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
    expect(first.figuresOff).toBeUndefined();
    const booked = transition(first.order, answer(wallet(100_000, 100_000), 6), [1]);
    expect(booked.order.figuresOffAt).toBe(6);
    expect(booked.figuresOff).toBeDefined();
    const later = transition(booked.order, answer(wallet(100_000, 100_000), 7), [1]);
    expect(later.figuresOff).toBeUndefined();
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
    expect(failed.figuresOff).toBeUndefined();
    const pending = transition(
      submitting(),
      { ...answer(wallet(100_000, 100_000)), status: "pending" },
      [1],
    );
    const then = transition(pending.order, { source: "reconciler", status: "failed", at: 6 }, [1]);
    expect(then.order.status).toBe("failed");
    expect(then.order.figuresOffAt).toBeUndefined();
    expect(pending.figuresOff ?? then.figuresOff).toBeUndefined();
  });
});

describe("the figures alert's hourly limit", () => {
  const r = testRedis("figures-off-window");
  afterAll(() => r.cleanup());

  it("tells the first at once, counts the rest of the hour, tells the count with the first after it", async () => {
    const tell = createFiguresOffAlert({
      crossings: createRedisCrossings(r.redis, r.prefix),
      adminChatIds: [7],
    });
    const order = (reference: string): Order => ({
      ...placedOrder({ reference }),
      status: "success",
    });
    const t0 = 1_800_000_000_000;
    const off = "amount Rs 1,000, not the Rs 100 sent";
    expect(await tell({ order: order("1800000000001"), off, at: t0 })).toBe(true);
    for (let i = 2; i <= 9; i++) {
      expect(await tell({ order: order(`180000000000${i}`), off, at: t0 + i * 60_000 })).toBe(
        false,
      );
    }
    expect(await tell({ order: order("1800000000010"), off, at: t0 + 3_600_000 })).toBe(true);
    const notes = (await outboxOf(r)).flatMap((n) => (n.kind === "admin_alert" ? [n.note] : []));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain("Order 1800000000001");
    expect(notes[1]).toContain("Order 1800000000010");
    expect(notes[1]).toMatch(
      /Also 8 more order\(s\) with figures off since \d\d:\d\d UTC \(e\.g\. 1800000000002, /,
    );
  });
});
