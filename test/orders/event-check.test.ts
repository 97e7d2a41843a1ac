import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { type OrderEvent, orderEventSchema } from "../../src/orders/model.ts";
import { derivedCheck } from "../../src/orders/order-check.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { createOrders } from "../../src/orders/service.ts";
import { passedAgreeWithParse } from "../support/json-edits.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * The check derived from orderEventSchema (order-check.ts): whatever it passes, the parse must
 * accept and give back equal. Not used by apply (it measured no cheaper than the parse: see
 * docs/performance.md, "h-event"); tested so that a use of it starts from a proven check. And the
 * order apply writes never shares an object with the caller's event (the parse's copy).
 */

const check = derivedCheck(orderEventSchema);

const wallet = {
  amountPaisa: 10_000,
  serviceChargePaisa: 0,
  instantDiscountPaisa: 0,
  debitAmountPaisa: 10_000,
  creditAvailablePaisa: null,
  commissionPaisa: -3,
  source: "execute" as const,
};

/** An event with every optional field set (the parse accepts it). */
const full: OrderEvent = orderEventSchema.parse({
  source: "admin",
  status: "success",
  at: 10,
  note: "n",
  transactionId: "TX-1",
  providerMessage: "m",
  payload: '{"status":"success"}',
  unrecognised: "weird",
  wallet,
  floatShort: true,
  expect: ["queued", "pending"],
  adminNote: "a",
  flag: { adminChatIds: [1, 2] },
  settle: { by: 1, approvedBy: 2, proposedAt: 3, reason: "r", aggregator: "", admins: [1, 2] },
  propose: { by: 1, outcome: "failed", reason: "r", admins: [1] },
  withdraw: { by: 1, proposal: { by: 2, at: 3 }, declined: false },
});
/** The webhook's events (src/webhook/apply.ts) and an execute answer's. */
const fixtures: OrderEvent[] = [
  full,
  { source: "webhook", payload: "{}", status: "pending", at: 5, expect: ["queued", "pending"] },
  { source: "webhook", payload: "{}", status: "success", at: 5, transactionId: "77" },
  { source: "webhook", payload: "{}", status: null, at: 5, note: "claimed success" },
  { source: "webhook", payload: "{}", status: null, at: 5, unrecognised: "weird" },
  { source: "execute", status: "queued", at: 5, transactionId: "TX-5", wallet, floatShort: true },
  { source: "admin", status: null, at: 5, withdraw: { by: 1, proposal: { by: 2, at: 3 } } },
];

describe("the event's derived check (order-check.ts)", () => {
  it("reads every part orderEventSchema is made of", () => {
    expect(check).not.toBeNull();
  });

  it("passes the valid events as they are", () => {
    for (const e of fixtures) {
      expect(check?.(e)).toBe(true);
      expect(orderEventSchema.parse(e)).toStrictEqual(e);
    }
  });

  // 20,000 random edits: about 10 s on a loaded 2-core machine, over the 20 s default with a
  // second worker beside it (seen at 22.7 s). A wider limit, not fewer runs.
  it("passes nothing the parse would refuse or change (random edits of valid events)", {
    timeout: 90_000,
  }, () => {
    expect(passedAgreeWithParse(orderEventSchema, check, fixtures)).toBeGreaterThan(100);
  });

  it("refuses what the parse must strip or refuse", () => {
    expect(check?.({ ...full, reference: "1" })).toBe(false);
    const withdraw = { by: 1, proposal: { by: 2, at: 3 }, declined: true };
    expect(check?.({ ...full, withdraw })).toBe(true);
    expect(check?.({ ...full, withdraw: { ...withdraw, x: 1 } })).toBe(false);
    for (const bad of [
      { ...full, status: "lost" },
      { ...full, at: 1.5 },
      { ...full, withdraw: { ...withdraw, declined: "yes" } },
      { ...full, note: "x".repeat(301) },
      { ...full, flag: { adminChatIds: [2 ** 53] } },
    ]) {
      expect(check?.(bad)).toBe(false);
      expect(() => orderEventSchema.parse(bad)).toThrow(z.ZodError);
    }
  });

  it("reads z.boolean() as a boolean only, and a boolean with checks not at all", () => {
    const b = derivedCheck(z.object({ a: z.boolean() }));
    expect(b?.({ a: true })).toBe(true);
    expect(b?.({ a: false })).toBe(true);
    for (const a of [0, 1, "true", null, undefined]) expect(b?.({ a })).toBe(false);
    expect(derivedCheck(z.object({ a: z.coerce.boolean() }))).toBeNull();
    expect(derivedCheck(z.object({ a: z.stringbool() }))).toBeNull();
  });
});

/**
 * The Redis store writes and returns the order the transition made as it is (validOrder): the
 * event's objects it put there must be copies (zod's parse in apply), not the caller's (review
 * s26-c's rule). Guards: any cut of the event's parse must keep a copy.
 */
describe("apply's written order and the caller's event (Redis store)", () => {
  const t = testRedis("event-check");
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store: createRedisOrderStore({ redis: t.redis, prefix: t.prefix }),
    provider: {
      execute: () => Promise.reject(new Error("not used")),
      statusByReference: () => Promise.reject(new Error("not used")),
    },
  });
  afterAll(() => t.cleanup());

  const created = async (reference: string) => {
    const order = placedOrder({ reference, idempotencyKey: `ev-${reference}`, status: "queued" });
    order.history.push({ source: "execute", status: "queued", at: 2 });
    await orders.store.create(order);
    return order;
  };

  it("a wallet mutated by the caller after apply leaves the written order as written", async () => {
    const order = await created("7200000000001");
    const input = {
      reference: order.reference,
      source: "execute" as const,
      status: "pending" as const,
      at: 3,
      wallet: { ...wallet },
    };
    const result = await orders.apply(input);
    expect(result.outcome).toBe("changed");
    expect(result.order?.wallet).toStrictEqual(wallet);
    input.wallet.debitAmountPaisa = 1;
    expect(result.order?.wallet).toStrictEqual(wallet);
    expect((await orders.get(order.reference))?.wallet).toStrictEqual(wallet);
  });

  it("a settlement's admins mutated by the caller after apply leave the written order as written", async () => {
    const order = await created("7200000000002");
    const settle = { by: 1, reason: "checked", aggregator: "", admins: [1, 2] };
    const input = {
      reference: order.reference,
      source: "admin" as const,
      status: "failed" as const,
      at: 3,
      settle,
    };
    const result = await orders.apply(input);
    expect(result.outcome).toBe("changed");
    expect(result.order?.settled?.admins).toStrictEqual([1, 2]);
    settle.admins.push(99);
    expect(result.order?.settled?.admins).toStrictEqual([1, 2]);
  });
});
