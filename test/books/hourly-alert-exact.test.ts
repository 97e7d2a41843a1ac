import { afterAll, describe, expect, it } from "vitest";
import {
  type Crossings,
  createCollisionAlert,
  createFiguresOffAlert,
  createHourlyAlertsFlush,
  createMemoryCrossings,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryLease } from "../../src/orders/lease.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { Notification } from "../../src/orders/model.ts";
import { createReconciler } from "../../src/orders/reconciler.ts";
import { createOrders, type OrdersProvider } from "../../src/orders/service.ts";
import { adminAlertReader } from "../support/books.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * Session 28: the admins' hourly alerts (src/books/hourly-alert.ts) made exact. Counting an order
 * was a read then a write: orders counted at once (two processes, or two calls in one) read the
 * same window and all but one count were lost. And the orders counted in an hour were told only
 * with the next order after it: if none came, nobody heard of them. Now a count is one atomic
 * step, and a flush (the reconciler's tick) tells an ended hour's count once, whichever process
 * runs it. Both stores: memory (one process) and real Redis with two connections as two
 * processes, the alerts read from the outbox.
 */

const r = testRedis("hourly-alert-exact");
afterAll(() => r.cleanup());
const ADMINS = [9_201, 9_202];
const HOUR = 3_600_000;
/** 10:00 UTC on a day in 2026: the alerts' words say "since 10:00 UTC". */
const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);

type AdminAlert = Extract<Notification, { kind: "admin_alert" }>;

interface Rig {
  /** Two processes' crossings on the same store (memory: one process, so the same). */
  a: Crossings;
  b: Crossings;
  alerts(): Promise<AdminAlert[]>;
}

function inMemory(): Rig {
  const seen: Notification[] = [];
  const c = createMemoryCrossings({ append: (ns) => seen.push(...ns) });
  const alerts = async () =>
    seen.filter((n): n is AdminAlert => n.kind === "admin_alert").map((n) => n);
  return { a: c, b: c, alerts };
}

let rigs = 0;
function onRedis(): Rig {
  const prefix = `${r.prefix}${++rigs}:`;
  return {
    a: createRedisCrossings(r.redis, prefix),
    b: createRedisCrossings(r.connect(), prefix),
    alerts: adminAlertReader(r.redis, prefix),
  };
}

const order = (n: number) =>
  placedOrder({ reference: String(1_700_000_001_000 + n), status: "failed" });
const ref = (n: number) => order(n).reference;

describe.each([
  ["memory", inMemory],
  ["Redis, two processes", onRedis],
])("the hourly alerts on %s", (_, rig) => {
  const collisions = (c: Crossings) => createCollisionAlert({ crossings: c, adminChatIds: ADMINS });
  const flush = (c: Crossings) => createHourlyAlertsFlush({ crossings: c, adminChatIds: ADMINS });

  it("orders counted at once are all counted (read-then-write lost all but one)", async () => {
    const s = rig();
    const [a, b] = [collisions(s.a), collisions(s.b)];
    expect(await a({ order: order(0), note: "refused", at: T0 })).toBe(true);
    const told = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 ? a : b)({ order: order(i + 1), note: "refused", at: T0 + 1_000 + i }),
      ),
    );
    expect(told.every((t) => t === false)).toBe(true);
    // The next order after the hour tells the count: all 24.
    expect(await a({ order: order(99), note: "refused", at: T0 + HOUR })).toBe(true);
    const alerts = await s.alerts();
    expect(alerts.map((x) => x.reference)).toEqual([ref(0), ref(0), ref(99), ref(99)]);
    expect(alerts[2]?.note).toContain(
      " Also 24 more order(s) refused the same way since 10:00 UTC",
    );
  });

  it("the count of an hour that ended is told by the flush, once, with no other order", async () => {
    const s = rig();
    const tell = createFiguresOffAlert({ crossings: s.a, adminChatIds: ADMINS });
    expect(await tell({ order: order(0), off: "amount", at: T0 })).toBe(true);
    for (const i of [1, 2, 3])
      expect(await tell({ order: order(i), off: "amount", at: T0 + i * 60_000 })).toBe(false);
    // Within the hour: nothing to flush yet.
    expect(await flush(s.a)(T0 + HOUR - 1)).toEqual([false, false, false, false]);
    // Two processes flush at once: one tells it.
    const flushed = await Promise.all([flush(s.a)(T0 + HOUR), flush(s.b)(T0 + HOUR)]);
    expect(flushed.flat().filter(Boolean)).toHaveLength(1);
    expect(await flush(s.b)(T0 + HOUR + 15_000)).toEqual([false, false, false, false]);
    const alerts = await s.alerts();
    expect(alerts).toHaveLength(4);
    const last = alerts.slice(2);
    expect(last.map((x) => x.chatId)).toEqual(ADMINS);
    expect(last[0]?.reference).toBe(ref(1));
    expect(last[0]?.note).toBe(
      `The aggregator's figures are off: 3 more order(s) with figures off since 10:00 UTC (e.g. ${ref(1)}, ${ref(2)}, ${ref(3)}), each recorded on its order. They are booked as reported; check each order (its page in the back office) with the aggregator. Further orders with figures off within the hour are recorded on each order and counted in the next alert.`,
    );
    // The flush's alert is its hour's one: an order soon after is counted, not told.
    expect(await tell({ order: order(4), off: "amount", at: T0 + HOUR + 60_000 })).toBe(false);
    expect(await s.alerts()).toHaveLength(4);
  });

  it("a window whose hour ended with no count tells nothing; the next order is told at once", async () => {
    const s = rig();
    const tell = collisions(s.a);
    expect(await tell({ order: order(0), note: "refused", at: T0 })).toBe(true);
    expect(await flush(s.a)(T0 + 2 * HOUR)).toEqual([false, false, false, false]);
    expect(await tell({ order: order(1), note: "refused", at: T0 + 2 * HOUR })).toBe(true);
    const alerts = await s.alerts();
    expect(alerts.map((x) => x.reference)).toEqual([ref(0), ref(0), ref(1), ref(1)]);
    expect(alerts[2]?.note).toBe(
      `Order ${ref(1)}: refused Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
    );
  });

  it("guard: first told, the hour's counted (5 references quoted), the next after the hour told with the count", async () => {
    const s = rig();
    const tell = collisions(s.a);
    expect(await tell({ order: order(0), note: "refused", at: T0 })).toBe(true);
    for (let i = 1; i <= 7; i++)
      expect(await tell({ order: order(i), note: "refused", at: T0 + HOUR - 8 + i })).toBe(false);
    expect(await tell({ order: order(8), note: "refused", at: T0 + HOUR })).toBe(true);
    const alerts = await s.alerts();
    expect(alerts.map((x) => [x.reference, x.chatId, x.status, x.topic])).toEqual([
      [ref(0), ADMINS[0], "failed", "settle_proposed"],
      [ref(0), ADMINS[1], "failed", "settle_proposed"],
      [ref(8), ADMINS[0], "failed", "settle_proposed"],
      [ref(8), ADMINS[1], "failed", "settle_proposed"],
    ]);
    expect(alerts[2]?.note).toBe(
      `Order ${ref(8)}: refused Also 7 more order(s) refused the same way since 10:00 UTC (e.g. ${[1, 2, 3, 4, 5].map(ref).join(", ")}), each recorded on its order. Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
    );
    // The window as an older version reads it (docs/deploying.md): the same JSON shape.
    expect(JSON.parse((await s.a.recall("reference-collision")) ?? "")).toEqual({
      since: T0 + HOUR,
      more: 0,
      refs: [],
    });
  });

  it("guard: a counted window is kept in the shape older versions read", async () => {
    const s = rig();
    const tell = collisions(s.a);
    await tell({ order: order(0), note: "refused", at: T0 });
    await tell({ order: order(1), note: "refused", at: T0 + 1 });
    await collisions(s.b)({ order: order(2), note: "refused", at: T0 + 2 });
    expect(await s.b.recall("reference-collision")).toBe(
      JSON.stringify({ since: T0, more: 2, refs: [ref(1), ref(2)] }),
    );
  });

  it("two orders at once after the hour (two processes at its edge): one is told, the other counted", async () => {
    const s = rig();
    const [a, b] = [collisions(s.a), collisions(s.b)];
    expect(await a({ order: order(0), note: "refused", at: T0 })).toBe(true);
    const told = await Promise.all([
      a({ order: order(1), note: "refused", at: T0 + HOUR }),
      b({ order: order(2), note: "refused", at: T0 + HOUR }),
    ]);
    expect(told.filter(Boolean)).toHaveLength(1);
    expect(await s.alerts()).toHaveLength(4);
    expect(JSON.parse((await s.a.recall("reference-collision")) ?? "").more).toBe(1);
  });

  it("an order stamped just before the window another process opened is counted in it, not told (review s28, S1)", async () => {
    const s = rig();
    const [a, b] = [collisions(s.a), collisions(s.b)];
    expect(await a({ order: order(0), note: "refused", at: T0 })).toBe(true);
    // b read its clock first (T0 + HOUR + 1) but lands after a's tell (T0 + HOUR + 5).
    expect(await a({ order: order(1), note: "refused", at: T0 + HOUR + 5 })).toBe(true);
    expect(await b({ order: order(2), note: "refused", at: T0 + HOUR + 1 })).toBe(false);
    expect(await s.alerts()).toHaveLength(4);
    expect(JSON.parse((await s.a.recall("reference-collision")) ?? "")).toEqual({
      since: T0 + HOUR + 5,
      more: 1,
      refs: [ref(2)],
    });
  });

  it("an order stamped just before the flush's new window is counted in it, not told (review s28, S1)", async () => {
    const s = rig();
    const tell = collisions(s.a);
    await tell({ order: order(0), note: "refused", at: T0 });
    await tell({ order: order(1), note: "refused", at: T0 + 1 });
    expect(await flush(s.b)(T0 + HOUR + 2_000)).toContain(true);
    expect(await tell({ order: order(2), note: "refused", at: T0 + HOUR + 1_999 })).toBe(false);
    expect(await s.alerts()).toHaveLength(4);
  });

  it("guard: an order an hour and more before a window (a clock far behind) is not counted in it", async () => {
    const s = rig();
    const tell = collisions(s.b);
    await collisions(s.a)({ order: order(0), note: "refused", at: T0 + HOUR });
    expect(await tell({ order: order(1), note: "refused", at: T0 })).toBe(true);
  });
});

describe("the flush's driver", () => {
  it("the reconciler's tick runs it: an ended hour's count is told with no order after it", async () => {
    const s = inMemory();
    let now = T0;
    const provider: OrdersProvider = {
      execute: () => Promise.reject(new Error("not asked")),
      statusByReference: () => Promise.reject(new Error("not asked")),
    };
    const store = createMemoryOrderStore({ outbox: { append: () => {} }, now: () => now });
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
      minAgeMs: 0,
      maxAgeMs: HOUR,
      executeTimeoutMs: 1_000,
      adminChatIds: ADMINS,
      eachTick: createHourlyAlertsFlush({ crossings: s.a, adminChatIds: ADMINS }),
    });
    const tell = createCollisionAlert({ crossings: s.a, adminChatIds: ADMINS });
    await tell({ order: order(0), note: "refused", at: T0 });
    await tell({ order: order(1), note: "refused", at: T0 + 1 });
    expect((await reconciler.runOnce()).errors).toBe(0);
    expect(await s.alerts()).toHaveLength(2);
    now = T0 + HOUR + 2_000;
    expect((await reconciler.runOnce()).errors).toBe(0);
    const alerts = await s.alerts();
    expect(alerts.map((x) => x.reference)).toEqual([ref(0), ref(0), ref(1), ref(1)]);
    expect(alerts[2]?.note).toContain("1 more order(s) refused the same way since 10:00 UTC");
  });
});

describe("memory crossings given no owed set (review s30 F6)", () => {
  it("an order whose step marked it owed is counted, not taken as counted already", async () => {
    const seen: Notification[] = [];
    const c = createMemoryCrossings({ append: (ns) => seen.push(...ns) });
    const alert = createCollisionAlert({ crossings: c, adminChatIds: ADMINS });
    // A map of its own answered "already" to every owed count: the alert was lost.
    expect(await alert({ order: order(0), note: "refused", at: T0, owed: true })).toBe(true);
    expect(await alert({ order: order(1), note: "refused", at: T0 + 1_000, owed: true })).toBe(
      false,
    );
    await createHourlyAlertsFlush({ crossings: c, adminChatIds: ADMINS })(T0 + HOUR);
    const alerts = seen.filter((n): n is AdminAlert => n.kind === "admin_alert");
    expect(alerts.map((a) => a.reference)).toEqual([ref(0), ref(0), ref(1), ref(1)]);
    expect(alerts[ADMINS.length]?.note).toContain(`1 more order(s) refused the same way`);
  });
});
