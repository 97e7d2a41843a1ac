import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCollisionAlert, createRedisCrossings } from "../../src/books/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createRedisLedger, type LedgerStore } from "../../src/ledger/index.ts";
import { toExecuteRequest } from "../../src/orders/execute-request.ts";
import type { Notification } from "../../src/orders/model.ts";
import { orderPartsOf } from "../../src/orders/parts.ts";
import { eventFromExecute } from "../../src/orders/provider-events.ts";
import type { Orders } from "../../src/orders/service.ts";
import {
  adminAlertsOf,
  availableOf,
  creditCustomer,
  ordersOnRedis,
  outboxOf,
  type SandboxAggregator,
  startQuickSandbox,
} from "../support/order-rig.ts";
import { mobileInput, testRedis } from "../support/orders.ts";

/**
 * Review s25-e, 1: a reference the aggregator already holds for another recharge (the counter set
 * back by a restore re-mints a lost order's reference). Our execute is sent once, so a "duplicate"
 * refusal means ours was not executed: it fails at once, its hold returned, the admins alerted.
 * (A status answer under our reference about another recharge, when that refusal is lost, is in
 * status-answer-fits.test.ts: recorded, not applied, the hold kept, the admins alerted once.)
 * The sandbox aggregator, real Redis.
 */

const TOKEN = "dup-other-token";
const FUNDED = 100_000;
const ADMIN = 9001;
type AdminNotification = Extract<Notification, { kind: "admin_alert" }>;

/**
 * The lost order: the same reference, another number and amount, executed at the aggregator;
 * ours is placed with its hold on a credited balance.
 */
async function heldElsewhere(
  at: { orders: Orders; ledger: LedgerStore; aggregator: SandboxAggregator },
  userId: number,
  connectionNo: string,
) {
  await creditCustomer(at.ledger, userId, FUNDED);
  const placed = await at.orders.place(
    mobileInput({ userId, chatId: userId, connectionNo, amountPaisa: 10_000 }),
  );
  const other = await at.aggregator.client.execute(
    toExecuteRequest(
      { ...placed, connectionNo: "9841799999", amountPaisa: 50_000 },
      orderPartsOf(CATEGORY_MODULES),
    ),
  );
  expect(other.kind).toBe("accepted");
  return placed;
}

describe("a reference the aggregator already holds for another recharge", () => {
  const r = testRedis("dup-other");
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN);
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  it("a duplicate refusal fails ours at once, its hold returned, the admins alerted once", async () => {
    const orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      adminChatIds: [ADMIN],
      onAdminNote: createCollisionAlert({
        crossings: createRedisCrossings(r.redis, r.prefix),
        adminChatIds: [ADMIN],
      }),
    });
    const userId = 2591;
    const placed = await heldElsewhere({ orders, ledger, aggregator }, userId, "9841259101");
    const sent = await orders.submit(placed.reference, { known: placed });
    expect(sent.status).toBe("failed");
    expect(await availableOf(ledger, userId)).toBe(FUNDED);
    const alerts = await adminAlertsOf(r, placed.reference);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.chatId).toBe(ADMIN);
  });
});

/**
 * A counter set back by a restore refuses order after order. Each fails at once with its hold
 * returned and the refusal in its history, but the admins get the first at once and at most one
 * alert an hour after it (books/hourly-alert.ts, as the figures alert): before, one alert per
 * order per admin. The orders' clock is the test's.
 */
describe("reference collisions, order after order", () => {
  const r = testRedis("dup-hourly");
  let aggregator: SandboxAggregator;
  let ledger: LedgerStore;
  let clock = Date.UTC(2026, 10, 27, 6, 0);

  beforeAll(async () => {
    aggregator = await startQuickSandbox(TOKEN);
    ledger = createRedisLedger({ redis: r.redis, prefix: r.prefix });
  });

  afterAll(async () => {
    await aggregator.close();
    await r.cleanup();
  });

  it("the admins told of the first at once, the others counted in the next alert, an hour on", async () => {
    const ADMINS = [ADMIN, ADMIN + 1];
    const orders = ordersOnRedis(r, {
      accessMode: "prepaid",
      provider: aggregator.client,
      adminChatIds: ADMINS,
      now: () => clock,
      onAdminNote: createCollisionAlert({
        crossings: createRedisCrossings(r.redis, r.prefix),
        adminChatIds: ADMINS,
      }),
    });
    const collide = async (i: number) => {
      const userId = 2620 + i;
      const placed = await heldElsewhere(
        { orders, ledger, aggregator },
        userId,
        `98412620${10 + i}`,
      );
      const sent = await orders.submit(placed.reference, { known: placed });
      expect(sent.status).toBe("failed");
      expect(sent.history.some((h) => /already held by the aggregator/.test(h.note ?? ""))).toBe(
        true,
      );
      expect(await availableOf(ledger, userId)).toBe(FUNDED);
      return placed.reference;
    };
    const alerts = async () =>
      (await outboxOf(r)).filter((n): n is AdminNotification => n.kind === "admin_alert");
    const first = await collide(0);
    const counted = [await collide(1), await collide(2), await collide(3)];
    // One alert per admin, for the first: the three after it within the hour only counted.
    let told = await alerts();
    expect(told.map((a) => [a.chatId, a.reference]).sort()).toEqual(
      ADMINS.map((chatId) => [chatId, first]),
    );
    expect(told[0]?.note).toMatch(/already holds/);
    // An hour on, the next is told with the count of the ones before it.
    clock += 3_600_000;
    const later = await collide(4);
    told = (await alerts()).filter((a) => a.reference === later);
    expect(told.map((a) => a.chatId).sort()).toEqual(ADMINS);
    expect(told[0]?.note).toContain(`Also 3 more order(s) refused the same way since 06:00 UTC`);
    for (const ref of counted) expect(told[0]?.note).toContain(ref);
  });
});

describe("which refusals name a reference collision", () => {
  const refused = (httpStatus: number, message: string) =>
    eventFromExecute(
      { kind: "rejected", referenceNo: "1001", httpStatus, message, rateLimited: false },
      5,
    );

  it("a 409 or words naming the reference: failed, the admins told", () => {
    for (const [code, words] of [
      [409, "Conflict"],
      [400, "Duplicate reference_no"],
      [200, "Duplicate reference_no 1001: already exists"],
      [400, "order_id 1001 already exists"],
    ] as const) {
      const e = refused(code, words);
      expect(e.status).toBe("failed");
      expect(e.adminNote).toMatch(/already holds/);
    }
  });

  // Review s25-e (note): the aggregator's own guard against a repeat of the same number and
  // amount proves nothing was executed and names no reference: a plain refusal, no alert.
  it("a duplicate transaction of the same number and amount: failed, nobody alerted", () => {
    const e = refused(400, "Duplicate transaction: same number and amount within 5 minutes");
    expect(e.status).toBe("failed");
    expect(e.adminNote).toBeUndefined();
  });
});
