import { afterAll, describe, expect, it } from "vitest";
import {
  type Crossings,
  createCollisionAlert,
  createHourlyAlertsFlush,
  createMemoryCrossings,
  createRedisCrossings,
} from "../../src/books/index.ts";
import type { Notification, Order } from "../../src/orders/model.ts";
import { adminAlertReader } from "../support/books.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * The reference-collision alert's words say truly what became of the orders counted (session
 * 32). An execute refused for a reference the aggregator holds fails its order and returns the
 * money; a status answer about another recharge, or an answer giving the order another order's
 * transaction, leaves it open with the money held, for an admin to settle by hand. Counted in one
 * window, the count read "N more order(s) refused the same way" and the flush "Execute refused
 * ...", as if every order counted had been refused and closed. Now each fate has its own count and
 * words. Memory and real Redis crossings, the alerts read from the outbox.
 */

const r = testRedis("collision-open-words");
afterAll(() => r.cleanup());
const ADMIN = 9_301;
const HOUR = 3_600_000;
/** 10:00 UTC: the words say "since 10:00 UTC". */
const T0 = Date.UTC(2026, 10, 28, 10, 0, 0);

type AdminAlert = Extract<Notification, { kind: "admin_alert" }>;

function inMemory() {
  const seen: Notification[] = [];
  const c = createMemoryCrossings({ append: (ns) => seen.push(...ns) });
  return {
    c,
    alerts: async () => seen.filter((n): n is AdminAlert => n.kind === "admin_alert"),
  };
}

function onRedis(): { c: Crossings; alerts: () => Promise<AdminAlert[]> } {
  return {
    c: createRedisCrossings(r.redis, r.prefix),
    alerts: adminAlertReader(r.redis, r.prefix),
  };
}

const order = (n: number, status: Order["status"]) =>
  placedOrder({ reference: String(1_700_000_003_000 + n), status });

const OPEN_NOTE =
  "status answer about another recharge under our reference: not applied; the order stays open with the customer's money held.";

describe.each([
  ["memory", inMemory],
  ["Redis", onRedis],
])("the collision alert's words on %s", (_, rig) => {
  it("orders left open are counted and told as open with the money held, to settle by hand; refused ones as failed with the money returned", async () => {
    const { c, alerts } = rig();
    const tell = createCollisionAlert({ crossings: c, adminChatIds: [ADMIN] });
    const flush = createHourlyAlertsFlush({ crossings: c, adminChatIds: [ADMIN] });
    // Open orders (an answer about another recharge): the first told, two counted.
    expect(await tell({ order: order(1, "unknown"), note: OPEN_NOTE, at: T0 })).toBe(true);
    for (const n of [2, 3])
      expect(await tell({ order: order(n, "pending"), note: OPEN_NOTE, at: T0 + n })).toBe(false);
    // A refused execute (the order failed): told at once, in its own count.
    expect(await tell({ order: order(4, "failed"), note: "refused", at: T0 + 10 })).toBe(true);
    expect(await tell({ order: order(5, "failed"), note: "refused", at: T0 + 11 })).toBe(false);
    const first = await alerts();
    expect(first.map((a) => a.reference)).toEqual([
      order(1, "unknown").reference,
      order(4, "failed").reference,
    ]);
    expect(first[0]?.note).toContain(
      "Further orders answered so within the hour stay open with their customer's money held",
    );
    expect(first[0]?.note).not.toContain("refused");

    // The hour ends with no order after it: the flush tells each count in its own words.
    await flush(T0 + HOUR + 20);
    const told = (await alerts()).slice(2);
    expect(told).toHaveLength(2);
    const open = told.find((a) => a.note?.includes(order(2, "pending").reference));
    const closed = told.find((a) => a.note?.includes(order(5, "failed").reference));
    expect(open?.note).toContain(
      "2 more order(s) answered about another recharge or with another order's transaction, each left open with its customer's money held since 10:00 UTC",
    );
    expect(open?.note).toContain("None of them was failed or settled");
    expect(open?.note).toContain("settled by hand with /settle");
    expect(open?.note).not.toMatch(/refused|failed and/);
    expect(open?.status).not.toBe("failed");
    expect(closed?.note).toContain("1 more order(s) refused the same way since 10:00 UTC");
    expect(closed?.note).toContain("Each of them failed and its customer's money was returned");
    expect(closed?.note).not.toContain("another recharge");
    expect(closed?.status).toBe("failed");
  });
});
