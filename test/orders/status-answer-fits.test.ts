import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import { COLLISION_KIND } from "../../src/books/collision-alert.ts";
import {
  type Books,
  createCollisionAlert,
  createFiguresOffAlert,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { answerFits } from "../../src/orders/answer-fits.ts";
import { toExecuteRequest } from "../../src/orders/execute-request.ts";
import type { Order } from "../../src/orders/model.ts";
import { orderPartsOf } from "../../src/orders/parts.ts";
import { eventFromStatus } from "../../src/orders/provider-events.ts";
import type { Orders } from "../../src/orders/service.ts";
import { transition } from "../../src/orders/state.ts";
import type { StatusResult } from "../../src/provider/schemas.ts";
import { createConfirmations } from "../../src/webhook/confirm.ts";
import { booksOnRedis } from "../support/books.ts";
import {
  adminAlertsOf,
  availableOf,
  creditCustomer,
  ordersOnRedis,
  outboxOf,
  reconcilerOnRedis,
  reconcileUntil,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, placedOrder, testRedis, waitUntil } from "../support/orders.ts";

/**
 * Review s31-orders, 1 and 3: a status answer (the reconciler's query, the webhook's confirmation)
 * is checked against the order before it is applied. An answer about another recharge under our
 * reference (a counter set back by a restore; our execute's "duplicate" refusal lost on the way;
 * or an id the aggregator echoes in another form) is recorded, not applied: the order stays open
 * with its hold, the customer told nothing final, the admins told once (the collision alert), one
 * history entry however often it is answered; an admin settles it by hand (/settle). A success answered for another amount is applied, its debit inferred from
 * that amount (drift 0), recorded and alerted as figures off. The sandbox aggregator behind a
 * front that loses the execute's answer (a 502 after the sandbox had it), real Redis.
 */

const TOKEN = "answer-fits-token";
const FUNDED = 100_000;
const ADMIN = 9101;
const OTHER_NUMBER = "9841000111";
/** The float's drift after the two collisions (settled failed and succeeded by hand), and after. */
const DRIFT = -50_000;

/** Numbers whose execute answer is lost; of them, those whose amount the aggregator slips (÷ 10). */
const lost = new Set<string>();
const slipped = new Set<string>();
/**
 * References whose status answers the front rewrites: another number, another status word, and
 * for an order that has its transaction id, another one (an answer naming the order's own
 * transaction is about its recharge, whatever number it echoes: review s33-rvprov, 2).
 */
const misnamed = new Map<
  string,
  { connection_no: string; status: string; transaction_id?: string }
>();

async function front(req: Request, env: unknown, sandbox: Sandbox): Promise<Response> {
  const path = new URL(req.url).pathname;
  if (req.method === "POST" && path.endsWith("/recharge/execute")) {
    const body = (await req.clone().json()) as { connection_no: string; amount: number };
    if (!lost.has(body.connection_no)) return sandbox.app.fetch(req, env);
    if (slipped.has(body.connection_no)) body.amount /= 10;
    const sent = new Request(req.url, {
      method: "POST",
      headers: req.headers,
      body: JSON.stringify(body),
    });
    await sandbox.app.fetch(sent, env);
    return new Response("<html>502 Bad Gateway</html>", { status: 502 });
  }
  if (req.method === "POST" && path.endsWith("/order/status")) {
    const { order_id } = (await req.clone().json()) as { order_id: string | number };
    const res = await sandbox.app.fetch(req, env);
    const said = misnamed.get(String(order_id));
    if (said === undefined || !res.ok) return res;
    const body = (await res.json()) as {
      data: { status: string; transaction_id?: unknown; details?: Record<string, unknown> };
    };
    body.data.status = said.status;
    if (said.transaction_id !== undefined) body.data.transaction_id = said.transaction_id;
    body.data.details = { ...body.data.details, connection_no: said.connection_no };
    return Response.json(body, { status: res.status });
  }
  return sandbox.app.fetch(req, env);
}

describe("a status answer checked against the order before it is applied", () => {
  const r = testRedis("answer-fits");
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let orders: Orders;
  let books: Books;

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN, { front });
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    const crossings = createRedisCrossings(r.redis, r.prefix);
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      adminChatIds: [ADMIN],
      settleAfterMs: 0,
      onAdminNote: createCollisionAlert({ crossings, adminChatIds: [ADMIN] }),
      onFiguresOff: createFiguresOffAlert({ crossings, adminChatIds: [ADMIN] }),
    });
    books = booksOnRedis(r.redis, r.prefix, () => aggregator.sandbox.balance(TOKEN));
    expect((await books.report()).float.driftPaisa).toBe(0);
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  const confirmations = () =>
    createConfirmations({
      orders,
      provider: aggregator.client,
      logger: undefined,
      now: Date.now,
    });

  /** A webhook's final claim confirmed by a status query, as the webhook route schedules it. */
  async function confirmClaim(order: Order, claimed: "success" | "failed"): Promise<Order> {
    const c = confirmations();
    c.schedule(order, claimed);
    await c.settled();
    const after = await orders.get(order.reference);
    if (after === null) throw new Error(`no order ${order.reference}`);
    return after;
  }

  /**
   * Ours (Rs 100) placed with its hold; the aggregator holding its reference for another recharge
   * (another number, Rs 300: a counter set back), a success; ours refused as its duplicate, that
   * answer lost: unknown, hold kept.
   */
  async function collidedAndLost(userId: number, connectionNo: string): Promise<Order> {
    await creditCustomer(ledger, userId, FUNDED);
    const placed = await orders.place(
      mobileInput({ userId, chatId: userId, connectionNo, amountPaisa: 10_000 }),
    );
    const other = await aggregator.client.execute(
      toExecuteRequest(
        { ...placed, connectionNo: OTHER_NUMBER, amountPaisa: 30_000 },
        orderPartsOf(CATEGORY_MODULES),
      ),
    );
    expect(other.kind).toBe("accepted");
    await waitUntil(
      async () =>
        aggregator.sandbox
          .transactions(TOKEN)
          .some((t) => t.referenceNo === placed.reference && t.status === "success"),
      "the other recharge's success",
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    lost.add(connectionNo);
    const sent = await orders.submit(placed.reference, { known: placed });
    expect(sent.status).toBe("unknown");
    expect(await availableOf(ledger, userId)).toBe(FUNDED - 10_000);
    return sent;
  }

  /** Runs the reconciler until `done` holds of the order, then `more` passes again. */
  async function reconcile(ref: string, done: (o: Order) => boolean, more = 2): Promise<Order> {
    const reconciler = reconcilerOnRedis(r, {
      orders,
      provider: aggregator.client,
      maxAgeMs: 3_600_000,
    });
    await waitUntil(
      async () => {
        await reconciler.runOnce();
        const o = await orders.get(ref);
        return o !== null && done(o);
      },
      "the reconciler's answer on the order",
      { timeoutMs: 10_000, intervalMs: 30 },
    );
    for (let i = 0; i < more; i++) await reconciler.runOnce();
    const after = await orders.get(ref);
    if (after === null) throw new Error(`no order ${ref}`);
    return after;
  }

  const answered = (o: Order) =>
    o.history.filter((h) => h.note?.startsWith("status answer about another recharge"));

  /**
   * Recorded, not applied: open (unknown) with its hold, no transaction id or debit taken, one
   * history entry naming the other recharge, the customer told nothing final.
   */
  async function expectRecordedOnly(open: Order, userId: number): Promise<void> {
    expect(open.status).toBe("unknown");
    expect(open.transactionId).toBeUndefined();
    expect(open.wallet).toBeUndefined();
    const entries = answered(open);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.status).toBeNull();
    expect(entries[0]?.note).toContain(`number ${OTHER_NUMBER}, amount Rs 300`);
    expect(entries[0]?.note).toMatch(/: not applied$/);
    expect(await availableOf(ledger, userId)).toBe(FUNDED - 10_000);
    const told = (await outboxOf(r)).flatMap((n) =>
      n.kind === "status" && n.reference === open.reference ? [n.status] : [],
    );
    expect(told).not.toContain("failed");
    expect(told).not.toContain("success");
    // In the open orders an admin reads (and the reconciler pages through).
    const listed = await orders.store.listOpen({ createdBefore: Date.now() + 1, limit: 1_000 });
    expect(listed.map((o) => o.reference)).toContain(open.reference);
  }

  it("the reconciler's answer about another recharge: recorded, not applied, alerted once; /settle failed returns the hold", async () => {
    const userId = 3101;
    const unknown = await collidedAndLost(userId, "9841310003");
    const open = await reconcile(unknown.reference, (o) => answered(o).length > 0);
    // The same answer again, by a webhook's confirmation too: no entry, no alert more.
    const again = await confirmClaim(await confirmClaim(open, "success"), "failed");
    await expectRecordedOnly(again, userId);
    const alerts = await adminAlertsOf(r, open.reference);
    expect(alerts.map((a) => a.chatId)).toEqual([ADMIN]);
    const note = alerts[0]?.kind === "admin_alert" ? (alerts[0].note ?? "") : "";
    expect(note).toMatch(/another recharge/);
    expect(note).toContain("not applied; the order stays open with the customer's money held");
    expect(note).toContain("settle it with /settle after checking with the aggregator");
    // The books: no float debit for ours (only the other recharge's, which no order of ours made).
    expect((await books.report()).float.driftPaisa).toBe(-30_000);
    // An admin settles it failed by hand: the hold returned.
    const settled = await orders.settle({
      reference: open.reference,
      outcome: "failed",
      adminId: ADMIN,
      reason: "the aggregator has no recharge of ours under it",
      admins: [ADMIN],
    });
    expect(settled.ok && settled.order.status).toBe("failed");
    expect(await availableOf(ledger, userId)).toBe(FUNDED);
    expect(answered((await orders.get(open.reference)) ?? open)).toHaveLength(1);
  });

  it("the webhook's claim confirmed by an answer about another recharge: the same; /settle succeeded by hand", async () => {
    const userId = 3102;
    const unknown = await collidedAndLost(userId, "9841310004");
    const open = await confirmClaim(unknown, "success");
    // The reconciler's passes and the claim again bring the same answer: nothing more recorded.
    const again = await confirmClaim(await reconcile(open.reference, () => true), "success");
    await expectRecordedOnly(again, userId);
    // Counted in the hour of the first test's alert (one window for both), not told again.
    expect(await adminAlertsOf(r, open.reference)).toEqual([]);
    // The aggregator's answer never settles it, nor stops an admin's "succeeded" by hand.
    const settled = await orders.settle({
      reference: open.reference,
      outcome: "success",
      adminId: ADMIN,
      reason: "the aggregator confirms it recharged ours",
      admins: [ADMIN],
    });
    expect(settled.ok && settled.order.status).toBe("success");
    expect(await availableOf(ledger, userId)).toBe(FUNDED - 10_000);
    // Its debit inferred (Rs 100), which this test's aggregator never made: the two other
    // recharges' Rs 600 less it.
    expect((await books.report()).float.driftPaisa).toBe(DRIFT);
  });

  it("a final order is untouched by an answer about another recharge, even a contradicting one", async () => {
    const userId = 3103;
    await creditCustomer(ledger, userId, FUNDED);
    const placed = await orders.place(
      mobileInput({ userId, chatId: userId, connectionNo: "9841310005", amountPaisa: 10_000 }),
    );
    await orders.submit(placed.reference, { known: placed });
    const done = await reconcileUntil(r, orders, aggregator.client, placed.reference, "success");
    misnamed.set(done.reference, {
      connection_no: OTHER_NUMBER,
      status: "failed",
      transaction_id: "T-OTHER-RECHARGE",
    });
    const after = await confirmClaim(done, "failed");
    expect(after.version).toBe(done.version);
    expect(after.contradicted).toBeUndefined();
    expect(await adminAlertsOf(r, done.reference)).toEqual([]);
  });

  /** Ours for Rs 500, the aggregator recharging (and debiting) Rs 50, its execute answer lost. */
  async function slippedAndLost(userId: number, connectionNo: string): Promise<Order> {
    await creditCustomer(ledger, userId, FUNDED);
    lost.add(connectionNo);
    slipped.add(connectionNo);
    const placed = await orders.place(
      mobileInput({ userId, chatId: userId, connectionNo, amountPaisa: 50_000 }),
    );
    const sent = await orders.submit(placed.reference, { known: placed });
    expect(sent.status).toBe("unknown");
    return sent;
  }

  async function expectFiguresOff(done: Order, drift: number): Promise<void> {
    expect(done.status).toBe("success");
    expect(done.wallet).toMatchObject({
      amountPaisa: 5_000,
      debitAmountPaisa: 5_000,
      source: "inferred",
    });
    expect(done.figuresOffAt).toBeDefined();
    const entry = done.history.find((h) => /figures are off/.test(h.note ?? ""));
    expect(entry?.note).toContain("status answer amount Rs 50, not the Rs 500 sent");
    expect((await books.report()).float.driftPaisa).toBe(drift);
  }

  it("the reconciler's success for another amount: booked at it, figures off, admins told", async () => {
    const unknown = await slippedAndLost(3104, "9841310001");
    await waitUntil(
      async () =>
        aggregator.sandbox
          .transactions(TOKEN)
          .some((t) => t.referenceNo === unknown.reference && t.status === "success"),
      "the slipped recharge's success",
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    const done = await reconcileUntil(r, orders, aggregator.client, unknown.reference, "success");
    await expectFiguresOff(done, DRIFT);
    const alerts = await adminAlertsOf(r, done.reference);
    expect(alerts.map((a) => a.chatId)).toEqual([ADMIN]);
    expect(alerts[0]?.kind === "admin_alert" && alerts[0].note).toContain(
      "status answer amount Rs 50, not the Rs 500 sent",
    );
    // The same answer again: nothing more.
    const again = await confirmClaim(done, "success");
    expect(again.version).toBe(done.version);
    expect(await adminAlertsOf(r, done.reference)).toHaveLength(1);
  });

  it("the webhook's success confirmed for another amount: the same", async () => {
    const unknown = await slippedAndLost(3105, "9841310002");
    await waitUntil(
      async () =>
        aggregator.sandbox
          .transactions(TOKEN)
          .some((t) => t.referenceNo === unknown.reference && t.status === "success"),
      "the slipped recharge's success",
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    const done = await confirmClaim(unknown, "success");
    // Within the hour of the one before: recorded on the order, counted for the next alert.
    await expectFiguresOff(done, DRIFT);
  });
});

describe("which numbers are another than the order's", () => {
  const order = placedOrder({ connectionNo: "9841310003" });
  const answer = (connectionNo: string | null) =>
    ({
      status: "success",
      referenceNo: order.reference,
      amountPaisa: 0,
      connectionNo,
    }) as never as StatusResult;

  it("the same number however written fits; another, or none, is told apart", () => {
    for (const same of [
      "9841310003",
      "+977 9841310003",
      "9779841310003",
      "009779841310003",
      "984-131-0003",
    ])
      expect(answerFits(order, answer(same))).toBe(true);
    expect(answerFits(order, answer(null))).toBe(true);
    expect(answerFits(order, answer("9841000111"))).toBe(false);
    const landline = placedOrder({ connectionNo: "014123456" });
    expect(answerFits(landline, answer("14123456"))).toBe(true);
    const india = placedOrder({ region: "in", connectionNo: "9876543210" });
    expect(answerFits(india, answer("+91 98765 43210"))).toBe(true);
    expect(answerFits(india, answer("09876543210"))).toBe(true);
    expect(answerFits(india, answer("9876543211"))).toBe(false);
    // An internet username: as written, case and separators aside.
    const internet = placedOrder({ connectionNo: "Ram.Thapa12" });
    expect(answerFits(internet, answer("ram.thapa12"))).toBe(true);
    expect(answerFits(internet, answer("sita.thapa12"))).toBe(false);
  });
});

describe("an answer about another recharge as an event (pure)", () => {
  const answer = {
    status: "success",
    referenceNo: "1700000000001",
    transactionId: "T-OTHER",
    amountPaisa: 30_000,
    connectionNo: OTHER_NUMBER,
  } as never as StatusResult;

  it("on an order without a transaction id, recorded only; the admins' note with its first record", () => {
    const order: Order = { ...placedOrder({ connectionNo: "9841310003" }), status: "unknown" };
    const t = transition(order, eventFromStatus(order, answer, "reconciler", 5), [ADMIN]);
    expect(t.order.status).toBe("unknown");
    expect(t.order.transactionId).toBeUndefined();
    expect(t.notifications).toEqual([]);
    expect(t.adminNote).toMatch(/another recharge under our reference \(number 9841000111/);
    expect(t.adminNote).toMatch(/not applied; the order stays open/);
    // A crash before the count: the flush's repair tells the order from its record.
    expect(COLLISION_KIND.owedDetail?.(t.order)).toBe(t.adminNote);
    // The same answer again, by a webhook's confirmation: nothing to write, nobody told.
    const confirmed = eventFromStatus(order, answer, "status", 6, "confirms webhook success");
    expect(transition(t.order, confirmed, [ADMIN]).changed).toBe(false);
    // Another word about the other recharge: recorded, the admins not told again.
    const pending = { ...answer, status: "pending" } as StatusResult;
    const later = transition(t.order, eventFromStatus(order, pending, "reconciler", 7), [ADMIN]);
    expect(later.changed).toBe(true);
    expect(later.order.status).toBe("unknown");
    expect(later.adminNote).toBeUndefined();
  });

  it("on an order with a transaction id, recorded only: the reconciler asks again", () => {
    const order: Order = {
      ...placedOrder({ connectionNo: "9841310003" }),
      status: "queued",
      transactionId: "T-OURS",
    };
    const event = eventFromStatus(order, answer, "reconciler", 5);
    const t = transition(order, event, [ADMIN]);
    expect(t.order.status).toBe("queued");
    expect(t.order.history.at(-1)?.note).toMatch(/not applied$/);
    expect(t.adminNote).toBeUndefined();
    // The same answer again: nothing to write.
    expect(transition(t.order, { ...event, at: 6 }, [ADMIN]).changed).toBe(false);
  });
});
