import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * The confirmation's limits check and its balance read are begun together (one socket write): a
 * refusal still wins, so a customer the limits refuse is told the limit even when the balance
 * read fails at that moment.
 */
describe("the confirmation's limit refusal comes before its balance read", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({
      redis: true,
      env: { ACCESS_MODE: "prepaid", DAILY_SPEND_CAP: "500" },
    });
  });
  afterAll(() => ts.cleanup());

  it("says the daily limit when the balance cannot be read", async () => {
    const userId = 30_211;
    const u = ts.user(userId);
    await u.register();
    await u.credit(100_000);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841000211", /How much\? Type an amount from Rs 50 to Rs 500,/);
    // Rs 400 of today's Rs 500 spent meanwhile (another chat), and the balance unreadable.
    const other = await ts.system.deps.limits.reserve(userId, 40_000, "another-chat-order");
    expect(other.ok).toBe(true);
    const payment = ts.system.deps.payment;
    const read = payment.availablePaisa;
    payment.availablePaisa = () => Promise.reject(new Error("balance read failed"));
    try {
      const refused = await u.say("300", /limit/);
      expect(refused.text).toContain("today's limit of Rs 500, and Rs 100 of it is left today");
    } finally {
      payment.availablePaisa = read;
    }
    expect(await ts.system.orders.listByUser(userId, 10)).toHaveLength(0);
  });
});
