import { describe, expect, it } from "vitest";
import { useTopUpSystem } from "../support/topup-system.ts";

/**
 * "Save as…" under a success push is no order (review s33-rvtruth 3): the push just said "Total
 * paid", so its Cancel and Leave must not say "Cancelled. Nothing was charged." (read as the order
 * cancelled and not charged), nor its Leave question "Leave this order?". Prepaid: the order's
 * money is the customer's; the balance stays what the order left.
 */
describe("flows that are no order speak of what they are, not of charges", () => {
  const sys = useTopUpSystem(false);

  it("Save as… then /cancel: the saved numbers are as they were, nothing about a charge", async () => {
    const u = sys.ts().user(3394);
    await u.register();
    await u.credit(50_000);
    await u.mobileToConfirm("9841233394", "150");
    const { push } = await u.confirmUntil("succeeded");
    expect(push.text).toContain("Total paid: Rs 150");
    await u.tap("🏷 Save as…", /What should I call 9841233394\?/);
    const cancelled = await u.say("/cancel", /Cancelled/);
    expect(cancelled.text).not.toContain("Nothing was charged");
    expect(cancelled.text).toContain("your saved numbers are as they were");
    expect(await sys.balance(3394)).toBe(35_000);
  });

  it("Save as… then another command: the Leave question and its end name no order or charge", async () => {
    const u = sys.ts().user(3395);
    await u.register();
    await u.credit(50_000);
    await u.mobileToConfirm("9841233395", "150");
    await u.confirmUntil("succeeded");
    await u.tap("🏷 Save as…", /What should I call 9841233395\?/);
    const question = await u.say("/recharge", /Stop this\?/);
    expect(question.text).not.toContain("order");
    const after = u.lastId();
    u.emu.clickButton(u.id, "🚪 Leave", { messageId: question.id });
    await u.emu.waitForBotMessage(u.id, /What would you like to pay/, { afterId: after });
    const left = u.chat().find((m) => m.id === question.id)?.text ?? "";
    expect(left).not.toContain("Nothing was charged");
    expect(left).toContain("your saved numbers are as they were");
  });

  it("/status and /history's search, cancelled: no 'Nothing was charged' about a paid order", async () => {
    const u = sys.ts().user(3396);
    await u.register();
    await u.credit(50_000);
    await u.mobileToConfirm("9841233396", "150");
    await u.confirmUntil("succeeded");
    await u.say("/status", /Send the reference number/);
    const status = await u.say("/cancel", /Cancelled/);
    expect(status.text).not.toContain("Nothing was charged");
    expect(status.text).toContain("nothing was looked up");
    await u.say("/history", /Your last orders/);
    await u.tap("🔎 Search a number", /Which number or account/);
    const search = await u.say("/cancel", /Cancelled/);
    expect(search.text).not.toContain("Nothing was charged");
    expect(search.text).toContain("nothing was looked up");
    expect(await sys.balance(3396)).toBe(35_000);
  });

  it("a complaint left for another command: no 'Nothing was charged' about the order complained of", async () => {
    const u = sys.ts().user(3397);
    await u.register();
    await u.credit(50_000);
    await u.mobileToConfirm("9841233397", "150");
    const { ref } = await u.confirmUntil("succeeded");
    await u.tap("⚠️ Report a problem", new RegExp(`What went wrong with order ${ref}\\?`));
    const question = await u.say("/recharge", /Stop raising this complaint\?/);
    const after = u.lastId();
    u.emu.clickButton(u.id, "🚪 Leave", { messageId: question.id });
    await u.emu.waitForBotMessage(u.id, /What would you like to pay/, { afterId: after });
    const left = u.chat().find((m) => m.id === question.id)?.text ?? "";
    expect(left).not.toContain("Nothing was charged");
    expect(left).toContain("no complaint was raised or changed");
  });
});
