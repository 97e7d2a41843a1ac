import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Confirm sends the limits reservation and the order's create in one socket write; the create
 * runs only if the reservation said ok (orders/store.ts `guard`). A limit used up between the
 * confirmation and the tap (another chat's order) refuses at Confirm: no order, no hold, the
 * refusal said.
 */
describe("a limit used up between the confirmation and Confirm (Redis, prepaid)", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", ORDERS_PER_HOUR: "1" },
    });
  });
  afterAll(() => ts.cleanup());

  it("places nothing and holds nothing; the refusal is said", async () => {
    const userId = 30_101;
    const u = ts.user(userId);
    await u.register();
    await u.credit(100_000);
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841234567", /How much/);
    await u.say("150", /Please check your order/);
    // The hour's one order, reserved elsewhere meanwhile.
    expect(await ts.system.deps.limits.reserve(userId, 15_000, "elsewhere")).toEqual({ ok: true });
    await u.tap("✅ Confirm", /limit of orders per hour/);
    expect(await ts.system.orders.listByUser(userId, 10)).toEqual([]);
    const balance = await ts.system.ledger.balance(account.customer(userId));
    expect(balance.availablePaisa).toBe(100_000);
  });
});
