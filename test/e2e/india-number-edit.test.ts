import { describe, expect, it } from "vitest";
import { expectParts } from "../support/chat.ts";
import { detailsOf, useTestSystem } from "../support/system.ts";

/**
 * India prepaid: "✏️ Number" at the confirmation behaves as if the new number had been typed first
 * (review s32-flows, 6: the first number's operator and circle were kept, so the order went out
 * with the wrong operator). A number in another series is asked its operator again with its own
 * suggestion, then its plan; one whose series suggests the same keeps every answer.
 */
describe("India prepaid, the number edited at the confirmation", () => {
  const ts = useTestSystem();

  it("a number in another series: its operator suggested and asked, the plan asked, placed with it", async () => {
    const u = ts.user(8331);
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge\?/);
    await u.tap("📱 Prepaid mobile", /Which mobile number/);
    await u.say("9810012345", /Airtel Prepaid · Delhi NCR/);
    await u.tap("Airtel Prepaid · Delhi NCR (suggested)", /Choose a plan for 9810012345/);
    const first = await u.say("100", /Please check your order/);
    expectParts(first.text, ["Operator: Airtel Prepaid", "Circle: Delhi NCR", "Amount: ₹100"]);

    await u.tap("✏️ Number", /Which mobile number/);
    const ops = await u.say("9820012345", /Vi Prepaid · Mumbai|Please check your order/);
    expect(ops.text).toContain("9820012345 is in a number series of Vi Prepaid · Mumbai");
    expect(u.buttons(ops)[0]).toBe("Vi Prepaid · Mumbai (suggested)");
    // Back from it: the number question of the edit, and the same operator question again.
    await u.tap("‹ Back", /Which mobile number/);
    await u.say("9820012345", /Vi Prepaid · Mumbai/);
    await u.tap("Vi Prepaid · Mumbai (suggested)", /Choose a plan for 9820012345/);
    const confirm = await u.say("120", /Please check your order/);
    expectParts(confirm.text, [
      "Number / account: 9820012345",
      "Operator: Vi Prepaid",
      "Circle: Mumbai",
      "Amount: ₹120",
    ]);
    expect(confirm.text).not.toMatch(/Airtel|Delhi/);
    const { ref } = await u.confirmUntil("succeeded");
    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({ operatorId: 203, connectionNo: "9820012345" });
    expect(detailsOf(order, "india").circleId).toBe("15");
  });

  it("another operator picked for the new series: its circle asked, the series' circle first", async () => {
    const u = ts.user(8332);
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge\?/);
    await u.tap("📱 Prepaid mobile", /Which mobile number/);
    await u.say("6123456789", /which operator/);
    await u.tap("Jio Prepaid", /Which telecom circle/);
    await u.say("punjab", /Choose a plan for 6123456789/);
    await u.say("150", /Please check your order/);

    await u.tap("✏️ Number", /Which mobile number/);
    const ops = await u.say("9415012345", /BSNL Prepaid · UP East|Please check your order/);
    expect(ops.text).toContain("9415012345 is in a number series of BSNL Prepaid · UP East");
    const circles = await u.tap("Jio Prepaid", /Which telecom circle/);
    expect(u.buttons(circles)[0]).toBe("UP East (suggested)");
    await u.tap("UP East (suggested)", /Choose a plan for 9415012345/);
    const confirm = await u.say("150", /Please check your order/);
    expectParts(confirm.text, ["Operator: Jio Prepaid", "Circle: UP East", "Amount: ₹150"]);
    expect(confirm.text).not.toContain("Punjab");
    await u.tap("✖ Cancel", /Cancelled/);
  });

  it("a number whose series suggests the same keeps operator, circle and amount", async () => {
    const u = ts.user(8333);
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge\?/);
    await u.tap("📱 Prepaid mobile", /Which mobile number/);
    await u.say("9810012345", /Airtel Prepaid · Delhi NCR/);
    await u.tap("Airtel Prepaid · Delhi NCR (suggested)", /Choose a plan for 9810012345/);
    await u.say("100", /Please check your order/);
    await u.tap("✏️ Number", /Which mobile number/);
    const again = await u.say("9818012345", /Please check your order/);
    expectParts(again.text, [
      "Number / account: 9818012345",
      "Operator: Airtel Prepaid",
      "Circle: Delhi NCR",
      "Amount: ₹100",
    ]);
    await u.tap("✖ Cancel", /Cancelled/);
  });
});
