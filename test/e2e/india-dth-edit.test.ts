import { describe, expect, it } from "vitest";
import { expectParts } from "../support/chat.ts";
import { useTestSystem } from "../support/system.ts";

/**
 * India DTH: "✏️ Number" at the confirmation is another subscriber with a bill of their own, so the
 * amount is asked again (review s32-flows, 3: the other subscriber's monthly recharge was kept).
 */
describe("India DTH, the number edited at the confirmation", () => {
  const ts = useTestSystem();

  it("asks the plan again for the new subscriber and pays their monthly recharge", async () => {
    const u = ts.user(8321);
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge\?/);
    await u.tap("📡 DTH (TV)", /Your DTH subscriber id/);
    await u.say("1234560000", /which operator/);
    await u.tap("Tata Play", /Which telecom circle/);
    // The sandbox's subscriber 1234560000 recharges ₹299 a month, 1234560002 ₹450.
    await u.say("mumbai", /Choose a plan for 1234560000/);
    const first = await u.tap("Pay the monthly recharge: ₹299", /Please check your order/);
    expectParts(first.text, ["Number / account: 1234560000", "Amount: ₹299"]);
    await u.tap("✏️ Number", /subscriber id/);
    const plans = await u.say("1234560002", /Choose a plan for 1234560002/);
    expect(u.botTexts().join("\n")).toContain("Monthly recharge: ₹450");
    expect(u.buttons(plans)).toContain("Pay the monthly recharge: ₹450");
    const confirm = await u.tap("Pay the monthly recharge: ₹450", /Please check your order/);
    expectParts(confirm.text, ["Number / account: 1234560002", "Amount: ₹450"]);
    expect(confirm.text).not.toContain("₹299");
  });

  it("keeps the plan of a prepaid number when the number is edited", async () => {
    const u = ts.user(8322);
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge\?/);
    await u.tap("📱 Prepaid mobile", /Which mobile number/);
    await u.say("9876543210", /which operator/);
    await u.tap("Jio Prepaid", /Which telecom circle/);
    await u.say("mumbai", /Choose a plan for 9876543210/);
    const first = await u.say("350", /Please check your order/);
    expectParts(first.text, ["Amount: ₹350"]);
    await u.tap("✏️ Number", /Which mobile number/);
    const again = await u.say("9876543211", /Please check your order/);
    expectParts(again.text, ["Number / account: 9876543211", "Amount: ₹350"]);
  });
});
