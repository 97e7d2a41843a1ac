import { afterEach, describe, expect, it } from "vitest";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { Order, OrderStatus } from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { matchesSearch, type OrderSearch, SEARCH_SCAN_BOUND } from "../../src/orders/search.ts";
import { backfillSearchIndex } from "../../src/orders/search-backfill.ts";
import type { OrderStore } from "../../src/orders/store.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * The order search (src/orders/search.ts) on both adapters: every criterion alone and together,
 * newest first, paging by cursor to the end with nothing twice and nothing left out, the bound on
 * the orders one page looks at, and the index written in the create's own step (numbered creates
 * and replays included). Every answer is checked against the same search done by hand over the
 * orders the test made, so the two adapters answer alike.
 */

interface Harness {
  store: OrderStore;
  /** Members in the index (Redis), or null where it cannot be seen (memory). */
  indexSize(): Promise<number | null>;
  close(): Promise<void>;
}

const adapters: Array<[string, () => Harness]> = [
  [
    "memory",
    () => ({
      store: createMemoryOrderStore({ now: () => 1_700_000_000_000 }),
      indexSize: async () => null,
      close: async () => {},
    }),
  ],
  [
    "redis",
    () => {
      const t = testRedis("search");
      const k = keyspace(t.prefix);
      return {
        store: createRedisOrderStore({
          redis: t.redis,
          prefix: t.prefix,
          now: () => 1_700_000_000_000,
        }),
        indexSize: () => t.redis.zcard(k.orderSearch),
        close: () => t.cleanup(),
      };
    },
  ],
];

const T0 = 1_700_000_000_000;
const MIN = 60_000;
const NUMBERS = ["9841234567", "9851000000", "98:1", "98:12", "नेपाल-1"];
const STATUSES: OrderStatus[] = ["placed", "pending", "success", "failed"];

/** 40 orders over 20 minutes (two a minute: ties on the time), numbers, users, states and kinds mixed. */
async function seed(store: OrderStore): Promise<Order[]> {
  const made: Order[] = [];
  for (let i = 0; i < 40; i++) {
    const reference = String(1_700_000_000_100 + ((i * 7) % 40));
    const o = placedOrder({
      reference,
      idempotencyKey: `seed-${i}`,
      userId: 500 + (i % 3),
      chatId: 500 + (i % 3),
      connectionNo: NUMBERS[i % NUMBERS.length]!,
      category: i % 7 < 3 ? "electricity" : "mobile",
      operatorId: 5 + (i % 2),
      createdAt: T0 + Math.floor(i / 2) * MIN,
      updatedAt: T0 + Math.floor(i / 2) * MIN,
    });
    await store.create(o);
    const status = STATUSES[i % STATUSES.length]!;
    if (status === "placed") {
      made.push(o);
      continue;
    }
    const r = await store.update(reference, (cur) => ({
      order: { ...cur, status, transactionId: `TX-${i}` },
      notifications: [],
    }));
    made.push(r!.order);
  }
  return made;
}

/** The same search by hand: every criterion, newest first, ties by reference as the index has them. */
function byHand(all: Order[], q: OrderSearch): string[] {
  return all
    .filter((o) => matchesSearch(o, q))
    .sort((a, b) => b.createdAt - a.createdAt || (a.reference < b.reference ? 1 : -1))
    .map((o) => o.reference);
}

/** Every page, by cursor (from `after`, else the first), until there is no `next`. */
async function allPages(store: OrderStore, q: OrderSearch, from?: string): Promise<string[][]> {
  const pages: string[][] = [];
  let after = from;
  for (let n = 0; n < 100; n++) {
    const page = await store.search({ ...q, after });
    pages.push(page.orders.map((o) => o.reference));
    if (!page.next) return pages;
    after = page.next;
  }
  throw new Error("no end of pages");
}

describe.each(adapters)("order search contract: %s", (_name, makeHarness) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("finds by every criterion alone and together, newest first", async () => {
    h = makeHarness();
    const all = await seed(h.store);
    const queries: OrderSearch[] = [
      { limit: 100 },
      { limit: 100, connectionNo: "9841234567" },
      { limit: 100, connectionNo: "98:1" },
      { limit: 100, connectionNo: "नेपाल-1" },
      { limit: 100, connectionNo: "98" },
      { limit: 100, userId: 501 },
      { limit: 100, userId: 501, connectionNo: "9851000000" },
      { limit: 100, status: "failed" },
      { limit: 100, category: "electricity", status: "success" },
      { limit: 100, operatorId: 6, userId: 502 },
      { limit: 100, from: T0 + 5 * MIN, to: T0 + 9 * MIN },
      { limit: 100, from: T0 + 5 * MIN, to: T0 + 9 * MIN, connectionNo: "98:12" },
      { limit: 100, to: T0 + 3 * MIN, status: "pending" },
      { limit: 100, from: T0 + 30 * MIN },
    ];
    for (const q of queries) {
      const page = await h.store.search(q);
      expect(
        page.orders.map((o) => o.reference),
        JSON.stringify(q),
      ).toEqual(byHand(all, q));
      expect(page.next).toBeUndefined();
    }
    // "98:1" is its own number: none of "98:12"'s orders, and a prefix alone finds nothing.
    const exact = await h.store.search({ limit: 100, connectionNo: "98:1" });
    expect(exact.orders.length).toBe(8);
    expect(exact.orders.every((o) => o.connectionNo === "98:1")).toBe(true);
    expect((await h.store.search({ limit: 100, connectionNo: "98" })).orders).toEqual([]);
  });

  it("finds by reference, alias and transaction id, with the other criteria as filters", async () => {
    h = makeHarness();
    const all = await seed(h.store);
    const failed = all.find((o) => o.status === "failed")!;
    const one = async (q: Omit<OrderSearch, "limit">) =>
      (await h.store.search({ limit: 10, ...q })).orders.map((o) => o.reference);
    expect(await one({ reference: failed.reference })).toEqual([failed.reference]);
    expect(await one({ transactionId: failed.transactionId })).toEqual([failed.reference]);
    expect(await one({ reference: failed.reference, status: "failed" })).toEqual([
      failed.reference,
    ]);
    expect(await one({ reference: failed.reference, status: "success" })).toEqual([]);
    expect(await one({ transactionId: failed.transactionId, from: failed.createdAt + 1 })).toEqual(
      [],
    );
    expect(await one({ reference: "999999999999999" })).toEqual([]);
    expect(await one({ transactionId: "TX-none" })).toEqual([]);
    await h.store.create(
      placedOrder({
        reference: "77",
        idempotencyKey: "alias",
        category: "datapack",
        details: { packageId: "P1", packageName: "1 GB" },
        executeReference: "LST-9",
      }),
    );
    expect(await one({ reference: "LST-9" })).toEqual(["77"]);
  });

  it("pages by cursor to the end: nothing twice, nothing left out, newer orders not in between", async () => {
    h = makeHarness();
    const all = await seed(h.store);
    for (const q of [
      { limit: 7 },
      { limit: 3, connectionNo: "9841234567" },
      { limit: 4, status: "success" as const },
      { limit: 5, userId: 500, from: T0 + 2 * MIN, to: T0 + 15 * MIN },
    ]) {
      const first = await h.store.search(q);
      // An order placed after the first page was read is newer: it does not show on later pages.
      await h.store.create(
        placedOrder({
          reference: String(1_700_000_009_000 + q.limit),
          idempotencyKey: `late-${q.limit}`,
          // Matches only the first query's criteria (none): the later ones start from a clean slate.
          connectionNo: "9800000000",
          userId: 9999,
          createdAt: T0 + 60 * MIN,
          updatedAt: T0 + 60 * MIN,
        }),
      );
      expect(first.next).toBeDefined();
      const pages = [
        first.orders.map((o) => o.reference),
        ...(await allPages(h.store, q, first.next)),
      ];
      expect(pages.flat(), JSON.stringify(q)).toEqual(byHand(all, q));
      // From the start again, the newer order comes first (unless the range leaves it out).
      const again = (await allPages(h.store, q)).flat();
      expect(again.slice(again.length - byHand(all, q).length)).toEqual(byHand(all, q));
      expect(pages.slice(0, -1).every((p) => p.length === q.limit)).toBe(true);
    }
  });

  it("looks at a bounded number of orders per page, and the cursor goes on from there", async () => {
    h = makeHarness();
    const n = SEARCH_SCAN_BOUND + 50;
    for (let i = 0; i < n; i++) {
      await h.store.create(
        placedOrder({
          reference: String(1_000 + i),
          idempotencyKey: `many-${i}`,
          // Only the oldest order has this operator.
          operatorId: i === 0 ? 99 : 5,
          createdAt: T0 + i,
          updatedAt: T0 + i,
        }),
      );
    }
    const first = await h.store.search({ limit: 10, operatorId: 99 });
    expect(first.orders).toEqual([]);
    expect(first.scanned).toBe(SEARCH_SCAN_BOUND);
    expect(first.next).toBeDefined();
    const second = await h.store.search({ limit: 10, operatorId: 99, after: first.next });
    expect(second.orders.map((o) => o.reference)).toEqual(["1000"]);
    expect(second.scanned).toBe(50);
    expect(second.next).toBeUndefined();
    // Without a filter a page reads only what it shows (and one more, to know of a next).
    const plain = await h.store.search({ limit: 10 });
    expect(plain.scanned).toBe(10);
    expect(plain.orders[0]?.reference).toBe(String(1_000 + n - 1));
    if ((await h.indexSize()) !== null) expect(await h.indexSize()).toBe(3 * n);
  });

  it("indexes a numbered order under its real reference, once per idempotency key", async () => {
    h = makeHarness();
    const base = placedOrder({
      reference: "1",
      idempotencyKey: "numbered",
      connectionNo: "9800000001",
      createdAt: T0,
      updatedAt: T0,
    });
    const a = await h.store.create(base, { numbered: true });
    const b = await h.store.create(base, { numbered: true });
    expect(b.created).toBe(false);
    const found = await h.store.search({ limit: 10, connectionNo: "9800000001" });
    expect(found.orders.map((o) => o.reference)).toEqual([a.order.reference]);
    expect((await h.store.search({ limit: 10, userId: base.userId })).orders.length).toBe(1);
    if ((await h.indexSize()) !== null) expect(await h.indexSize()).toBe(3);
  });

  it("clamps the limit and answers an empty store with an empty page", async () => {
    h = makeHarness();
    expect(await h.store.search({ limit: 0 })).toEqual({ orders: [], scanned: 0 });
    await seed(h.store);
    expect((await h.store.search({ limit: 0 })).orders.length).toBe(1);
    expect((await h.store.search({ limit: 1000 })).orders.length).toBe(40);
  });
});

describe("order search (redis): the index for orders created before it", () => {
  it("is written by the backfill from the orders themselves, and a second run adds nothing", async () => {
    const t = testRedis("search-backfill");
    try {
      const store = createRedisOrderStore({ redis: t.redis, prefix: t.prefix });
      const all = await seed(store);
      await t.redis.del(keyspace(t.prefix).orderSearch);
      expect((await store.search({ limit: 100 })).orders).toEqual([]);
      expect(await backfillSearchIndex(t.redis, t.prefix, 7)).toBe(3 * all.length);
      expect(await backfillSearchIndex(t.redis, t.prefix)).toBe(0);
      for (const q of [
        { limit: 100 },
        { limit: 100, connectionNo: "98:12", status: "failed" as const },
      ])
        expect((await store.search(q)).orders.map((o) => o.reference)).toEqual(byHand(all, q));
    } finally {
      await t.cleanup();
    }
  });
});
