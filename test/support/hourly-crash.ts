import { describe, expect, it } from "vitest";
import { OWED_KEPT_MS, OWED_PER_FLUSH } from "../../src/books/hourly-alert.ts";
import {
  type Crossings,
  createHourlyAlertsFlush,
  createMemoryCrossings,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createMemoryLease } from "../../src/orders/lease.ts";
import { createMemoryOrderStore, type MemoryOwed } from "../../src/orders/memory-store.ts";
import type { Notification, Order, OrderEvent } from "../../src/orders/model.ts";
import { COLLISION_NOTE } from "../../src/orders/owed.ts";
import { eventFromExecute } from "../../src/orders/provider-events.ts";
import { createReconciler } from "../../src/orders/reconciler.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import {
  createOrders,
  type Orders,
  type OrdersOptions,
  type OrdersProvider,
} from "../../src/orders/service.ts";
import { transition } from "../../src/orders/state.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { adminAlertReader } from "./books.ts";
import { placedOrder } from "./orders.ts";
import type { testRedis } from "./redis.ts";

/**
 * An hourly admins' alert whose order's process is killed between the order's write and its
 * count (test/books/figures-off-crash.test.ts, collision-crash.test.ts): real order stores (memory,
 * and Redis with a second connection as a second process), real crossings, the reconciler's tick
 * as the running product wires it (system/money-path.ts), a clock the test moves. The crash is
 * the count's call failing once, as a killed process leaves it (the write done, the count never
 * reached).
 */

const ADMINS = [9_301, 9_302];
const HOUR = 3_600_000;
/** 10:00 UTC on a day in 2026. */
const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);
/** Past the repair's grace (OWED_GRACE_MS, a minute) and well within the hour. */
const LATER = 5 * 60_000;

type AdminAlert = Extract<Notification, { kind: "admin_alert" }>;

interface Rig {
  store: OrderStore;
  /** Where the flush's repair reads the orders (the store, but for the ones made unreadable). */
  reader: Pick<OrderStore, "get">;
  /** The crossings of the process that writes the orders, and of another one. */
  a: Crossings;
  b: Crossings;
  alerts(): Promise<AdminAlert[]>;
  /** Makes the order's record unreadable (Redis: junk in its key; memory: its read fails). */
  corrupt(reference: string): Promise<void>;
  /** Marks `reference` owed a count in `note`'s window at `at`, as a write would (no order). */
  markOwed(note: string, reference: string, at: number): Promise<void>;
}

function inMemory(now: () => number): Rig {
  const seen: Notification[] = [];
  const outbox = { append: (ns: readonly Notification[]) => void seen.push(...ns) };
  const owed: MemoryOwed = new Map();
  const c = createMemoryCrossings(outbox, owed);
  const store = createMemoryOrderStore({ outbox, owed, now });
  const unreadable = new Set<string>();
  return {
    store,
    reader: {
      get: (reference) =>
        unreadable.has(reference)
          ? Promise.reject(new Error(`order ${reference}: unreadable`))
          : store.get(reference),
    },
    a: c,
    b: c,
    alerts: async () => seen.filter((n): n is AdminAlert => n.kind === "admin_alert"),
    corrupt: async (reference) => void unreadable.add(reference),
    markOwed: async (note, reference, at) => {
      owed.set(note, (owed.get(note) ?? new Map()).set(reference, at));
    },
  };
}

/** Rigs on `r`'s Redis, each under a prefix of its own. */
function onRedis(r: ReturnType<typeof testRedis>): (now: () => number) => Rig {
  let rigs = 0;
  return (now) => {
    const prefix = `${r.prefix}${++rigs}:`;
    const k = keyspace(prefix);
    const store = createRedisOrderStore({ redis: r.redis, prefix, now });
    return {
      store,
      reader: store,
      a: createRedisCrossings(r.redis, prefix),
      b: createRedisCrossings(r.connect(), prefix),
      alerts: adminAlertReader(r.redis, prefix),
      corrupt: async (reference) => void (await r.redis.hset(k.order(reference), "j", "{junk")),
      markOwed: async (note, reference, at) =>
        void (await r.redis.zadd(k.crossing(`owed:${note}`), at, reference)),
    };
  };
}

/** The crossings whose next `n` counts run `first` before they reach the store. */
function firstCountThrough(real: Crossings, first: () => Promise<void>, n = 1): Crossings {
  let pending = n;
  return {
    ...real,
    async countNote(name, c) {
      if (pending > 0) {
        pending--;
        await first();
      }
      return real.countNote(name, c);
    },
  };
}

/** The crossings whose next `n` counts fail before they reach the store: the process died there. */
const killedAtCount = (real: Crossings, n = 1) =>
  firstCountThrough(real, () => Promise.reject(new Error("process killed")), n);

/** The crossings whose next count waits for `go` before it reaches the store: a slow process. */
const slowAtCount = (real: Crossings, go: Promise<void>) => firstCountThrough(real, () => go);

/** An execute refused with a 409 for a reference the aggregator holds, as it answers it. */
export const heldRefusal = (reference: string, at: number, message = "Duplicate reference_no") =>
  eventFromExecute(
    { kind: "rejected", referenceNo: reference, httpStatus: 409, message, rateLimited: false },
    at,
  );

/**
 * That refusal written to an order under way as apply's step writes it (its reference-collision
 * count owed with it), and no count after it: a process killed right after its write.
 */
export function writeRefusalOwed(store: OrderStore, reference: string, at: number) {
  return store.update(reference, (current) => {
    const t = transition(current, heldRefusal(reference, at), []);
    return { order: t.order, notifications: [], owes: [COLLISION_NOTE] };
  });
}

const never: OrdersProvider = {
  execute: () => Promise.reject(new Error("not asked")),
  statusByReference: () => Promise.reject(new Error("not asked")),
};

/** The alert the orders tell, wired to the crossings the order's process counts with. */
type AlertWiring = (
  crossings: Crossings,
  adminChatIds: readonly number[],
) => Pick<OrdersOptions, "onFiguresOff" | "onAdminNote">;

/**
 * The orders service over a fresh rig (its clock reset to T0), the flush on either process's
 * crossings, and the reconciler whose tick runs the flush on the other process's (`b`).
 */
function crashSetup(
  rig: Rig,
  clock: { now: number },
  alert: AlertWiring,
  crossings: Crossings = rig.a,
): {
  orders: Orders;
  flushOn: (c: Crossings) => (at: number) => Promise<boolean[]>;
  tick(): Promise<number>;
} {
  const now = () => clock.now;
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: rig.store,
    provider: never,
    adminChatIds: ADMINS,
    ...alert(crossings, ADMINS),
    now,
  });
  const flushOn = (c: Crossings) =>
    createHourlyAlertsFlush({ crossings: c, adminChatIds: ADMINS, orders: rig.reader });
  const reconciler = createReconciler({
    orders,
    provider: never,
    lease: createMemoryLease(now),
    now,
    intervalMs: 1_000,
    minAgeMs: 0,
    maxAgeMs: HOUR,
    executeTimeoutMs: 1_000,
    adminChatIds: ADMINS,
    eachTick: flushOn(rig.b),
  });
  /** One reconciler tick: its errors. */
  const tick = async () => (await reconciler.runOnce()).errors;
  return { orders, flushOn, tick };
}

/** One kind of hourly alert whose order's write owes its count. */
export interface CrashKind {
  /** Its window's crossings note (where the order is marked owed). */
  note: string;
  /** Its alert, wired to the order's process's crossings. */
  alert: AlertWiring;
  /** The answer that makes an order under way one of the kind (its step owes the count). */
  answer(reference: string, at: number): OrderEvent;
  /** What the order written by the answer at `at` must show. */
  written(order: Order | null, at: number): void;
  /** What the alert telling `order` says of it. */
  told(order: Order): string;
  /** How the count of one more order is said: "1 more order(s) …". */
  oneMore: string;
}

/**
 * The crash suite of `kind` (memory, and Redis with two processes): a process killed between the
 * order's write and its count; two processes repairing at once; a count slower than the grace;
 * an order counted by its own process (guard). `refs`: where the test's references start.
 */
export function describeCrash(
  title: string,
  r: ReturnType<typeof testRedis>,
  kind: CrashKind,
  refs: number,
): void {
  describe.each([
    ["memory", inMemory],
    ["Redis, two processes", onRedis(r)],
  ])(`${title}, its process killed before the count (%s)`, (_, rig) => {
    const clock = { now: T0 };
    const setup = (crossings: (s: Rig) => Crossings = (s) => s.a) => {
      clock.now = T0;
      const s = rig(() => clock.now);
      const { orders, flushOn, tick } = crashSetup(s, clock, kind.alert, crossings(s));
      /** An order under way, answered through the orders' one door (apply). */
      const make = async (): Promise<Order> => {
        const reference = String(++refs);
        const at = clock.now;
        await s.store.create(
          placedOrder({ reference, idempotencyKey: `k-${reference}`, status: "submitting" }),
        );
        const done = await orders.apply({ reference, ...kind.answer(reference, at) });
        kind.written(done.order, at);
        return done.order as Order;
      };
      return { s, make, flushOn, tick };
    };

    it("the reconciler's tick tells it, once, naming the order (the alert was lost)", async () => {
      const { s, make, tick } = setup((s) => killedAtCount(s.a));
      const order = await make();
      expect(await s.alerts()).toEqual([]);
      // Within the grace the repair leaves the count to the order's own process.
      clock.now = T0 + 30_000;
      expect(await tick()).toBe(0);
      expect(await s.alerts()).toEqual([]);
      clock.now = T0 + LATER;
      expect(await tick()).toBe(0);
      const alerts = await s.alerts();
      expect(alerts.map((a) => [a.chatId, a.reference, a.status])).toEqual(
        ADMINS.map((id) => [id, order.reference, order.status]),
      );
      expect(alerts[0]?.note).toContain(kind.told(order));
      // Told late, with the order's own time (review s30 F7).
      expect(alerts[0]?.note).toContain(
        "Told late: the order was recorded at 2026-11-28 10:00 UTC; its alert was not sent then.",
      );
      // Run again, and an hour on: told once.
      expect(await tick()).toBe(0);
      clock.now = T0 + 2 * HOUR;
      expect(await tick()).toBe(0);
      expect(await s.alerts()).toHaveLength(ADMINS.length);
    });

    it("two processes repairing at once tell it once; within the hour it counts, not tells", async () => {
      const { s, make, flushOn } = setup((s) => killedAtCount(s.a));
      const order = await make();
      const at = T0 + LATER;
      await Promise.all([flushOn(s.a)(at), flushOn(s.b)(at), flushOn(s.b)(at + 1)]);
      const refsOf = async () => (await s.alerts()).map((a) => a.reference);
      expect(await refsOf()).toEqual(ADMINS.map(() => order.reference));
      // The hour the repair's alert opened counts the next order, told once that hour ended.
      clock.now = at + 60_000;
      const next = await make();
      expect(await s.alerts()).toHaveLength(ADMINS.length);
      await flushOn(s.b)(at + HOUR);
      const alerts = await s.alerts();
      expect(alerts).toHaveLength(2 * ADMINS.length);
      expect(alerts[ADMINS.length]?.note).toContain(kind.oneMore);
      expect(alerts[ADMINS.length]?.note).toContain(next.reference);
    });

    it("a count slower than the grace is not doubled by the repair that took its mark first", async () => {
      let go = () => {};
      const gate = new Promise<void>((resolve) => {
        go = resolve;
      });
      const { s, make, flushOn } = setup((s) => slowAtCount(s.a, gate));
      const making = make();
      // The order is written (its mark with it) while its count waits.
      await expect.poll(async () => (await s.b.owedBefore(kind.note, T0, 10)).length).toBe(1);
      await flushOn(s.b)(T0 + LATER);
      go();
      const order = await making;
      const alerts = await s.alerts();
      expect(alerts.map((a) => a.reference)).toEqual(ADMINS.map(() => order.reference));
      expect(alerts[0]?.note).toContain(kind.told(order));
      // Nothing counted twice: the hour's window holds no order.
      expect(JSON.parse((await s.b.recall(kind.note)) ?? "")).toMatchObject({ more: 0 });
    });

    it("guard: an order counted by its own process is not counted again by the repair", async () => {
      const { s, make, flushOn } = setup();
      const first = await make();
      clock.now = T0 + 60_000;
      const second = await make();
      // The first told at once, the second counted in its hour; no mark left for the repair.
      expect((await s.alerts()).map((a) => a.reference)).toEqual(ADMINS.map(() => first.reference));
      expect(await s.b.owedBefore(kind.note, T0 + HOUR, 10)).toEqual([]);
      await flushOn(s.b)(T0 + LATER);
      expect(await s.alerts()).toHaveLength(ADMINS.length);
      // The hour's count is the one order, told once the hour ended.
      await flushOn(s.b)(T0 + HOUR);
      const alerts = await s.alerts();
      expect(alerts).toHaveLength(2 * ADMINS.length);
      expect(alerts[ADMINS.length]?.note).toContain(kind.oneMore);
      expect(alerts[ADMINS.length]?.note).toContain(second.reference);
    });

    it("an owed order that cannot be read stops neither the hour's count nor the others (s30 F4)", async () => {
      const { s, make, flushOn } = setup((s) => killedAtCount(s.a, 2));
      const bad = await make();
      clock.now = T0 + 1_000;
      const good = await make();
      await s.corrupt(bad.reference);
      // An hour with 3 orders counted, ended by the flush's time.
      const refs = ["1700000000001", "1700000000002", "1700000000003"];
      await s.b.remember(kind.note, JSON.stringify({ since: T0 - 600_000, more: 3, refs }));
      const at = T0 + HOUR;
      await flushOn(s.b)(at);
      // The good one told, with the ended hour's count in its alert.
      const alerts = await s.alerts();
      expect(alerts.map((a) => a.reference)).toEqual(ADMINS.map(() => good.reference));
      expect(alerts[0]?.note).toContain(`3 more ${kind.oneMore.slice("1 more ".length)}`);
      // The unreadable one kept, set aside past the next tick, its own time kept.
      expect(await s.b.owedBefore(kind.note, at, 10)).toEqual([]);
      const later = await s.b.owedBefore(kind.note, at + 2 * HOUR, 10);
      expect(later.map((o) => [o.reference, o.markedAt])).toEqual([[bad.reference, T0]]);
    });

    it("marks that cannot be repaired do not starve a later one, and go after days (s30 F5)", async () => {
      const { s, make, flushOn } = setup((s) => killedAtCount(s.a));
      // More than a flush reads of marks whose order is not in the store, older than a good one.
      const stuck = Array.from({ length: OWED_PER_FLUSH + 1 }, (_, i) =>
        String(1_600_000_000_000 + i),
      );
      for (const [i, ref] of stuck.entries()) await s.markOwed(kind.note, ref, T0 - 60_000 + i);
      const old = "1600000000999";
      await s.markOwed(kind.note, old, T0 - OWED_KEPT_MS - 1);
      const good = await make();
      await flushOn(s.b)(T0 + LATER);
      await flushOn(s.b)(T0 + LATER + 1);
      const alerts = await s.alerts();
      expect(alerts.map((a) => a.reference)).toEqual(ADMINS.map(() => good.reference));
      expect(alerts[0]?.note).toContain(kind.told(good));
      // Marked longer ago than kept: dropped (its error logged); the others kept, set aside.
      const left = await s.b.owedBefore(kind.note, T0 + 10 * HOUR, 100);
      expect(left.map((o) => o.reference).sort()).toEqual([...stuck].sort());
    });
  });
}
