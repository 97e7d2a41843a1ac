import { afterEach, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/** Wallet protection and idle conversations, as a user meets them. */
describe("per-user limits and idle conversations", () => {
  let ts: TestSystem | undefined;
  afterEach(async () => {
    await ts?.cleanup();
    ts = undefined;
  });

  const REFUSED_OR_CONFIRM = /Please check your order|limit|many orders/;

  it("refuses an order that would pass the daily spend cap, before anything is charged", async () => {
    ts = await startTestSystem({ env: { DAILY_SPEND_CAP: "500" } });
    const u = ts.user(901);
    await u.mobileToConfirm("9841000901", "300", REFUSED_OR_CONFIRM);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    const refused = await u.mobileToConfirm("9841000901", "300", REFUSED_OR_CONFIRM);
    expect(refused.text).toBe(
      "You have reached today's limit of Rs 500 for orders. Please try again tomorrow.",
    );
    expect(await ts.system.orders.listByUser(901, 10)).toHaveLength(1);
    // Another user has a cap of their own.
    const other = ts.user(902);
    expect((await other.mobileToConfirm("9841000902", "300", REFUSED_OR_CONFIRM)).text).toContain(
      "Please check your order",
    );
  });

  it("refuses more orders per hour than configured", async () => {
    ts = await startTestSystem({ env: { ORDERS_PER_HOUR: "1" } });
    const u = ts.user(903);
    await u.mobileToConfirm("9841000903", "100", REFUSED_OR_CONFIRM);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    await u.waitFor(new RegExp(`Order ${ref} succeeded`));
    const refused = await u.mobileToConfirm("9841000903", "100", REFUSED_OR_CONFIRM);
    expect(refused.text).toContain("You have placed many orders in the last hour");
    expect(await ts.system.orders.listByUser(903, 10)).toHaveLength(1);
  });

  it("ends a conversation left idle with a notice, and the next /recharge starts afresh", async () => {
    ts = await startTestSystem({ env: { CONVERSATION_IDLE_MS: "1000" } });
    const u = ts.user(904);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await new Promise((r) => setTimeout(r, 1200));
    const notice = await u.say("9841000904", /ended after/);
    expect(notice.text).toBe(
      "Your previous request ended after 1 minute without an answer. Nothing was charged. Send /recharge to start again.",
    );
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841000904", /Operator for 9841000904/);
    expect(await ts.system.orders.listByUser(904, 10)).toEqual([]);
  });
});
