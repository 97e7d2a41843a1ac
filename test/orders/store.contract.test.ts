import { afterEach, describe, expect, it } from "vitest";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { Notification, Order } from "../../src/orders/model.ts";
import { notificationSchema } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { transition } from "../../src/orders/state.ts";
import {
  type OrderStore,
  ReferenceInUseError,
  type TakenTransaction,
} from "../../src/orders/store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { placedOrder, testRedis } from "../support/orders.ts";
import { monitorCommands } from "../support/redis-monitor.ts";

/**
 * ONE contract suite, run against both adapters. `second()` is another handle on the same data
 * (another process, for Redis: its own connection).
 */
interface Harness {
  store: OrderStore;
  second(): OrderStore;
  outbox(): Promise<Notification[]>;
  /** Sets the clock the stores read. */
  setNow(ms: number): void;
  /** Simulates losing the counter (e.g. Redis restarted without persistence). */
  loseCounter(): Promise<void>;
  close(): Promise<void>;
}

function memoryHarness(): Harness {
  let now = 1_000;
  const sent: Notification[] = [];
  const store = createMemoryOrderStore({
    outbox: { append: (ns) => sent.push(...ns) },
    now: () => now,
  });
  return {
    store,
    second: () => store,
    outbox: async () => [...sent],
    setNow: (ms) => {
      now = ms;
    },
    // A memory store loses everything with its process; a new one must still not reuse references.
    loseCounter: async () => {},
    close: async () => {},
  };
}

function redisHarness(): Harness {
  const t = testRedis("store");
  let now = 1_000;
  const make = (redis = t.redis) =>
    createRedisOrderStore({ redis, prefix: t.prefix, now: () => now });
  const keys = keyspace(t.prefix);
  return {
    store: make(),
    second: () => make(t.connect()),
    outbox: async () => {
      const entries = await t.redis.xrange(keys.outbox, "-", "+");
      return entries.map(([, fields]) => notificationSchema.parse(JSON.parse(fields[1] ?? "")));
    },
    setNow: (ms) => {
      now = ms;
    },
    loseCounter: async () => {
      await t.redis.del(keys.referenceSeq);
    },
    close: () => t.cleanup(),
  };
}

const adapters: Array<[string, () => Harness]> = [
  ["memory", memoryHarness],
  ["redis", redisHarness],
];

function order(reference: string, over: Partial<Order> = {}): Order {
  return placedOrder({ reference, idempotencyKey: `idem-${reference}`, ...over });
}

describe.each(adapters)("order store contract: %s", (_name, makeHarness) => {
  let h: Harness;
  const setup = () => {
    h = makeHarness();
    return h;
  };
  afterEach(async () => {
    await h.close();
  });

  it("hands out numeric references of at most 15 digits, increasing and never below the clock", async () => {
    const { store } = setup();
    h.setNow(1_700_000_000_000);
    const refs = await Promise.all(Array.from({ length: 50 }, () => store.nextReference()));
    const more = await Promise.all(Array.from({ length: 50 }, () => h.second().nextReference()));
    const all = [...refs, ...more];
    for (const r of all) expect(r).toMatch(/^[1-9]\d{0,14}$/);
    expect(new Set(all).size).toBe(100);
    expect(Math.min(...all.map(Number))).toBeGreaterThanOrEqual(1_700_000_000_000);
  });

  it("never reuses a reference after the counter is lost, given the clock moved on", async () => {
    const { store } = setup();
    h.setNow(5_000);
    const first = [await store.nextReference(), await store.nextReference()];
    // From the clock (Redis: a new counter starts a day ahead of it, see the migration below).
    expect(Number(first[0])).toBeGreaterThanOrEqual(5_000);
    expect(Number(first[1])).toBe(Number(first[0]) + 1);
    await h.loseCounter();
    h.setNow(6_000);
    const after = await h.second().nextReference();
    expect(Number(after)).toBeGreaterThan(5001);
  });

  it("numbers an order as it creates it: once per idempotency key, in the same sequence", async () => {
    const { store } = setup();
    h.setNow(7_000);
    const before = Number(await store.nextReference());
    const a = await store.create(order("1", { idempotencyKey: "n-1" }), { numbered: true });
    expect(a.created).toBe(true);
    expect(Number(a.order.reference)).toBe(before + 1);
    expect((await store.get(a.order.reference))?.reference).toBe(a.order.reference);
    // A repeat with the same key is that order, and costs no number.
    const again = await h
      .second()
      .create(order("1", { idempotencyKey: "n-1" }), { numbered: true });
    expect(again).toMatchObject({ created: false, order: { reference: a.order.reference } });
    expect(Number(await store.nextReference())).toBe(before + 2);
  });

  it("numbers past a reference an order already has (a counter lost, the clock behind)", async () => {
    const { store } = setup();
    h.setNow(9_000);
    const next = Number(await store.nextReference());
    await store.create(order(String(next + 1)));
    await store.create(order(String(next + 2)));
    const c = await store.create(order("1", { idempotencyKey: "n-2" }), { numbered: true });
    expect(Number(c.order.reference)).toBe(next + 3);
  });

  it("creates once per idempotency key and returns the existing order for a known key", async () => {
    const { store } = setup();
    const a = await store.create(order("101"));
    expect(a.created).toBe(true);
    const again = await h.second().create(order("102", { idempotencyKey: "idem-101" }));
    expect(again.created).toBe(false);
    expect(again.order.reference).toBe("101");
    expect(await store.get("102")).toBeNull();
    expect((await store.getByIdempotencyKey("idem-101"))?.reference).toBe("101");
  });

  it("refuses a reference already used by another order", async () => {
    const { store } = setup();
    await store.create(order("201"));
    await expect(store.create(order("201", { idempotencyKey: "other" }))).rejects.toBeInstanceOf(
      ReferenceInUseError,
    );
  });

  it("finds an order by its execute (listing) reference", async () => {
    const { store } = setup();
    await store.create(
      order("301", {
        category: "datapack",
        details: { packageId: "PROD_001_inv", packageName: "1 GB" },
        executeReference: "LST-77",
      }),
    );
    expect((await store.get("LST-77"))?.reference).toBe("301");
    await expect(
      store.create(order("302", { idempotencyKey: "x", executeReference: "LST-77" })),
    ).rejects.toBeInstanceOf(ReferenceInUseError);
  });

  it("lists a user's orders newest first, limited", async () => {
    const { store } = setup();
    await store.create(order("401", { userId: 9, createdAt: 10 }));
    await store.create(order("402", { userId: 9, createdAt: 30 }));
    await store.create(order("403", { userId: 9, createdAt: 20 }));
    await store.create(order("404", { userId: 8, createdAt: 40 }));
    const list = await store.listByUser(9, 2);
    expect(list.map((o) => o.reference)).toEqual(["402", "403"]);
    // Paging: an offset skips the newest; past the end is empty; no limit, no orders.
    expect((await store.listByUser(9, 2, 1)).map((o) => o.reference)).toEqual(["403", "401"]);
    expect((await store.listByUser(9, 2, 2)).map((o) => o.reference)).toEqual(["401"]);
    expect(await store.listByUser(9, 2, 3)).toEqual([]);
    expect(await store.listByUser(9, 0)).toEqual([]);
  });

  it("updates atomically: indexes, open set and outbox in the same step", async () => {
    const { store } = setup();
    await store.create(order("501", { createdAt: 5 }));
    await store.create(order("502", { createdAt: 6 }));
    await store.create(order("503", { createdAt: 50 }));
    expect(
      (await store.listOpen({ createdBefore: 10, limit: 10 })).map((o) => o.reference),
    ).toEqual(["501", "502"]);
    expect(
      (await store.listOpen({ createdBefore: 100, limit: 1, offset: 1 })).map((o) => o.reference),
    ).toEqual(["502"]);

    const r = await store.update("501", (cur) => {
      const t = transition(cur, {
        source: "execute",
        status: "success",
        at: 7,
        transactionId: "TX-1",
      });
      return { order: t.order, notifications: t.notifications };
    });
    expect(r?.updated).toBe(true);
    expect(r?.order.version).toBe(1);
    expect((await h.second().getByTransactionId("TX-1"))?.status).toBe("success");
    expect(
      (await store.listOpen({ createdBefore: 100, limit: 10 })).map((o) => o.reference),
    ).toEqual(["502", "503"]);
    expect(await h.outbox()).toEqual([
      { kind: "status", reference: "501", status: "success", chatId: 42, at: 7 },
    ]);

    // Indexed by the first write that carries the id (the create does not), and still found
    // after later writes that carry it unchanged (which skip the index).
    await store.create(order("504", { createdAt: 8, transactionId: "TX-4" }));
    const receipt = (n: number) => (cur: Order) => ({
      order: { ...cur, receiptMessageId: n },
      notifications: [],
    });
    expect((await store.update("504", receipt(1)))?.updated).toBe(true);
    expect((await store.update("504", receipt(2)))?.updated).toBe(true);
    expect((await h.second().getByTransactionId("TX-4"))?.receiptMessageId).toBe(2);

    const none = await store.update("502", () => null);
    expect(none?.updated).toBe(false);
    expect(none?.order.version).toBe(0);
    expect(await store.update("999", () => null)).toBeNull();
  });

  it("loses no write when two processes update the same order concurrently", async () => {
    const { store } = setup();
    await store.create(order("601"));
    const other = h.second();
    const writers = Array.from({ length: 24 }, (_, i) =>
      (i % 2 ? store : other).update("601", (cur) => ({
        order: {
          ...cur,
          history: [...cur.history, { source: "system", status: null, at: 100 + i, note: `w${i}` }],
        },
        notifications: [],
      })),
    );
    await Promise.all(writers);
    const final = await store.get("601");
    expect(final?.version).toBe(24);
    expect(new Set(final?.history.map((h) => h.note).filter(Boolean)).size).toBe(24);
  });

  // Review s31-orders, 2: one recharge is one order's. A write giving an order a transaction id
  // indexed to another order is refused whole (not its status, not its notifications), and the
  // mutation runs again knowing whose it is; the index keeps the first order.
  it("refuses a transaction id another order holds: the mutation runs again knowing it", async () => {
    const { store } = setup();
    await store.create(order("701"));
    await store.create(order("702"));
    const seen: Array<TakenTransaction | undefined> = [];
    const give = (at: number) => (cur: Order, taken?: TakenTransaction) => {
      seen.push(taken);
      if (taken) {
        const note = `${taken.transactionId} is ${taken.reference}'s`;
        const history = [...cur.history, { source: "system" as const, status: null, at, note }];
        return { order: { ...cur, history }, notifications: [] };
      }
      const t = transition(cur, { source: "execute", status: "queued", at, transactionId: "TX-7" });
      return { order: t.order, notifications: t.notifications };
    };
    expect((await store.update("701", give(2)))?.order.transactionId).toBe("TX-7");
    const r = await h.second().update("702", give(3));
    expect(seen).toEqual([undefined, undefined, { transactionId: "TX-7", reference: "701" }]);
    expect(r?.order).toMatchObject({ status: "placed", version: 1 });
    expect(r?.order.transactionId).toBeUndefined();
    expect(r?.order.history.at(-1)?.note).toBe("TX-7 is 701's");
    expect((await h.second().getByTransactionId("TX-7"))?.reference).toBe("701");
    expect((await h.outbox()).map((n) => n.reference)).toEqual(["701"]);
    // The order that holds it writes it again freely.
    expect((await store.update("701", give(4)))?.updated).toBe(true);
    expect(seen.at(-1)).toBeUndefined();
  });

  it("an order the caller read earlier saves a read, and a stale one loses no write", async () => {
    const { store } = setup();
    await store.create(order("602"));
    const stale = await store.get("602");
    if (!stale) throw new Error("order 602 missing");
    const note = (text: string) => (cur: Order) => ({
      order: {
        ...cur,
        history: [...cur.history, { source: "system" as const, status: null, at: 1, note: text }],
      },
      notifications: [],
    });
    await store.update("602", note("first"), stale);
    // `stale` is now one version behind: the write must not clobber "first".
    const second = await store.update("602", note("second"), stale);
    expect(second?.order.version).toBe(2);
    const final = await store.get("602");
    expect(final?.history.map((e) => e.note).filter(Boolean)).toEqual(["first", "second"]);
  });

  it("hands a mutation a copy: an order the caller holds stays as it was, nested parts included", async () => {
    const { store } = setup();
    await store.create(order("603", { details: {} }));
    const held = await store.get("603");
    if (!held) throw new Error("order 603 missing");
    const before = JSON.stringify(held);
    const result = await store.update(
      "603",
      (cur) => {
        cur.history.push({ source: "system", status: null, at: 2, note: "in place" });
        cur.history[0]!.at = -1;
        (cur.details as Record<string, unknown>).touched = true;
        cur.connectionNo = "0000000000";
        return null;
      },
      held,
    );
    expect(result?.updated).toBe(false);
    expect(JSON.stringify(held)).toBe(before);
    expect(JSON.stringify(result?.order)).toBe(before);
  });

  it("two processes applying different events concurrently both land, notifying once each", async () => {
    const { store } = setup();
    await store.create(order("602"));
    const apply = (s: OrderStore, e: Parameters<typeof transition>[1]) =>
      s.update("602", (cur) => {
        const t = transition(cur, e);
        return t.changed ? { order: t.order, notifications: t.notifications } : null;
      });
    await Promise.all([
      apply(store, { source: "execute", status: "queued", at: 2, transactionId: "TX-602" }),
      apply(h.second(), { source: "webhook", status: "pending", at: 3 }),
      apply(h.second(), { source: "webhook", status: "pending", at: 3 }),
    ]);
    const o = await store.get("602");
    expect(o?.status).toBe("pending");
    expect(o?.transactionId).toBe("TX-602");
    // Each state told at most once; pending only when it came first (queued -> pending is not
    // told: the receipt words both alike).
    const statuses = (await h.outbox()).map((n) => n.status);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.length).toBeGreaterThanOrEqual(1);
    const queuedFirst = o?.history.findIndex((e) => e.status === "queued") === 1;
    expect(statuses).toEqual(queuedFirst ? ["queued"] : ["pending"]);
  });

  it("keeps unmatched events for an admin, newest first", async () => {
    const { store } = setup();
    await store.recordUnmatched({ source: "webhook", reference: "1", receivedAt: 1 });
    await h.second().recordUnmatched({ source: "webhook", transactionId: "T", receivedAt: 2 });
    const list = await store.listUnmatched(10);
    expect(list.map((e) => e.receivedAt)).toEqual([2, 1]);
  });

  it("a claim check: one caller per order per cooldown, across processes, again once it is over", async () => {
    const { store } = setup();
    const t0 = 1_700_000_000_000;
    expect(await store.takeClaimCheck("41", t0, 600_000)).toBe(true);
    expect(await h.second().takeClaimCheck("41", t0, 600_000)).toBe(false);
    expect(await store.takeClaimCheck("41", t0 + 599_999, 600_000)).toBe(false);
    expect(await store.takeClaimCheck("42", t0 + 1, 600_000)).toBe(true);
    expect(await h.second().takeClaimCheck("41", t0 + 600_000, 600_000)).toBe(true);
    expect(await store.takeClaimCheck("41", t0 + 600_001, 600_000)).toBe(false);
  });
});

describe("order store (redis): the reference counter moved into the money slot", () => {
  let t: ReturnType<typeof testRedis>;
  afterEach(async () => {
    await t.cleanup();
  });

  it("starts from the counter as it was, a day ahead, and never writes the old one", async () => {
    t = testRedis("store-seq");
    const keys = keyspace(t.prefix);
    expect(keys.referenceSeq).toContain("{money}");
    let now = 5_000;
    const make = () =>
      createRedisOrderStore({ redis: t.connect(), prefix: t.prefix, now: () => now });
    // The version before numbered from the old key, ahead of the clock.
    await t.redis.set(keys.referenceSeqBefore, "9000000");
    const day = 86_400_000;
    const [a, b] = [make(), make()];
    // Two processes seed at once: one seed wins, every number is handed out once.
    const refs = await Promise.all([
      a.nextReference(),
      b.nextReference(),
      a.create(placedOrder({ reference: "1", idempotencyKey: "m-1" }), { numbered: true }),
      b.create(placedOrder({ reference: "1", idempotencyKey: "m-2" }), { numbered: true }),
    ]);
    const numbers = refs.map((r) => Number(typeof r === "string" ? r : r.order.reference));
    expect(new Set(numbers).size).toBe(4);
    for (const n of numbers) expect(n).toBeGreaterThan(9_000_000 + day);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(9_000_000 + day + 4);
    expect(await t.redis.get(keys.referenceSeqBefore)).toBe("9000000");
    // The clock far ahead of the seed: numbers follow the clock again.
    now = 9_000_000 + 2 * day;
    expect(Number(await a.nextReference())).toBe(now);
  });

  it("seeds from the clock, a day ahead, when there was no counter before", async () => {
    t = testRedis("store-seq");
    const store = createRedisOrderStore({ redis: t.redis, prefix: t.prefix, now: () => 5_000 });
    expect(await store.nextReference()).toBe(String(5_000 + 86_400_000 + 1));
  });

  it("numbers a process's first order on a counter not there yet in one pass; later ones read no old key", async () => {
    t = testRedis("store-seq");
    const keys = keyspace(t.prefix);
    await t.redis.set(keys.referenceSeqBefore, "9000000");
    const store = createRedisOrderStore({ redis: t.connect(), prefix: t.prefix, now: () => 5_000 });
    const monitor = await monitorCommands(t.prefix);
    const commands = () => monitor.drain((key) => t.redis.get(key));
    const reads = (cs: string[][], key: string) =>
      cs.filter((a) => a[0]?.toLowerCase() === "get" && a[1] === key).length;
    try {
      const first = await store.create(placedOrder({ reference: "1", idempotencyKey: "s-1" }), {
        numbered: true,
      });
      expect(first.order.reference).toBe(String(9_000_000 + 86_400_000 + 1));
      const one = await commands();
      // The counter read once (one pass of the create's script), the old key once (the seed).
      expect(reads(one, keys.referenceSeq)).toBe(1);
      expect(reads(one, keys.referenceSeqBefore)).toBe(1);
      const second = await store.create(placedOrder({ reference: "1", idempotencyKey: "s-2" }), {
        numbered: true,
      });
      expect(second.order.reference).toBe(String(9_000_000 + 86_400_000 + 2));
      const two = await commands();
      expect(reads(two, keys.referenceSeq)).toBe(1);
      expect(reads(two, keys.referenceSeqBefore)).toBe(0);
    } finally {
      monitor.stop();
    }
  });
});
