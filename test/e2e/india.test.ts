import { describe, expect, it } from "vitest";
import { expectFailurePush, expectParts } from "../support/chat.ts";
import { detailsOf, ledgerFor, type TestUser, useTestSystem } from "../support/system.ts";

/** The India recharge flow end to end: kind, number, operator, circle, plan or amount (₹), push. */
describe("India recharge, end to end", () => {
  const ts = useTestSystem();

  async function startIndia(u: TestUser) {
    return u.menu("🇮🇳 India recharge", /India: what do you want to recharge\?/);
  }

  it("recharges a prepaid number with a plan from the list and pushes the success", async () => {
    const u = ts.user(801);
    const kinds = await startIndia(u);
    expect(u.buttons(kinds)).toEqual([
      "📱 Prepaid mobile",
      "🧾 Postpaid mobile",
      "📡 DTH (TV)",
      "✖ Cancel",
    ]);
    await u.tap("📱 Prepaid mobile", /Which mobile number\? \(10 digits; \+91 is fine\)/);
    // 9876… is in no series of the table: the plain list.
    const ops = await u.say("+91 98765 43210", /Prepaid mobile: which operator\?/);
    expect(u.buttons(ops)).toEqual([
      "Jio Prepaid",
      "Airtel Prepaid",
      "Vi Prepaid",
      "BSNL Prepaid",
      "‹ Back",
      "✖ Cancel",
    ]);
    const circles = await u.tap("Airtel Prepaid", /Which telecom circle \(state\)/);
    expect(circles.text).toContain("You can also type part of the name to search.");
    expect(u.buttons(circles)).toContain("1/3");
    const plans = await u.say(
      "delhi",
      /Choose a plan for 9876543210, or type an amount from ₹50 to ₹5,000/,
    );
    expect(u.buttons(plans)).toContain("₹299 · 28 days · Unlimited calls, 2 GB/day, 100 SMS/day");
    // Six plans, five to a page.
    expect(u.buttons(plans)).toContain("1/2");
    const confirm = await u.tap(
      "₹299 · 28 days · Unlimited calls, 2 GB/day, 100 SMS/day",
      /Please check your order/,
    );
    expectParts(confirm.text, [
      "Operator: Airtel Prepaid",
      "Number / account: 9876543210",
      "Circle: Delhi NCR",
      "Package: 28 days · Unlimited calls, 2 GB/day, 100 SMS/day",
      "Amount: ₹299",
    ]);
    const { ref, push } = await u.confirmUntil("succeeded");
    expect(push.text).toContain("Airtel Prepaid · 9876543210 · ₹299");

    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      status: "success",
      category: "india",
      region: "in",
      operatorId: 202,
      operatorTypeId: 1,
      connectionNo: "9876543210",
      amountPaisa: 29_900,
      details: { circleId: "5", packageName: "28 days · Unlimited calls, 2 GB/day, 100 SMS/day" },
    });
    expect(ledgerFor(ts, ref)).toMatchObject([
      { category: "india", connectionNo: "9876543210", amountPaisa: 29_900 },
    ]);
  });

  it("tells the user when a DTH recharge of a typed amount fails", async () => {
    const u = ts.user(802);
    await startIndia(u);
    await u.tap(
      "📡 DTH (TV)",
      /Your DTH subscriber id \(10 digits\) or the registered mobile number/,
    );
    const ops = await u.say("1234560000", /DTH \(TV\): which operator/);
    expect(u.buttons(ops)).toEqual([
      "Tata Play",
      "Airtel Digital TV",
      "Dish TV",
      "Sun Direct",
      "‹ Back",
      "✖ Cancel",
    ]);
    await u.tap("Tata Play", /Which telecom circle/);
    // Paging to the circle instead of searching.
    u.press("›");
    await u.emu.waitFor(() => u.buttons().includes("Mumbai"));
    const plans = await u.tap("Mumbai", /Choose a plan for 1234560000/);
    expect(u.buttons(plans)).toContain("₹450 · 1 month · Family HD Pack");
    const confirm = await u.say("350", /Please check your order/);
    expectParts(confirm.text, ["Operator: Tata Play", "Circle: Mumbai", "Amount: ₹350"]);
    expect(confirm.text).not.toContain("Package:");
    const { ref, push } = await u.confirmUntil("failed");
    expectFailurePush(push);
    expect(await ts.system.orders.get(ref)).toMatchObject({
      status: "failed",
      region: "in",
      operatorId: 221,
      operatorTypeId: 2,
      connectionNo: "1234560000",
      amountPaisa: 35_000,
      details: { circleId: "15" },
    });
  });

  it("re-asks with a reason at every step and keeps earlier answers", async () => {
    const u = ts.user(803);
    await startIndia(u);
    // Kind, with a way back from the number.
    await u.say("postpaid", /Please choose one of the buttons/);
    await u.tap("📱 Prepaid mobile", /Which mobile number/);
    await u.tap("‹ Back", /India: what do you want to recharge/);
    await u.tap("🧾 Postpaid mobile", /Which mobile number/);
    // Number.
    await u.say("12345", /5 digits; it needs exactly 10/);
    await u.say("98765abc", /Please use digits only/);
    u.emu.sendSticker(803);
    await u.waitFor(/Please answer with a text message/);
    await u.say("09123456789", /Postpaid mobile: which operator/);
    // Operator, then the circle.
    await u.say("jio", /Please choose one of the buttons/);
    await u.tap("Jio Postpaid", /Which telecom circle/);
    await u.say("atlantis", /Nothing matches "atlantis"/);
    await u.say("pradesh", /Matches for "pradesh"/);
    await u.tap("Himachal Pradesh", /Choose a plan for 9123456789/);
    // Plan or amount: amounts are checked against the bounds and shown in ₹.
    await u.say("20", /smallest amount is ₹50/);
    await u.say("6000", /largest amount is ₹5,000/);
    await u.say("lots", /Please type an amount in rupees/);
    const confirm = await u.say("₹ 450", /Please check your order/);
    expectParts(confirm.text, [
      "Operator: Jio Postpaid",
      "Number / account: 9123456789",
      "Circle: Himachal Pradesh",
      "Amount: ₹450",
    ]);
    await u.confirmUntil("succeeded");
    const orders = await ts.system.orders.listByUser(803, 10);
    expect(
      orders.map((o) => [
        o.operatorId,
        o.connectionNo,
        o.amountPaisa,
        detailsOf(o, "india").circleId,
        o.status,
      ]),
    ).toEqual([[211, "9123456789", 45_000, "8", "success"]]);
  });
});
