import { afterAll, describe, expect, it } from "vitest";
import {
  type Crossings,
  createFiguresOffAlert,
  createHourlyAlertsFlush,
  createMemoryCrossings,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryLease } from "../../src/orders/lease.ts";
import { createMemoryOrderStore, type MemoryOwed } from "../../src/orders/memory-store.ts";
import type { Notification, Order, WalletEffects } from "../../src/orders/model.ts";
import { createReconciler } from "../../src/orders/reconciler.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders, type OrdersProvider } from "../../src/orders/service.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import { adminAlertReader } from "../support/books.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * An order whose aggregator's figures are off is recorded on the order (`figuresOffAt`) and
 * counted in the figures-off alert's hourly window after the write. The count was a step of its
 * own: a process killed between the order's write and the count lost the alert, and no admin
 * heard that the aggregator booked a figure nobody expected. The order's write now marks it owed
 * a count (in the same atomic step), the count takes the mark, and the flush that runs first in
 * every reconciler tick counts any mark older than a short grace. The crash is the count's call
 * failing once, as a killed process leaves it (the write done, the count never reached): real
 * order stores (memory, and Redis with a second connection as a second process), real crossings.
 */

const r = testRedis("figures-off-crash");
afterAll(() => r.cleanup());
const ADMINS = [9_301, 9_302];
const HOUR = 3_600_000;
/** 10:00 UTC on a day in 2026. */
const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
/** Past the repair's grace (OWED_GRACE_MS, a minute) and well within the hour. */
const LATER = 5 * 60_000;

type AdminAlert = Extract<Notification, { kind: "admin_alert" }>;

interface Rig {
  store: OrderStore;
  /** The crossings of the process that writes the orders, and of another one. */
  a: Crossings;
  b: Crossings;
  alerts(): Promise<AdminAlert[]>;
}

function inMemory(now: () => number): Rig {
  const seen: Notification[] = [];
  const outbox = { append: (ns: readonly Notification[]) => void seen.push(...ns) };
  const owed: MemoryOwed = new Map();
  const c = createMemoryCrossings(outbox, owed);
  return {
    store: createMemoryOrderStore({ outbox, owed, now }),
    a: c,
    b: c,
    alerts: async () => seen.filter((n): n is AdminAlert => n.kind === "admin_alert"),
  };
}

let rigs = 0;
function onRedis(now: () => number): Rig {
  const prefix = `${r.prefix}${++rigs}:`;
  return {
    store: createRedisOrderStore({ redis: r.redis, prefix, now }),
    a: createRedisCrossings(r.redis, prefix),
    b: createRedisCrossings(r.connect(), prefix),
    alerts: adminAlertReader(r.redis, prefix),
  };
}

/** The crossings whose next count fails before it reaches the store: the process died there. */
function killedAtCount(real: Crossings): Crossings {
  let kill = true;
  return {
    ...real,
    async countNote(name, c) {
      if (kill) {
        kill = false;
        throw new Error("process killed");
      }
      return real.countNote(name, c);
    },
  };
}

/** The crossings whose next count waits for `go` before it reaches the store: a slow process. */
function slowAtCount(real: Crossings, go: Promise<void>): Crossings {
  let slow = true;
  return {
    ...real,
    async countNote(name, c) {
      if (slow) {
        slow = false;
        await go;
      }
      return real.countNote(name, c);
    },
  };
}

/** An execute answer of ten times the Rs 100 sent: the figures are off. */
const slipped: WalletEffects = {
  amountPaisa: 100_000,
  serviceChargePaisa: 0,
  instantDiscountPaisa: 0,
  debitAmountPaisa: 100_000,
  creditAvailablePaisa: null,
  source: "execute",
};

const never: OrdersProvider = {
  execute: () => Promise.reject(new Error("not asked")),
  statusByReference: () => Promise.reject(new Error("not asked")),
};

describe.each([
  ["memory", inMemory],
  ["Redis, two processes", onRedis],
])("an order with figures off, its process killed before the count (%s)", (_, rig) => {
  let now = T0;
  let refs = 0;
  const setup = (crossings: (s: Rig) => Crossings = (s) => s.a) => {
    now = T0;
    const s = rig(() => now);
    const orders = createOrders({
      categories: CATEGORY_MODULES,
      accessMode: "staff",
      store: s.store,
      provider: never,
      adminChatIds: ADMINS,
      onFiguresOff: createFiguresOffAlert({ crossings: crossings(s), adminChatIds: ADMINS }),
      now: () => now,
    });
    /** The order answered with figures off: recorded on it, in success. */
    const slip = async (): Promise<Order> => {
      const reference = String(1_800_000_000_100 + ++refs);
      const order = placedOrder({
        reference,
        idempotencyKey: `k-${reference}`,
        status: "submitting",
      });
      await s.store.create(order);
      const done = await orders.apply({
        reference,
        source: "execute",
        status: "success",
        at: now,
        wallet: slipped,
      });
      expect(done.order?.figuresOffAt).toBe(now);
      return done.order as Order;
    };
    // The reconciler's tick as the running product wires it (system/money-path.ts): the flush
    // with the order store, on the process holding the lease.
    const flushOn = (c: Crossings) =>
      createHourlyAlertsFlush({ crossings: c, adminChatIds: ADMINS, orders: s.store });
    const reconciler = createReconciler({
      orders,
      provider: never,
      lease: createMemoryLease(() => now),
      now: () => now,
      intervalMs: 1_000,
      minAgeMs: 0,
      maxAgeMs: HOUR,
      executeTimeoutMs: 1_000,
      adminChatIds: ADMINS,
      eachTick: flushOn(s.b),
    });
    return { s, slip, flushOn, reconciler };
  };

  it("the reconciler's tick tells it, once, naming the order (the alert was lost)", async () => {
    const { s, slip, reconciler } = setup((s) => killedAtCount(s.a));
    const order = await slip();
    expect(await s.alerts()).toEqual([]);
    // Within the grace the repair leaves the count to the order's own process.
    now = T0 + 30_000;
    expect((await reconciler.runOnce()).errors).toBe(0);
    expect(await s.alerts()).toEqual([]);
    now = T0 + LATER;
    expect((await reconciler.runOnce()).errors).toBe(0);
    const alerts = await s.alerts();
    expect(alerts.map((a) => [a.chatId, a.reference])).toEqual(
      ADMINS.map((id) => [id, order.reference]),
    );
    expect(alerts[0]?.note).toContain(
      `Order ${order.reference}: the aggregator's figures are off (amount Rs 1,000, not the Rs 100 sent; debit Rs 1,000 against about Rs 100 expected).`,
    );
    // Run again, and an hour on: told once.
    expect((await reconciler.runOnce()).errors).toBe(0);
    now = T0 + 2 * HOUR;
    expect((await reconciler.runOnce()).errors).toBe(0);
    expect(await s.alerts()).toHaveLength(ADMINS.length);
  });

  it("two processes repairing at once tell it once; within the hour it counts, not tells", async () => {
    const { s, slip, flushOn } = setup((s) => killedAtCount(s.a));
    const order = await slip();
    const at = T0 + LATER;
    await Promise.all([flushOn(s.a)(at), flushOn(s.b)(at), flushOn(s.b)(at + 1)]);
    expect((await s.alerts()).map((a) => a.reference)).toEqual(ADMINS.map(() => order.reference));
    // The hour the repair's alert opened counts the next order, told with the first after it.
    now = at + 60_000;
    const next = await slip();
    expect(await s.alerts()).toHaveLength(ADMINS.length);
    await flushOn(s.b)(at + HOUR);
    const alerts = await s.alerts();
    expect(alerts).toHaveLength(2 * ADMINS.length);
    expect(alerts[ADMINS.length]?.note).toContain(`1 more order(s) with figures off`);
    expect(alerts[ADMINS.length]?.note).toContain(next.reference);
  });

  it("a count slower than the grace is not doubled by the repair that took its mark first", async () => {
    let go = () => {};
    const gate = new Promise<void>((resolve) => {
      go = resolve;
    });
    const { s, slip, flushOn } = setup((s) => slowAtCount(s.a, gate));
    const slipping = slip();
    // The order is written (its mark with it) while its count waits.
    await expect.poll(async () => (await s.b.owedBefore("figures-off", T0, 10)).length).toBe(1);
    await flushOn(s.b)(T0 + LATER);
    go();
    const order = await slipping;
    const alerts = await s.alerts();
    expect(alerts.map((a) => a.reference)).toEqual(ADMINS.map(() => order.reference));
    // Nothing counted twice: the hour's window holds no order.
    expect(JSON.parse((await s.b.recall("figures-off")) ?? "")).toMatchObject({ more: 0 });
  });

  it("guard: an order counted by its own process is not counted again by the repair", async () => {
    const { s, slip, flushOn } = setup();
    const first = await slip();
    now = T0 + 60_000;
    const second = await slip();
    // The first told at once, the second counted in its hour.
    expect((await s.alerts()).map((a) => a.reference)).toEqual(ADMINS.map(() => first.reference));
    await flushOn(s.b)(T0 + LATER);
    expect(await s.alerts()).toHaveLength(ADMINS.length);
    // The hour's count is the one order, told once the hour ended.
    await flushOn(s.b)(T0 + HOUR);
    const alerts = await s.alerts();
    expect(alerts).toHaveLength(2 * ADMINS.length);
    expect(alerts[ADMINS.length]?.note).toContain(`1 more order(s) with figures off`);
    expect(alerts[ADMINS.length]?.note).toContain(second.reference);
  });
});
