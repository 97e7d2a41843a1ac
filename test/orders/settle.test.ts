import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import type { Books } from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { holdIdOf, type Order } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders, type Orders } from "../../src/orders/service.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import type { ProviderClient } from "../../src/provider/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { applyWebhookEvent, CLAIM_COOLDOWN_MS } from "../../src/webhook/apply.ts";
import { createConfirmations } from "../../src/webhook/confirm.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { booksOnRedis } from "../support/books.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import {
  availableOf,
  creditCustomer,
  KEPT_PENDING,
  orderJournal,
  ordersOnRedis,
  outboxOf,
  reconcilerOnRedis,
  type SandboxAggregator,
  startSandboxAggregator,
} from "../support/order-rig.ts";
import { mobileInput, placeAndSubmit, testRedis } from "../support/orders.ts";

/**
 * An order the aggregator never ends (its status endpoint answers "pending" for good, or errors)
 * and its settlement by an admin (src/orders/settle.ts), on real Redis (orders and ledger in one
 * step), the sandbox aggregator over HTTP and the books as an admin reads them. Prepaid: the
 * customer's money is held while the order is open. The orders' clock is the test's: "hours
 * later" is a step of it; the sandbox's pending stays pending (its final delay is an hour of real
 * time). The sandbox is shared: each test ends with the float check where it found it.
 */

const TOKEN = "settle-token";
const HOUR = 3_600_000;
const SETTLE_AFTER = 4 * HOUR;
const ADMIN = 7001;
const OTHER_ADMIN = 7002;
const ADMINS = [ADMIN, OTHER_ADMIN];
/** ADMIN's own WhatsApp chat: listed as `7001=wa:+9779841000001`, one person on two channels. */
const ADMIN_WA = chatIdOfWaId("9779841000001") ?? 0;
const THIRD_ADMIN = 7003;
const OPENING = 5_000_000;
/** Queued or pending: which one depends on when the aggregator was last asked (10 ms apart). */
const OPEN = ["queued", "pending"];

describe("an admin settles an order the aggregator never ended", () => {
  const r = testRedis("settle");
  let aggregator: SandboxAggregator;
  let sandbox: Sandbox;
  let client: ProviderClient;
  let ledger: LedgerStore;
  let orders: Orders;
  /** The same orders (same Redis) as wired with ADMIN_IDS=7001=wa:+977…,7002,7003; its order
   * writes fail while `failWrites` is above 0 (a Redis timeout where the script did not run). */
  let grouped: Orders;
  let failWrites = 0;
  /** When set, the aggregator's status answers say this word instead (a word nobody normalised). */
  let statusWord: string | undefined;
  let statusRef: string | undefined;
  /** When set, the status endpoint refuses every query in its own error shape with this status. */
  let refuseStatus: { status: number; message: string } | undefined;
  let books: Books;
  // In the past, so that the books' own clock (Date.now) sees every order as created already.
  let clock = Date.now() - 500 * HOUR;
  let userSeq = 8100;

  beforeAll(async () => {
    aggregator = await startSandboxAggregator({
      token: TOKEN,
      balancePaisa: OPENING,
      delays: KEPT_PENDING,
      maxRetries: 0,
      front: async (req, env, sandbox) => {
        if (refuseStatus !== undefined && new URL(req.url).pathname.endsWith("/status")) {
          // The sandbox's own refusal body (shape B), for an order it never had, re-sent as told.
          const headers = new Headers(req.headers);
          headers.delete("content-length");
          const body = JSON.stringify({ order_id: "999999999999", transaction_id: "999999999999" });
          const res = await sandbox.app.fetch(
            new Request(req.url, { method: "POST", headers, body }),
            env,
          );
          const refusal = (await res.json()) as { message?: string };
          refusal.message = refuseStatus.message;
          return Response.json(refusal, { status: refuseStatus.status });
        }
        const res = await sandbox.app.fetch(req, env);
        const rewrite = statusWord !== undefined || statusRef !== undefined;
        if (!rewrite || !new URL(req.url).pathname.endsWith("/status")) return res;
        // The aggregator answers a word of its own ("refunded") for the order's status, or about
        // another order than the one asked.
        const body = (await res.json()) as { data?: { status?: string; order_id?: string } };
        if (statusWord !== undefined && body.data?.status !== undefined)
          body.data.status = statusWord;
        if (statusRef !== undefined && body.data !== undefined) body.data.order_id = statusRef;
        return Response.json(body, { status: res.status });
      },
    });
    ({ sandbox, client } = aggregator);
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: client,
      settleAfterMs: SETTLE_AFTER,
      now: () => clock,
    });
    const store = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
    const flaky: OrderStore = {
      ...store,
      update: (reference, mutate, known) => {
        if (failWrites <= 0) return store.update(reference, mutate, known);
        failWrites--;
        return Promise.reject(new Error("Command timed out"));
      },
    };
    grouped = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "prepaid",
      store: flaky,
      provider: client,
      settleAfterMs: SETTLE_AFTER,
      adminPeople: [[ADMIN, ADMIN_WA], [OTHER_ADMIN], [THIRD_ADMIN]],
      now: () => clock,
    });
    books = booksOnRedis(r.redis, r.prefix, () => sandbox.balance(TOKEN));
    expect((await books.report()).float.driftPaisa).toBe(0);
  });

  afterEach(() => {
    sandbox.clearFaults(TOKEN);
    statusWord = undefined;
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  /** A prepaid customer with Rs 500, and their Rs 200 order the aggregator keeps pending. */
  async function stuckOrder(connectionNo: string): Promise<Order> {
    const userId = ++userSeq;
    await creditCustomer(ledger, userId, 50_000);
    const order = await placeAndSubmit(
      orders,
      mobileInput({ userId, chatId: userId, connectionNo, amountPaisa: 20_000 }),
    );
    expect(order.holdId).toBe(holdIdOf(order.reference));
    return order;
  }

  /** The aggregator finally ends the order (its admin's force; a failure refunds its wallet). */
  function forceAtAggregator(order: Order, status: "success" | "failed"): void {
    const tx = sandbox.transactions(TOKEN).find((t) => t.referenceNo === order.reference);
    expect(sandbox.forceStatus(TOKEN, tx?.transactionId ?? "", status).ok).toBe(true);
  }

  const outbox = () => outboxOf(r);
  const available = (userId: number) => availableOf(ledger, userId);
  const journalOf = (reference: string) => orderJournal(ledger, reference);

  /** One admin configured: that admin settles alone. */
  const settle = (o: Order, outcome: "failed" | "success", reason = "operator says no recharge") =>
    orders.settle({ reference: o.reference, outcome, adminId: ADMIN, reason, admins: [ADMIN] });

  /** Two admins configured (maker-checker): `by` proposes, or approves the proposal `approves`. */
  const settleAs = (
    by: number,
    o: Order,
    outcome: "failed" | "success",
    reason = "operator says no recharge",
    approves?: { by: number; at: number },
    service: Orders = orders,
  ) =>
    service.settle({
      reference: o.reference,
      outcome,
      adminId: by,
      reason,
      admins: ADMINS,
      ...(approves === undefined ? {} : { approves }),
    });

  /** The proposal waiting on the order as an admin is shown it (its admin and time). */
  async function proposalOf(o: Order): Promise<{ by: number; at: number }> {
    const p = (await orders.get(o.reference))?.settleProposal;
    expect(p).toBeDefined();
    return { by: p?.by ?? 0, at: p?.at ?? 0 };
  }

  it("without a settlement the order stays open and the money held, however long (the defect)", async () => {
    const order = await stuckOrder("9841330001");
    expect(order.status).toBe("queued");
    const reconciler = reconcilerOnRedis(r, {
      orders,
      provider: client,
      maxAgeMs: HOUR,
      adminChatIds: ADMINS,
      leaseName: "settle-defect",
      now: () => clock,
    });
    clock += 24 * HOUR;
    await reconciler.runOnce();
    const after = await orders.get(order.reference);
    // Flagged for the admins, still open, the Rs 200 still held: nothing else ends it.
    expect(OPEN).toContain(after?.status);
    expect(after?.flaggedAt).toBeDefined();
    expect(await available(order.userId)).toBe(50_000 - 20_000);
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold"]);
  });

  it("refuses an order younger than SETTLE_AFTER_MS and one already final; nothing moves", async () => {
    const order = await stuckOrder("9841330002");
    clock += SETTLE_AFTER - 1;
    const young = await settle(order, "failed");
    expect(young).toMatchObject({ ok: false, code: "too_young" });
    expect(young.ok === false && young.code === "too_young" && young.readyAt).toBe(
      order.createdAt + SETTLE_AFTER,
    );
    expect((await orders.get(order.reference))?.status).toBe("queued");
    expect(await available(order.userId)).toBe(30_000);

    const done = await stuckOrder("9841338888"); // the sandbox's instant success
    expect(done.status).toBe("success");
    clock += SETTLE_AFTER;
    expect(await settle(done, "failed")).toMatchObject({ ok: false, code: "final" });
    expect((await journalOf(done.reference)).map((e) => e.kind).sort()).toEqual(
      ["float_debit", "hold", "post"].sort(),
    );
  });

  it("settles a stuck order as failed: the hold voided once, the money back, recorded; a second tap does nothing", async () => {
    const order = await stuckOrder("9841330003");
    clock += SETTLE_AFTER;
    const first = await settle(order, "failed", "operator confirms no recharge arrived");
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.aggregator).toMatch(/^status (pending|queued)$/);
    expect(first.order.status).toBe("failed");
    expect(first.order.settled).toMatchObject({
      by: ADMIN,
      at: clock,
      reason: "operator confirms no recharge arrived",
      aggregator: first.aggregator,
      admins: [ADMIN],
    });
    expect(first.order.history.at(-1)).toMatchObject({
      source: "admin",
      status: "failed",
      note: `settled by admin ${ADMIN}: operator confirms no recharge arrived`,
    });
    // The customer has all of it back: Rs 500 available, the hold voided once.
    expect(await available(order.userId)).toBe(50_000);
    expect(first.order.balanceAfterPaisa).toBe(50_000);
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold", "void"]);
    await expectBooksBalanced(ledger);

    // A second tap (or a replay of the conversation) finds it final and moves nothing.
    const again = await settle(order, "failed");
    expect(again).toMatchObject({ ok: false, code: "final" });
    const asSuccess = await settle(order, "success");
    expect(asSuccess).toMatchObject({ ok: false, code: "final" });
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold", "void"]);
    expect(await available(order.userId)).toBe(50_000);

    // The aggregator still holds the Rs 200 it debited: the float check shows it (docs/books.md)
    // until the aggregator fails it and refunds its wallet.
    const before = await books.report();
    expect(before.float.driftPaisa).toBe(-20_000);
    forceAtAggregator(order, "failed");
    expect((await books.report()).float.driftPaisa).toBe(0);
    await expectBooksBalanced(ledger);
  });

  it("with two admins one proposes (nothing moves), the other approves: settled once, everyone told", async () => {
    const order = await stuckOrder("9841330004");
    clock += SETTLE_AFTER;
    const proposed = await settleAs(ADMIN, order, "failed", "no recharge per operator");
    expect(proposed).toMatchObject({ ok: true, done: "proposed" });
    expect(proposed.ok && proposed.order.settleProposal).toMatchObject({
      by: ADMIN,
      outcome: "failed",
      reason: "no recharge per operator",
    });
    expect(OPEN).toContain((await orders.get(order.reference))?.status);
    expect(await available(order.userId)).toBe(30_000);
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold"]);
    // The proposer cannot approve their own; the other admin cannot settle it otherwise.
    expect(await settleAs(ADMIN, order, "failed")).toMatchObject({
      ok: false,
      code: "own_proposal",
    });
    const seen = await proposalOf(order);
    expect(await settleAs(OTHER_ADMIN, order, "success", "x", seen)).toMatchObject({
      ok: false,
      code: "other_proposal",
    });
    // Not approved blindly: a settlement that names no proposal finds another's waiting.
    expect(await settleAs(OTHER_ADMIN, order, "failed")).toMatchObject({
      ok: false,
      code: "other_proposal",
    });
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold"]);

    const approved = await settleAs(
      OTHER_ADMIN,
      order,
      "failed",
      "not taken: the proposal's",
      seen,
    );
    expect(approved).toMatchObject({ ok: true, done: "settled" });
    if (!approved.ok) return;
    expect(approved.order.status).toBe("failed");
    expect(approved.order.settleProposal).toBeUndefined();
    expect(approved.order.settled).toMatchObject({
      by: ADMIN,
      approvedBy: OTHER_ADMIN,
      reason: "no recharge per operator",
    });
    expect(await available(order.userId)).toBe(50_000);
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold", "void"]);
    expect(await settleAs(OTHER_ADMIN, order, "failed")).toMatchObject({
      ok: false,
      code: "final",
    });
    await expectBooksBalanced(ledger);

    const notes = (await outbox()).filter((n) => n.reference === order.reference);
    expect(notes.filter((n) => n.kind === "status" && n.status === "failed")).toEqual([
      expect.objectContaining({ chatId: order.chatId }),
    ]);
    const topic = (t: string) =>
      notes.filter((n) => n.kind === "admin_alert" && n.topic === t).map((n) => n.chatId);
    // The other admin was asked to approve; the proposer is told of the approval.
    expect(topic("settle_proposed")).toEqual([OTHER_ADMIN]);
    expect(topic("order_settled")).toEqual([ADMIN]);
    const told = notes.find((n) => n.kind === "admin_alert" && n.topic === "order_settled");
    expect(told?.kind === "admin_alert" && told.note).toContain(
      `approved by admin ${OTHER_ADMIN}: no recharge per operator`,
    );
    // The aggregator fails and refunds it at last: the float check is back where it was.
    forceAtAggregator(order, "failed");
    expect((await books.report()).float.driftPaisa).toBe(0);
  });

  it("a proposal withdrawn (or declined) leaves the order open and held; a stale approval does nothing", async () => {
    const order = await stuckOrder("9841330010");
    clock += SETTLE_AFTER;
    expect(await settleAs(ADMIN, order, "success")).toMatchObject({ ok: true, done: "proposed" });
    const proposal = (await orders.get(order.reference))?.settleProposal;
    const seen = { by: ADMIN, at: proposal?.at ?? 0 };
    const withdrawn = await orders.withdrawSettle(order.reference, OTHER_ADMIN, seen);
    expect(withdrawn?.settleProposal).toBeUndefined();
    expect(await orders.withdrawSettle(order.reference, OTHER_ADMIN, seen)).toBeNull();
    // Its approval, seen before the withdrawal, finds none.
    expect(await settleAs(OTHER_ADMIN, order, "success", "x", seen)).toMatchObject({
      ok: false,
      code: "no_proposal",
    });
    // An approval of the proposal as it was (read before the withdrawal) finds none: no change.
    const stale = await orders.apply({
      reference: order.reference,
      source: "admin",
      status: "success",
      at: clock,
      settle: {
        by: ADMIN,
        approvedBy: OTHER_ADMIN,
        proposedAt: proposal?.at ?? 0,
        reason: proposal?.reason ?? "",
        aggregator: "status pending",
        admins: ADMINS,
      },
    });
    expect(stale.outcome).toBe("unchanged");
    const after = await orders.get(order.reference);
    expect(OPEN).toContain(after?.status);
    expect(after?.settleProposal).toBeUndefined();
    expect(after?.history.at(-1)?.note).toBe(
      `settlement proposal of admin ${ADMIN} withdrawn by admin ${OTHER_ADMIN}`,
    );
    expect(await available(order.userId)).toBe(30_000);
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold"]);
  });

  it("asks the aggregator first: a final answer is applied the normal way, not overridden", async () => {
    const order = await stuckOrder("9841330005");
    clock += SETTLE_AFTER;
    forceAtAggregator(order, "success");

    const r1 = await settle(order, "failed");
    expect(r1).toMatchObject({ ok: false, code: "aggregator_final" });
    const after = await orders.get(order.reference);
    expect(after?.status).toBe("success");
    expect(after?.settled).toBeUndefined();
    expect(after?.history.at(-1)).toMatchObject({ source: "status", status: "success" });
    // Posted with the aggregator's own figures from its execute answer: the float agrees.
    expect(after?.wallet?.source).toBe("execute");
    expect((await journalOf(order.reference)).map((e) => e.kind).sort()).toEqual(
      ["float_debit", "hold", "post"].sort(),
    );
    expect((await books.report()).float.driftPaisa).toBe(0);
    await expectBooksBalanced(ledger);
  });

  it("a final answer whose write fails settles nothing: the admin tries again and the answer is applied", async () => {
    // Before (s21 settle review, finding 1): the failed write was read as "no answer", and the
    // admin's "failed" voided the hold of a recharge the aggregator had just said it delivered.
    const store = createRedisOrderStore({ redis: r.redis, prefix: r.prefix });
    let failNextWrite = false;
    const flaky = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "prepaid",
      store: {
        ...store,
        update: (...args: Parameters<typeof store.update>) => {
          if (!failNextWrite) return store.update(...args);
          failNextWrite = false;
          return Promise.reject(new Error("Command timed out"));
        },
      },
      provider: client,
      settleAfterMs: SETTLE_AFTER,
      now: () => clock,
    });
    const order = await stuckOrder("9841330008");
    clock += SETTLE_AFTER;
    forceAtAggregator(order, "success");
    failNextWrite = true;
    const settleFailed = () =>
      flaky.settle({
        reference: order.reference,
        outcome: "failed",
        adminId: ADMIN,
        reason: "operator says no recharge",
        admins: [ADMIN],
      });
    // Stopped with its own code (before: the error escaped, and the chat said only "error").
    expect(await settleFailed()).toMatchObject({
      ok: false,
      code: "answer_unwritten",
      said: "status success",
    });
    expect((await orders.get(order.reference))?.status).toMatch(/^(queued|pending)$/);
    expect(await available(order.userId)).toBe(30_000);
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold"]);
    // Tried again: the aggregator's answer is written, and it is final.
    expect(await settleFailed()).toMatchObject({ ok: false, code: "aggregator_final" });
    const after = await orders.get(order.reference);
    expect(after?.status).toBe("success");
    expect(after?.settled).toBeUndefined();
    expect((await journalOf(order.reference)).map((e) => e.kind).sort()).toEqual(
      ["float_debit", "hold", "post"].sort(),
    );
    expect((await books.report()).float.driftPaisa).toBe(0);
    await expectBooksBalanced(ledger);
  });

  it("settles as failed when the status endpoint only errors; the aggregator never had it: float exact", async () => {
    // Every request of the token fails before anything is applied: the execute too.
    sandbox.setFaults(TOKEN, { errorRate5xx: 1 });
    const order = await stuckOrder("9841330006");
    expect(order.status).toBe("unknown");
    clock += SETTLE_AFTER;
    const r1 = await settle(order, "failed", "aggregator support: never received");
    expect(r1.ok).toBe(true);
    expect(r1.ok && r1.aggregator).toMatch(/^no answer/);
    expect(await available(order.userId)).toBe(50_000);
    expect((await journalOf(order.reference)).map((e) => e.kind)).toEqual(["hold", "void"]);
    expect((await books.report()).float.driftPaisa).toBe(0);
    await expectBooksBalanced(ledger);
  });

  it("settles as succeeded a lost answer: posted once, the debit inferred from the order, float exact", async () => {
    sandbox.setFaults(TOKEN, { commitThenDrop: 1 });
    const order = await stuckOrder("9841330007");
    expect(order.status).toBe("unknown");
    // The aggregator committed (and debited) but its status endpoint errors from now on.
    sandbox.setFaults(TOKEN, { commitThenDrop: 0, errorRate5xx: 1 });
    clock += SETTLE_AFTER;
    const r1 = await settle(order, "success", "operator confirms the top-up arrived");
    expect(r1.ok).toBe(true);
    if (!r1.ok) return;
    expect(r1.order.status).toBe("success");
    expect(r1.order.wallet).toMatchObject({ debitAmountPaisa: 20_000, source: "inferred" });
    expect(await available(order.userId)).toBe(30_000);
    const kinds = (await journalOf(order.reference)).map((e) => e.kind).sort();
    expect(kinds).toEqual(["float_debit", "hold", "post"].sort());
    expect((await books.report()).float.driftPaisa).toBe(0);
    await expectBooksBalanced(ledger);
    expect(await settle(order, "success")).toMatchObject({ ok: false, code: "final" });
    expect((await journalOf(order.reference)).length).toBe(3);
  });

  it("a later answer that contradicts a settlement moves no money; the admins are alerted once", async () => {
    const order = await stuckOrder("9841330008");
    clock += SETTLE_AFTER;
    expect((await settle(order, "failed")).ok).toBe(true);
    const journal = await journalOf(order.reference);
    forceAtAggregator(order, "success");

    const claim = {
      reference: order.reference,
      source: "status" as const,
      status: "success" as const,
      at: clock,
    };
    const told = await orders.apply(claim);
    expect(told.outcome).toBe("recorded");
    expect(told.order?.status).toBe("failed");
    expect(told.order?.settled?.contradictedAt).toBe(clock);
    // Every admin of the settlement (one here).
    expect(told.notifications.map((n) => [n.kind, n.chatId])).toEqual([["admin_alert", ADMIN]]);
    expect(told.notifications[0]).toMatchObject({ topic: "settle_contradicted" });
    expect(told.order?.history.at(-1)?.note).toMatch(/says success, but admin 7001 settled/);
    // Once: the same claim again (a webhook's, a status answer's) alerts nobody.
    const again = await orders.apply({ ...claim, source: "webhook", at: clock + 1 });
    expect(again.outcome).toBe("unchanged");
    expect(await journalOf(order.reference)).toEqual(journal);
    expect(await available(order.userId)).toBe(50_000);
    // The aggregator kept the Rs 200 for a recharge the books call failed: the float shows it.
    expect((await books.report()).float.driftPaisa).toBe(-20_000);
    await expectBooksBalanced(ledger);
  });

  it("a webhook's success against a settlement is confirmed first: unconfirmed (the aggregator says pending) nothing is recorded; confirmed, recorded and alerted once; no money moves", async () => {
    const order = await stuckOrder("9841330009");
    clock += SETTLE_AFTER;
    expect((await settle(order, "failed")).ok).toBe(true);
    const journal = await journalOf(order.reference);
    const confirmations = createConfirmations({
      orders,
      provider: client,
      logger: undefined,
      now: () => clock,
    });
    const deps = { orders, confirmFinal: true, confirmations, logger: undefined, now: () => clock };
    const webhook = {
      status: "success",
      reference: order.reference,
      transactionId: undefined,
      amountPaisa: 20_000,
      timestampMs: null,
      connectionNo: undefined,
      operator: undefined,
      packageName: undefined,
    };
    const alerts = async () =>
      (await outbox()).filter(
        (n) =>
          n.reference === order.reference &&
          n.kind === "admin_alert" &&
          n.topic === "settle_contradicted",
      );
    // A webhook is signed by a shared secret only: its claim alone is no word of the aggregator's.
    await applyWebhookEvent(deps, webhook);
    await confirmations.settled();
    const unconfirmed = await orders.get(order.reference);
    expect(unconfirmed?.status).toBe("failed");
    expect(unconfirmed?.settled?.contradictedAt).toBeUndefined();
    expect(unconfirmed?.history.some((h) => h.note?.includes("says success"))).toBe(false);
    expect(await alerts()).toEqual([]);
    // The aggregator does say success now: the claim's confirmation records it, once.
    forceAtAggregator(order, "success");
    // (An unbacked claim is asked about once per cooldown: the next query comes after it.)
    clock += CLAIM_COOLDOWN_MS;
    await applyWebhookEvent(deps, webhook);
    await confirmations.settled();
    await applyWebhookEvent(deps, webhook);
    await confirmations.settled();
    const after = await orders.get(order.reference);
    expect(after?.status).toBe("failed");
    expect(after?.settled?.contradictedAt).toBe(clock);
    const noted = after?.history.filter((h) => h.note?.includes("says success")) ?? [];
    expect(noted.map((h) => h.source)).toEqual(["status"]);
    expect((await alerts()).map((n) => n.chatId)).toEqual([ADMIN]);
    expect(await journalOf(order.reference)).toEqual(journal);
    expect(await available(order.userId)).toBe(50_000);
    await expectBooksBalanced(ledger);
  });
  const kindsOf = async (o: Order) => (await journalOf(o.reference)).map((e) => e.kind).sort();
  /** The float check as it stands (earlier tests leave settled-but-pending orders behind). */
  const drift = async () => (await books.report()).float.driftPaisa;

  it("a final answer the order does not take (another transaction id) stops the settlement: nothing settled, the admin told what it said", async () => {
    const drift0 = await drift();
    const order = await stuckOrder("9841330011");
    clock += SETTLE_AFTER;
    forceAtAggregator(order, "success");
    const realTx = (await orders.get(order.reference))?.transactionId;
    const retx = (tx: string | undefined) =>
      orders.store.update(order.reference, (o) => ({
        order: { ...o, ...(tx === undefined ? {} : { transactionId: tx }) },
        notifications: [],
      }));
    await retx("T-not-the-aggregators");
    for (const outcome of ["failed", "success"] as const) {
      const r1 = await settle(order, outcome);
      expect(r1).toMatchObject({ ok: false, code: "aggregator_disagrees", said: "status success" });
    }
    const after = await orders.get(order.reference);
    expect(OPEN).toContain(after?.status);
    expect(after?.settled).toBeUndefined();
    expect(after?.history.at(-1)?.note).toBe("transaction id mismatch (success)");
    expect(await available(order.userId)).toBe(30_000);
    expect(await kindsOf(order)).toEqual(["hold"]);
    // The aggregator's own transaction again: its answer is applied, the float agrees.
    await retx(realTx);
    expect(await settle(order, "failed")).toMatchObject({ ok: false, code: "aggregator_final" });
    expect(await drift()).toBe(drift0);
  });

  it("a final answer whose write fails stops the settlement ('answer_unwritten', nothing moved); asked again, it is applied", async () => {
    const drift0 = await drift();
    const order = await stuckOrder("9841330012");
    clock += SETTLE_AFTER;
    forceAtAggregator(order, "success");
    const req = {
      reference: order.reference,
      outcome: "failed" as const,
      adminId: ADMIN,
      reason: "operator says no recharge",
      admins: [ADMIN],
    };
    failWrites = 1;
    expect(await grouped.settle(req)).toMatchObject({
      ok: false,
      code: "answer_unwritten",
      said: "status success",
    });
    expect(failWrites).toBe(0);
    const after = await orders.get(order.reference);
    expect(OPEN).toContain(after?.status);
    expect(after?.settled).toBeUndefined();
    expect(await available(order.userId)).toBe(30_000);
    expect(await kindsOf(order)).toEqual(["hold"]);
    const again = await grouped.settle(req);
    expect(again).toMatchObject({ ok: false, code: "aggregator_final" });
    expect(!again.ok && "order" in again && again.order.status).toBe("success");
    expect(await kindsOf(order)).toEqual(["float_debit", "hold", "post"].sort());
    expect(await drift()).toBe(drift0);
  });

  it("one admin on two channels (7001=wa:…) is one person: alone, they settle; they never approve their own proposal", async () => {
    // Listed twice but one person: no proposal, settled alone.
    const alone = await stuckOrder("9841330013");
    clock += SETTLE_AFTER;
    expect(grouped.settleNeedsApproval([ADMIN, ADMIN_WA], ADMIN_WA)).toBe(false);
    const r1 = await grouped.settle({
      reference: alone.reference,
      outcome: "failed",
      adminId: ADMIN,
      reason: "operator says no recharge",
      admins: [ADMIN, ADMIN_WA],
    });
    expect(r1).toMatchObject({ ok: true, done: "settled" });
    // With another person too: proposed on Telegram, the same person's WhatsApp cannot approve.
    const admins = [ADMIN, ADMIN_WA, OTHER_ADMIN];
    const order = await stuckOrder("9841330014");
    clock += SETTLE_AFTER;
    const proposed = await settleAs(ADMIN, order, "failed", "no recharge", undefined, grouped);
    expect(proposed).toMatchObject({ ok: true, done: "proposed" });
    const seen = await proposalOf(order);
    const fromWa = await grouped.settle({
      reference: order.reference,
      outcome: "failed",
      adminId: ADMIN_WA,
      reason: "no recharge",
      admins,
      approves: seen,
    });
    expect(fromWa).toMatchObject({ ok: false, code: "own_proposal" });
    expect(grouped.sameAdmin(ADMIN, ADMIN_WA)).toBe(true);
    expect(grouped.sameAdmin(ADMIN, OTHER_ADMIN)).toBe(false);
    expect(await kindsOf(order)).toEqual(["hold"]);
    const byOther = await grouped.settle({
      reference: order.reference,
      outcome: "failed",
      adminId: OTHER_ADMIN,
      reason: "no recharge",
      admins,
      approves: seen,
    });
    expect(byOther).toMatchObject({ ok: true, done: "settled" });
    expect(byOther.ok && byOther.order.settled).toMatchObject({
      by: ADMIN,
      approvedBy: OTHER_ADMIN,
    });
    expect(await kindsOf(order)).toEqual(["hold", "void"]);
  });

  it("an approval shown an old proposal settles no newer one (A proposes, B declines, A proposes anew, C approves the old)", async () => {
    const admins = [ADMIN, OTHER_ADMIN, THIRD_ADMIN];
    const order = await stuckOrder("9841330015");
    clock += SETTLE_AFTER;
    const propose = (reason: string) =>
      orders.settle({
        reference: order.reference,
        outcome: "failed",
        adminId: ADMIN,
        reason,
        admins,
      });
    expect(await propose("operator says NOT delivered (r1)")).toMatchObject({ done: "proposed" });
    const shownToC = await proposalOf(order);
    expect(await orders.withdrawSettle(order.reference, OTHER_ADMIN, shownToC)).not.toBeNull();
    // The proposer is told their proposal was declined (else they would wait on it for good).
    const declined = (await outbox()).filter(
      (n) => n.reference === order.reference && n.chatId === ADMIN && n.kind === "admin_alert",
    );
    expect(declined.map((n) => n.kind === "admin_alert" && n.note)).toEqual([
      expect.stringContaining(`admin ${OTHER_ADMIN} declined your proposal`),
    ]);
    clock += 1;
    expect(await propose("r2: no ticket, just in case")).toMatchObject({ done: "proposed" });
    const approve = (seen: { by: number; at: number }) =>
      orders.settle({
        reference: order.reference,
        outcome: "failed",
        adminId: THIRD_ADMIN,
        reason: "operator says NOT delivered (r1)",
        admins,
        approves: seen,
      });
    expect(await approve(shownToC)).toMatchObject({ ok: false, code: "other_proposal" });
    // Even written straight to the order's atomic step, the old proposal's approval does nothing.
    const stale = await orders.apply({
      reference: order.reference,
      source: "admin",
      status: "failed",
      at: clock,
      settle: {
        by: ADMIN,
        approvedBy: THIRD_ADMIN,
        proposedAt: shownToC.at,
        reason: "r2: no ticket, just in case",
        aggregator: "status pending",
        admins,
      },
    });
    expect(stale.outcome).toBe("unchanged");
    expect(OPEN).toContain((await orders.get(order.reference))?.status);
    expect(await kindsOf(order)).toEqual(["hold"]);
    // The new proposal, once seen, is approved.
    const settled = await approve(await proposalOf(order));
    expect(settled).toMatchObject({ ok: true, done: "settled" });
    expect(settled.ok && settled.order.settled?.reason).toBe("r2: no ticket, just in case");
  });

  it("a decline or withdrawal names its proposal: shown an old one (withdrawn and proposed anew meanwhile), it leaves the new one waiting", async () => {
    const order = await stuckOrder("9841330019");
    clock += SETTLE_AFTER;
    const propose = (reason: string) => settleAs(ADMIN, order, "failed", reason);
    expect(await propose("r1: operator says no recharge")).toMatchObject({ done: "proposed" });
    // OTHER_ADMIN is shown r1 (to approve or decline); meanwhile its admin withdraws it and
    // proposes anew.
    const shownToOther = await proposalOf(order);
    expect(await orders.withdrawSettle(order.reference, ADMIN, shownToOther)).not.toBeNull();
    clock += 1;
    expect(await propose("r2: operator's second answer")).toMatchObject({ done: "proposed" });
    const r2 = await proposalOf(order);
    // The decline of r1 finds r1 gone: r2 stays, its admin is told nothing.
    expect(await orders.withdrawSettle(order.reference, OTHER_ADMIN, shownToOther)).toBeNull();
    // The withdrawal by its own admin, shown r1 in another chat, leaves r2 too.
    expect(await grouped.withdrawSettle(order.reference, ADMIN_WA, shownToOther)).toBeNull();
    const after = await orders.get(order.reference);
    expect(after?.settleProposal).toMatchObject({ ...r2, reason: "r2: operator's second answer" });
    const declined = (await outbox()).filter(
      (n) =>
        n.reference === order.reference &&
        n.kind === "admin_alert" &&
        n.note?.includes("declined your proposal"),
    );
    expect(declined).toEqual([]);
    // Shown r2, the decline acts on it; its admin is told.
    expect(await orders.withdrawSettle(order.reference, OTHER_ADMIN, r2)).not.toBeNull();
    expect((await orders.get(order.reference))?.settleProposal).toBeUndefined();
    const told = (await outbox()).filter(
      (n) =>
        n.reference === order.reference &&
        n.kind === "admin_alert" &&
        n.note?.includes("declined your proposal"),
    );
    expect(told.map((n) => n.chatId)).toEqual([ADMIN]);
    expect(await kindsOf(order)).toEqual(["hold"]);
  });

  it("not found at the aggregator refuses a settlement as succeeded (the recharge may never have happened); as failed it goes through", async () => {
    // The execute never reached the aggregator: its status endpoint says not found.
    const drift0 = await drift();
    sandbox.setFaults(TOKEN, { errorRate5xx: 1 });
    const order = await stuckOrder("9841330016");
    sandbox.clearFaults(TOKEN);
    expect(order.status).toBe("unknown");
    clock += SETTLE_AFTER;
    const r1 = await settle(order, "success", "operator confirms the top-up arrived");
    expect(r1).toMatchObject({ ok: false, code: "aggregator_unsure", said: "not found" });
    expect(await kindsOf(order)).toEqual(["hold"]);
    expect(await available(order.userId)).toBe(30_000);
    const r2 = await settle(order, "failed", "aggregator never had it");
    expect(r2).toMatchObject({ ok: true, done: "settled", aggregator: "not found" });
    expect(await kindsOf(order)).toEqual(["hold", "void"]);
    expect(await drift()).toBe(drift0);
  });

  it("a word nobody understood ('refunded') refuses a settlement as succeeded, and is shown; as failed it goes through", async () => {
    const drift0 = await drift();
    const order = await stuckOrder("9841330017");
    clock += SETTLE_AFTER;
    statusWord = "refunded";
    const r1 = await settle(order, "success", "operator confirms the top-up arrived");
    expect(r1).toMatchObject({ ok: false, code: "aggregator_unsure", said: "status refunded" });
    expect(await kindsOf(order)).toEqual(["hold"]);
    expect(await available(order.userId)).toBe(30_000);
    const r2 = await settle(order, "failed", "aggregator says refunded");
    expect(r2).toMatchObject({ ok: true, done: "settled", aggregator: "status refunded" });
    expect(await kindsOf(order)).toEqual(["hold", "void"]);
    // The sandbox still holds it as pending: it fails and refunds it, the float check is back.
    statusWord = undefined;
    forceAtAggregator(order, "failed");
    expect(await drift()).toBe(drift0);
  });

  it("an answer about another order refuses a settlement as succeeded, and is shown; as failed it goes through", async () => {
    const drift0 = await drift();
    const order = await stuckOrder("9841330018");
    clock += SETTLE_AFTER;
    statusRef = "777000111";
    const r1 = await settle(order, "success", "operator confirms the top-up arrived");
    expect(r1).toMatchObject({ ok: false, code: "aggregator_unsure" });
    expect(JSON.stringify(r1)).toContain("another order (777000111)");
    expect(await kindsOf(order)).toEqual(["hold"]);
    expect(await available(order.userId)).toBe(30_000);
    const r2 = await settle(order, "failed", "aggregator confused about this order");
    expect(r2).toMatchObject({ ok: true, done: "settled" });
    expect(await kindsOf(order)).toEqual(["hold", "void"]);
    statusRef = undefined;
    forceAtAggregator(order, "failed");
    expect(await drift()).toBe(drift0);
  });

  it("a refused status query (a 200 error envelope saying not found, a 400) refuses a settlement as succeeded: it may hide a not found; as failed it goes through", async () => {
    const drift0 = await drift();
    const order = await stuckOrder("9841330019");
    clock += SETTLE_AFTER;
    try {
      for (const refusal of [
        { status: 200, message: "Transaction not found" },
        { status: 400, message: "Query refused for this merchant" },
      ]) {
        refuseStatus = refusal;
        const r1 = await settle(order, "success", "operator confirms the top-up arrived");
        expect(r1).toMatchObject({ ok: false, code: "aggregator_unsure" });
        expect(JSON.stringify(r1)).toContain(refusal.message);
        expect(await kindsOf(order)).toEqual(["hold"]);
        expect(await available(order.userId)).toBe(30_000);
      }
      const r2 = await settle(order, "failed", "aggregator refuses to say");
      expect(r2).toMatchObject({ ok: true, done: "settled" });
      expect(await kindsOf(order)).toEqual(["hold", "void"]);
    } finally {
      refuseStatus = undefined;
    }
    forceAtAggregator(order, "failed");
    expect(await drift()).toBe(drift0);
  });

  it("the reconciler asks again about settled orders, a few a tick, less and less often, until a final answer is recorded (opposite: alerted once; same: recorded) or 7 days", async () => {
    const watchKey = keyspace(r.prefix).settledWatch;
    const reconciler = reconcilerOnRedis(r, {
      orders,
      provider: client,
      maxAgeMs: 1_000 * HOUR,
      adminChatIds: [ADMIN],
      leaseName: "settle-watch",
      settledPerTick: 2,
      now: () => clock,
    });
    // Earlier tests' settlements are watched too: past the 7 days, each is dropped unasked.
    clock += 8 * 24 * HOUR;
    while ((await r.redis.zcard(watchKey)) > 0) {
      expect((await reconciler.runOnce()).settledAsked).toBe(0);
    }
    const drift0 = await drift();
    const contradicted = await stuckOrder("9841330021");
    const agreed = await stuckOrder("9841330022");
    const silent = await stuckOrder("9841330023");
    clock += SETTLE_AFTER;
    for (const o of [contradicted, agreed, silent])
      expect((await settle(o, "failed")).ok).toBe(true);
    const settledAt = clock;
    expect(await r.redis.zcard(watchKey)).toBe(3);
    // Not asked at once: the first question comes a quarter of an hour after the settlement.
    expect((await reconciler.runOnce()).settledAsked).toBe(0);
    clock += 20 * 60_000;
    // A few a tick: two, then the third; the aggregator still says pending, nothing recorded.
    const first = await reconciler.runOnce();
    const second = await reconciler.runOnce();
    expect([first.settledAsked, second.settledAsked]).toEqual([2, 1]);
    expect((await reconciler.runOnce()).settledAsked).toBe(0); // backing off
    for (const o of [contradicted, agreed, silent]) {
      const s = (await orders.get(o.reference))?.settled;
      expect([s?.contradictedAt, s?.confirmedAt]).toEqual([undefined, undefined]);
    }
    forceAtAggregator(contradicted, "success");
    forceAtAggregator(agreed, "failed");
    clock += HOUR;
    const third = await reconciler.runOnce();
    const fourth = await reconciler.runOnce();
    expect(third.settledAsked + fourth.settledAsked).toBe(3);
    expect(third.settledAnswered + fourth.settledAnswered).toBe(2);
    const c = await orders.get(contradicted.reference);
    expect(c?.status).toBe("failed");
    expect(c?.settled?.contradictedAt).toBeDefined();
    expect(c?.history.filter((h) => h.note?.includes("says success")).map((h) => h.source)).toEqual(
      ["reconciler"],
    );
    const a = await orders.get(agreed.reference);
    expect(a?.settled?.confirmedAt).toBeDefined();
    expect(a?.settled?.contradictedAt).toBeUndefined();
    expect(a?.history.at(-1)?.note).toBe(
      `the aggregator agrees: failed, as admin ${ADMIN} settled it`,
    );
    // Answered: asked no more; the silent one is asked until 7 days after its settlement.
    expect(await r.redis.zscore(watchKey, contradicted.reference)).toBeNull();
    expect(await r.redis.zscore(watchKey, agreed.reference)).toBeNull();
    let asked = 0;
    while (clock - settledAt <= 7 * 24 * HOUR + 6 * HOUR) {
      clock += 6 * HOUR;
      asked += (await reconciler.runOnce()).settledAsked;
    }
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThanOrEqual(7 * 4);
    expect(await r.redis.zscore(watchKey, silent.reference)).toBeNull();
    clock += 24 * HOUR;
    expect((await reconciler.runOnce()).settledAsked).toBe(0);
    // Alerted once, only for the contradiction; no money moved by any answer.
    const alerts = (await outbox()).filter(
      (n) => n.kind === "admin_alert" && n.topic === "settle_contradicted",
    );
    expect(
      alerts.filter((n) => n.reference === contradicted.reference).map((n) => n.chatId),
    ).toEqual([ADMIN]);
    expect(alerts.some((n) => n.reference === agreed.reference)).toBe(false);
    for (const o of [contradicted, agreed, silent]) {
      expect(await kindsOf(o)).toEqual(["hold", "void"]);
      expect(await available(o.userId)).toBe(50_000);
    }
    // The aggregator kept Rs 200 for one the books call failed; the silent one it still holds.
    forceAtAggregator(silent, "failed");
    expect(drift0).not.toBeNull();
    expect(await drift()).toBe((drift0 ?? 0) - 20_000);
    await expectBooksBalanced(ledger);
  });

  it("with SETTLE_ENABLED off nothing is settled or proposed (older versions cannot read either)", async () => {
    const off = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "prepaid",
      store: createRedisOrderStore({ redis: r.redis, prefix: r.prefix }),
      provider: client,
      settleAfterMs: SETTLE_AFTER,
      settleEnabled: false,
      now: () => clock,
    });
    const order = await stuckOrder("9841330018");
    clock += SETTLE_AFTER;
    expect(off.settleable(order)).toEqual({ ok: false, code: "disabled" });
    for (const admins of [[ADMIN], ADMINS]) {
      const r1 = await off.settle({
        reference: order.reference,
        outcome: "failed",
        adminId: ADMIN,
        reason: "operator says no recharge",
        admins,
      });
      expect(r1).toMatchObject({ ok: false, code: "disabled" });
    }
    const after = await orders.get(order.reference);
    expect(after?.settleProposal).toBeUndefined();
    expect(after?.history.some((h) => h.source === "admin")).toBe(false);
    expect(await kindsOf(order)).toEqual(["hold"]);
  });
});
