import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { orderStatusText } from "../../conversations/status/status-text.ts";
import type { Sandbox } from "../../dev/sandbox/index.ts";
import { translator } from "../../src/bot/i18n.ts";
import { notificationRender } from "../../src/bot/notification-render.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import type { Notification, Order } from "../../src/orders/model.ts";
import { answerAbout, eventFromStatus, type Orders } from "../../src/orders/service.ts";
import type { ProviderClient } from "../../src/provider/index.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { CLAIM_COOLDOWN_MS } from "../../src/webhook/apply.ts";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";
import { createWebhookRoutes, type WebhookRoutes } from "../../src/webhook/routes.ts";
import { loggedLines } from "../support/log-lines.ts";
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
import { mobileInput, testRedis } from "../support/orders.ts";

/**
 * The aggregator's final word against an order that is already final and that no admin settled
 * (review s22, findings 2 and 3), on real Redis (orders, ledger and outbox in one step) and the
 * sandbox aggregator over HTTP, its webhooks signed and delivered to the real webhook route. A
 * webhook is signed by a shared secret only, so its claim is confirmed by a status query; the
 * answer, when it contradicts, is recorded in the order's history and alerted to the admins once
 * per order, and no money moves. A reversal word ("reversed", "refunded") in the aggregator's own
 * answer on a success is its "failed" (review s31-orders, 4); any other word nobody understood is
 * recorded and logged, not alerted.
 */

const TOKEN = "contradict-token";
const SECRET = "whsec-contradict-0123456789";
const HOUR = 3_600_000;
const ADMINS = [7101, 7102];
const OPENING = 5_000_000;

describe("the aggregator contradicts a final order no admin settled", () => {
  const r = testRedis("contradict");
  let aggregator: SandboxAggregator;
  let sandbox: Sandbox;
  let client: ProviderClient;
  let ledger: LedgerStore;
  let orders: Orders;
  let routes: WebhookRoutes;
  /** A second process: its own Redis connection, order service and webhook route. */
  let routes2: WebhookRoutes;
  /** References the aggregator's status endpoint does not know yet (it records them late). */
  const hidden = new Set<string>();
  /** When set for a reference, the status endpoint answers this word for it ("reversed"). */
  const statusWord = new Map<string, string>();
  /** Status queries by reference, as the aggregator received them. */
  const queries = new Map<string, number>();
  const { logger, lines } = loggedLines({ level: "info" });
  let clock = Date.now() - 500 * HOUR;
  let userSeq = 9100;

  beforeAll(async () => {
    aggregator = await startSandboxAggregator({
      token: TOKEN,
      balancePaisa: OPENING,
      delays: KEPT_PENDING,
      maxRetries: 0,
      front: async (req, env, sandbox) => {
        if (!new URL(req.url).pathname.endsWith("/order/status"))
          return sandbox.app.fetch(req, env);
        const body = (await req.json()) as { order_id?: string };
        const ref = String(body.order_id);
        queries.set(ref, (queries.get(ref) ?? 0) + 1);
        // Not recorded yet: asked about an order it has never had, it answers its own 404.
        if (hidden.has(ref)) body.order_id = "999999999999";
        const headers = new Headers(req.headers);
        headers.delete("content-length");
        const asked = new Request(req.url, { method: "POST", headers, body: JSON.stringify(body) });
        const res = await sandbox.app.fetch(asked, env);
        const word = statusWord.get(ref);
        if (word === undefined) return res;
        const answer = (await res.json()) as { data?: { status?: string } };
        if (answer.data) answer.data.status = word;
        return Response.json(answer, { status: res.status });
      },
    });
    ({ sandbox, client } = aggregator);
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
    orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: client,
      adminChatIds: ADMINS,
      logger,
      now: () => clock,
    });
    routes = createWebhookRoutes({
      secret: SECRET,
      orders,
      provider: client,
      logger,
      now: () => clock,
    });
    routes2 = createWebhookRoutes({
      secret: SECRET,
      orders: ordersOnRedis(
        { redis: r.connect(), prefix: r.prefix },
        { accessMode: "prepaid", provider: client, adminChatIds: ADMINS, logger, now: () => clock },
      ),
      provider: client,
      logger,
      now: () => clock,
    });
  });

  afterEach(() => {
    sandbox.clearFaults(TOKEN);
    hidden.clear();
    statusWord.clear();
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  // Each reconciler its own lease: a lease another one took within the last second (real time)
  // would skip the pass (nothing examined) when the tests run fast.
  let leases = 0;
  const reconciler = () =>
    reconcilerOnRedis(r, {
      orders,
      provider: client,
      maxAgeMs: 1_000 * HOUR,
      notFoundAnswers: 1,
      notFoundWindowMs: 60_000,
      adminChatIds: ADMINS,
      leaseName: `contradict-${++leases}`,
      now: () => clock,
    });

  /** A prepaid customer with Rs 500 and their Rs 200 order, sent to the aggregator. */
  async function sentOrder(connectionNo: string, hide = false): Promise<Order> {
    const userId = ++userSeq;
    await creditCustomer(ledger, userId, 50_000);
    const placed = await orders.place(
      mobileInput({ userId, chatId: userId, connectionNo, amountPaisa: 20_000 }),
    );
    if (hide) hidden.add(placed.reference);
    return orders.submit(placed.reference, { known: placed });
  }

  const transactionOf = (order: Order) =>
    sandbox.transactions(TOKEN).find((t) => t.referenceNo === order.reference);

  /** The aggregator ends the order (its admin's force; a failure re-credits its wallet). */
  function forceAtAggregator(order: Order, status: "success" | "failed"): void {
    expect(sandbox.forceStatus(TOKEN, transactionOf(order)?.transactionId ?? "", status).ok).toBe(
      true,
    );
  }

  /** The aggregator's signed webhook about the order, to the real route; its confirmation awaited. */
  async function webhook(order: Order, status: string, to = routes): Promise<void> {
    const data = encryptPayload(SECRET, {
      status,
      transaction_id: Number(transactionOf(order)?.transactionId ?? 1),
      order_id: Number(order.reference),
      amount: "200.00",
      timestamp: "2024-12-21T15:18:00Z",
      details: {},
      package_name: null,
    });
    const res = await to.request("/", {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": signature(SECRET) },
      body: JSON.stringify({ data }),
    });
    expect(res.status).toBe(200);
    await to.settled();
  }

  const alertsOf = (order: Order): Promise<Notification[]> => adminAlertsOf(r, order.reference);

  const journalOf = (reference: string) => orderJournal(ledger, reference);
  const available = (userId: number) => availableOf(ledger, userId);

  const saying = (o: Order | null, what: string) =>
    o?.history.filter((h) => h.note?.includes(`the aggregator says ${what}`)) ?? [];

  const render = notificationRender(createChatI18n(CATEGORY_MODULES));

  it("a confirmed success for an order the reconciler failed as not found: recorded and alerted once, however often redelivered; no money moves", async () => {
    sandbox.setFaults(TOKEN, { commitThen5xx: 1 });
    const order = await sentOrder("9841440001", true);
    expect(order.status).toBe("unknown");
    sandbox.clearFaults(TOKEN);
    // The aggregator has not recorded it (yet): the reconciler fails it as never executed.
    clock += 2 * 60_000;
    await reconciler().runOnce();
    const failed = await orders.get(order.reference);
    expect(failed?.status).toBe("failed");
    expect(await available(order.userId)).toBe(50_000);
    const journal = await journalOf(order.reference);

    // A signed success while the aggregator still says it has no such order: unconfirmed,
    // nothing is recorded and nobody alerted.
    await webhook(order, "success");
    const unconfirmed = await orders.get(order.reference);
    expect(saying(unconfirmed, "success")).toEqual([]);
    expect(unconfirmed?.contradicted).toBeUndefined();
    expect(await alertsOf(order)).toEqual([]);

    // It records and executes the order late: its status endpoint now says success. The claim
    // the aggregator did not back asked once; it is asked again once the cooldown is over.
    hidden.delete(order.reference);
    forceAtAggregator(order, "success");
    clock += CLAIM_COOLDOWN_MS;
    const asked = queries.get(order.reference) ?? 0;
    for (let i = 0; i < 3; i++) await webhook(order, "success");
    // One status query confirmed it; the redeliveries after the record cost none.
    expect(queries.get(order.reference)).toBe(asked + 1);

    const after = await orders.get(order.reference);
    expect(after?.status).toBe("failed");
    expect(after?.contradicted).toEqual({ at: clock, said: "success", source: "status" });
    expect(saying(after, "success").map((h) => h.source)).toEqual(["status"]);
    const alerts = await alertsOf(order);
    expect(alerts.map((n) => n.chatId).sort()).toEqual(ADMINS);
    expect(alerts.every((n) => n.kind === "admin_alert" && n.contradicted === "success")).toBe(
      true,
    );
    const text = render(
      alerts[0] as Exclude<Notification, { kind: "complaint" }>,
      after as Order,
    ).text;
    expect(text).toContain(order.reference);
    expect(text).toContain("debited without a charge");
    expect(text).toContain("a correction needs an admin");
    // No money moved: the hold stays voided, the customer keeps the Rs 500.
    expect(await journalOf(order.reference)).toEqual(journal);
    expect(await available(order.userId)).toBe(50_000);
    expect(
      lines.some(
        (l) =>
          l.reference === order.reference &&
          String(l.msg).startsWith("the aggregator's answer contradicts a final order"),
      ),
    ).toBe(true);
  });

  it("a confirmed failed after success: the customer may be owed a refund; recorded and alerted once, no money moves", async () => {
    const order = await sentOrder("9841440002");
    forceAtAggregator(order, "success");
    await webhook(order, "success");
    const succeeded = await orders.get(order.reference);
    expect(succeeded?.status).toBe("success");
    expect(await available(order.userId)).toBe(30_000);
    const journal = await journalOf(order.reference);

    // The aggregator reverses it (its wallet re-credited) and says so, twice.
    forceAtAggregator(order, "failed");
    clock += 1;
    await webhook(order, "failed");
    await webhook(order, "failed");

    const after = await orders.get(order.reference);
    expect(after?.status).toBe("success");
    expect(after?.contradicted).toMatchObject({ said: "failed", source: "status" });
    expect(saying(after, "failed")).toHaveLength(1);
    const alerts = await alertsOf(order);
    expect(alerts.map((n) => n.chatId).sort()).toEqual(ADMINS);
    const text = render(
      alerts[0] as Exclude<Notification, { kind: "complaint" }>,
      after as Order,
    ).text;
    expect(text).toContain("may be owed a refund");
    expect(text).toContain("a correction needs an admin");
    // Still charged: any refund is an admin's decision.
    expect(await journalOf(order.reference)).toEqual(journal);
    expect(await available(order.userId)).toBe(30_000);
  });

  it("a word nobody understood on a final order, and a reversal word the status answer does not back, are recorded in its history and logged, not alerted", async () => {
    const order = await sentOrder("9841440003");
    forceAtAggregator(order, "success");
    await webhook(order, "success");
    expect((await orders.get(order.reference))?.status).toBe("success");
    const before = (await orders.get(order.reference))?.history.length ?? 0;
    const asked = queries.get(order.reference) ?? 0;
    lines.length = 0;

    // A word that says nothing of money ("on-hold") costs no status query. A webhook's
    // "refunded" (twice) claims what "failed" does, so it is asked once; the aggregator answers
    // success, which backs nothing.
    clock += 1;
    await webhook(order, "on-hold");
    expect(queries.get(order.reference) ?? 0).toBe(asked);
    clock += 1;
    await webhook(order, "refunded");
    clock += 1;
    await webhook(order, "refunded");
    expect(queries.get(order.reference)).toBe(asked + 1);

    const after = await orders.get(order.reference);
    expect(after?.status).toBe("success");
    const added = after?.history.slice(before) ?? [];
    expect(added.map((h) => [h.source, h.status])).toEqual([
      ["webhook", null],
      ["webhook", null],
    ]);
    expect(added[0]?.note).toContain('"on-hold"');
    expect(added[1]?.note).toContain('"refunded"');
    expect(after?.contradicted).toBeUndefined();
    expect(await alertsOf(order)).toEqual([]);
    const logged = lines.filter(
      (l) =>
        l.reference === order.reference &&
        l.msg === "a word nobody understood on a final order: recorded in its history",
    );
    expect(logged.map((l) => l.word)).toEqual(["on-hold", "refunded", "refunded"]);
    expect(await available(order.userId)).toBe(30_000);
  });

  it("the aggregator's own reversal word on a success: recorded once as contradicted, every admin alerted once that the customer may be owed a refund; no money moves", async () => {
    const order = await sentOrder("9841440006");
    forceAtAggregator(order, "success");
    await webhook(order, "success");
    expect((await orders.get(order.reference))?.status).toBe("success");
    const journal = await journalOf(order.reference);
    lines.length = 0;

    // The aggregator reverses it; its status endpoint now says "reversed". A signed "refunded"
    // is confirmed by that answer.
    forceAtAggregator(order, "failed");
    statusWord.set(order.reference, "reversed");
    clock += 1;
    await webhook(order, "refunded");
    const at = clock;
    const after = (await orders.get(order.reference)) as Order;
    expect(after.status).toBe("success");
    expect(after.contradicted).toEqual({ at, said: "failed", source: "status", word: "reversed" });
    // Staff's /status names the aggregator's word too, in every language.
    const i18n = createChatI18n(CATEGORY_MODULES);
    for (const locale of ["en", "ne", "hi"]) {
      const agent = orderStatusText(translator(i18n, locale), after, "agent");
      const line = agent.split("\n").find((l) => l.startsWith("⚠️")) ?? "";
      expect(line).toContain('"reversed"');
      expect(line).not.toMatch(/❌/);
    }
    const entries = saying(after, "failed");
    expect(entries.map((h) => h.source)).toEqual(["status"]);
    expect(entries[0]?.note).toContain('read from "reversed"');
    const alerts = await alertsOf(order);
    expect(alerts.map((n) => n.chatId).sort()).toEqual(ADMINS);
    expect(alerts.every((n) => n.kind === "admin_alert" && n.contradicted === "failed")).toBe(true);
    // What the aggregator answered, not the "failed" it is read as (admin alerts are in
    // English, the admins' working language).
    expect(alerts.every((n) => n.kind === "admin_alert" && n.word === "reversed")).toBe(true);
    const text = render(alerts[0] as Exclude<Notification, { kind: "complaint" }>, after).text;
    expect(text).toContain('answers "reversed"');
    expect(text).not.toContain("says it failed");
    expect(text).toContain(order.reference);
    expect(text).toContain("may be owed a refund");
    expect(text).toContain("a correction needs an admin");
    expect(
      lines.some(
        (l) =>
          l.reference === order.reference &&
          l.said === "reversed" &&
          String(l.msg).startsWith("the aggregator's answer contradicts a final order"),
      ),
    ).toBe(true);

    // Repeats, in any word and past the claims' cooldown: nothing more recorded, nobody alerted
    // again, no more status queries.
    const asked = queries.get(order.reference);
    for (const word of ["refunded", "reversed", "Rolled_Back", "failed", "chargeback"]) {
      clock += CLAIM_COOLDOWN_MS;
      await webhook(order, word, word === "failed" ? routes2 : routes);
    }
    expect(queries.get(order.reference)).toBe(asked);
    const later = (await orders.get(order.reference)) as Order;
    expect(later.contradicted).toEqual(after.contradicted);
    expect(saying(later, "failed")).toHaveLength(1);
    expect(await alertsOf(order)).toHaveLength(ADMINS.length);
    // Still charged: any refund is an admin's decision.
    expect(await journalOf(order.reference)).toEqual(journal);
    expect(await available(order.userId)).toBe(30_000);
  });

  it("a status answer's reversal word read by the reconciler, or confirming a webhook's failed claim, is the same contradiction", async () => {
    // The reconciler's answer (as it reads a status answer): "Rolled back", any case or spacing.
    const first = await sentOrder("9841440007");
    forceAtAggregator(first, "success");
    await webhook(first, "success");
    statusWord.set(first.reference, "Rolled back");
    clock += 1;
    const answer = answerAbout(
      await client.statusByReference(first.region, first.reference),
      first.reference,
    );
    await orders.apply({
      reference: first.reference,
      ...eventFromStatus(first, answer, "reconciler", clock),
    });
    const one = await orders.get(first.reference);
    expect(one?.contradicted).toEqual({
      at: clock,
      said: "failed",
      source: "reconciler",
      word: "rolled back",
    });
    expect(await alertsOf(first)).toHaveLength(ADMINS.length);

    // A webhook's "failed" whose status answer says "chargeback".
    const second = await sentOrder("9841440008");
    forceAtAggregator(second, "success");
    await webhook(second, "success");
    statusWord.set(second.reference, "chargeback");
    clock += 1;
    await webhook(second, "failed");
    const two = await orders.get(second.reference);
    expect(two?.contradicted).toEqual({
      at: clock,
      said: "failed",
      source: "status",
      word: "chargeback",
    });
    expect(await alertsOf(second)).toHaveLength(ADMINS.length);
    expect(
      lines.some(
        (l) =>
          l.reference === second.reference &&
          String(l.msg).startsWith("webhook claim against a final order not confirmed"),
      ),
    ).toBe(false);
  });

  it("a reversal word on an open order, or on a failed one, keeps its present handling: recorded, the order unchanged, nobody alerted", async () => {
    // Open: the aggregator keeps it pending. A webhook's "reversed", then the reconciler's.
    const open = await sentOrder("9841440009");
    expect(["queued", "pending"]).toContain(open.status);
    const asked = queries.get(open.reference) ?? 0;
    clock += 1;
    await webhook(open, "reversed");
    expect(queries.get(open.reference) ?? 0).toBe(asked);
    statusWord.set(open.reference, "refunded");
    clock += 60_000;
    await reconciler().runOnce();
    expect(queries.get(open.reference)).toBe(asked + 1);
    const still = (await orders.get(open.reference)) as Order;
    expect(still.status).toBe(open.status);
    expect(still.unrecognised?.map((u) => [u.source, u.word])).toEqual([
      ["webhook", "reversed"],
      ["reconciler", "refunded"],
    ]);
    expect(still.contradicted).toBeUndefined();
    expect(await alertsOf(open)).toEqual([]);
    // The hold stays: Rs 200 of the Rs 500 held, until the aggregator or an admin ends it.
    expect(await available(open.userId)).toBe(30_000);

    // Failed: the aggregator's "refunded" agrees with it; nothing asked, nobody alerted.
    const failed = await sentOrder("9841440010");
    forceAtAggregator(failed, "failed");
    await webhook(failed, "failed");
    expect((await orders.get(failed.reference))?.status).toBe("failed");
    const askedFailed = queries.get(failed.reference) ?? 0;
    statusWord.set(failed.reference, "refunded");
    clock += 1;
    await webhook(failed, "refunded");
    expect(queries.get(failed.reference) ?? 0).toBe(askedFailed);
    expect((await orders.get(failed.reference))?.contradicted).toBeUndefined();
    expect(await alertsOf(failed)).toEqual([]);
    expect(await available(failed.userId)).toBe(50_000);
  });

  it("a claim the aggregator does not back costs one status query per order per cooldown, across processes; then one more", async () => {
    const order = await sentOrder("9841440004");
    forceAtAggregator(order, "success");
    await webhook(order, "success");
    expect((await orders.get(order.reference))?.status).toBe("success");
    const asked = queries.get(order.reference) ?? 0;

    // A signed "failed" while the aggregator says success, redelivered to two processes.
    clock += 1;
    for (let i = 0; i < 6; i++) {
      await webhook(order, "failed", i % 2 === 0 ? routes : routes2);
      clock += 60_000;
    }
    expect(queries.get(order.reference)).toBe(asked + 1);

    // The cooldown is over (counted from the first query): one more query, then none again.
    clock += CLAIM_COOLDOWN_MS - 6 * 60_000;
    await webhook(order, "failed", routes2);
    await webhook(order, "failed", routes);
    expect(queries.get(order.reference)).toBe(asked + 2);

    // Nothing recorded, nobody alerted, no money moved.
    const after = await orders.get(order.reference);
    expect(after?.status).toBe("success");
    expect(after?.contradicted).toBeUndefined();
    expect(saying(after, "failed")).toEqual([]);
    expect(await alertsOf(order)).toEqual([]);
    expect(await available(order.userId)).toBe(30_000);
  });

  it("a contradiction on an order whose history is full is still recorded, and /status shows staff what the aggregator said, when, and that no money moved", async () => {
    const order = await sentOrder("9841440005");
    forceAtAggregator(order, "success");
    await webhook(order, "success");
    // A long-lived order: its history full, past the room for counted "not found" answers too.
    const filler = (i: number) => ({
      source: "webhook" as const,
      status: null,
      at: clock,
      note: `claimed pending ${i}`,
    });
    await orders.store.update(order.reference, (o) => ({
      order: {
        ...o,
        history: [
          ...o.history,
          ...Array.from({ length: 120 - o.history.length }, (_, i) => filler(i)),
        ],
      },
      notifications: [],
    }));
    expect((await orders.get(order.reference))?.history).toHaveLength(120);

    forceAtAggregator(order, "failed");
    clock += 1;
    await webhook(order, "failed");
    const after = (await orders.get(order.reference)) as Order;
    expect(after.status).toBe("success");
    expect(after.contradicted).toEqual({ at: clock, said: "failed", source: "status" });
    expect(saying(after, "failed")).toHaveLength(1);
    expect(after.history.at(-1)?.note).toContain("no money moved");
    expect(await alertsOf(order)).toHaveLength(ADMINS.length);

    const i18n = createChatI18n(CATEGORY_MODULES);
    const words = {
      en: ["the aggregator said ❌ failed", "stays ✅ successful", "No money moved"],
      ne: ["एग्रिगेटरले ❌ असफल भन्यो", "✅ सफल नै रहन्छ", "कुनै पैसा सरेन"],
      hi: ["एग्रीगेटर ने ❌ असफल कहा", "✅ सफल ही रहता है", "कोई पैसा नहीं हिला"],
    };
    for (const [locale, expected] of Object.entries(words)) {
      const t = translator(i18n, locale);
      const agent = orderStatusText(t, after, "agent");
      for (const w of expected) expect(agent).toContain(w);
      const line = agent.split("\n").find((l) => l.startsWith("⚠️")) ?? "";
      // When, in Latin digits and the order's zone, in every language.
      expect(line).toMatch(/\d{2}:\d{2} NPT/);
      expect(line).not.toMatch(/[०-९]/);
      expect(orderStatusText(t, after, "customer")).not.toContain(expected[2]);
    }
  });
});
