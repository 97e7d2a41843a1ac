import { describe, expect, it } from "vitest";
import { expectParts } from "../support/chat.ts";
import { useTestSystem } from "../support/system.ts";
import {
  confirmUntil,
  creditedCustomer,
  expectChatWithinLimits,
  expectPaid,
  openCategory,
} from "../support/whatsapp-steps.ts";

/** Landline, water, electricity and India on WhatsApp: from "hi" to the success push. */
describe("WhatsApp: bills and India from hi to the success push", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid" } });

  const customer = (waId: string) => creditedCustomer(ts, waId, 2_000_000);

  it("landline: the line, a typed number, an amount button", async () => {
    const { u, person, before } = await customer("9779841000201");
    const ops = await openCategory(u, /Landline/, /Which line do you want to recharge/);
    // Four choices: a numbered list (typing "2" would pick the second).
    expect(u.buttons(ops)).toEqual([
      "1. NTC Landline",
      "2. NTC Fibre Voice",
      "3. NTC Toll-free",
      "4. ✖ Cancel",
    ]);
    await u.tap("NTC Landline", /Which NTC Landline number/);
    await u.say("014-123 4567", /How much\? Type an amount from Rs 50 to Rs 5,000/);
    const check = await u.tap("Rs 500", /Please check your order/);
    expectParts(check.text, [
      "Operator: NTC Landline",
      "Number / account: 141234567",
      "Amount: Rs 500",
    ]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("NTC Landline · 141234567 · Rs 500");
    expectChatWithinLimits(u);
    await expectPaid(ts, ref, person, before, 50_000);
  });

  it("water: an office on the second page, the month, the bill's due", async () => {
    const { u, person, before } = await customer("9779841000202");
    const offices = await openCategory(u, /Water bill/, /type part of the name to search/);
    // Eight offices and the pager: more than one list holds, the pager comes in the next one.
    expect(u.buttons(offices)).toHaveLength(8);
    const pager = await u.waitFor((m) => u.buttons(m).includes("10. ›"), {
      afterWamid: offices.wamid,
    });
    await u.tapOn(pager, "›", /which office/);
    await u.tap(
      "Nepal Khanepani Sansthan Pokhara",
      /customer id at Nepal Khanepani Sansthan Pokhara/,
    );
    await u.say("123456", /For which month\?/);
    const bill = await u.tap("Kartik", /Water bill of/);
    expect(bill.text).toContain("Total due:");
    const ask = await u.waitFor(/Pay the due of/);
    const check = await u.tap(/Pay the due/, /Please check your order/);
    expectParts(check.text, [
      "Operator: Khanepani (Water)",
      "Number / account: 123456",
      "Month: Kartik",
    ]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("Khanepani (Water) · 123456");
    expectChatWithinLimits(u);
    const order = await ts.system.orders.get(ref);
    expect(ask.buttons.length).toBeGreaterThan(0);
    await expectPaid(ts, ref, person, before, order?.amountPaisa ?? -1);
  });

  it("electricity: the office typed, the SC number, the customer id, the bill", async () => {
    const { u, person, before } = await customer("9779841000203");
    await openCategory(u, /Electricity bill/, /which distribution centre \(office\)/);
    await u.say("pokhara", /Your SC number/);
    await u.say("012.34.567", /Your customer id/);
    await u.say("778899", /A phone number for this bill/);
    const bill = await u.say("+977 984-123-4567", /Electricity bill of/);
    expect(bill.text).toContain("Total due:");
    const ask = await u.waitFor(/Pay the due of/);
    expect(u.buttons(ask)[0]).toMatch(/^💳 Pay the due/);
    const check = await u.tapOn(ask, /Pay the due/, /Please check your order/);
    expectParts(check.text, ["Operator: Nepal Electricity Authority", "Office: Pokhara DC"]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("Nepal Electricity Authority · 778899");
    expectChatWithinLimits(u);
    const order = await ts.system.orders.get(ref);
    await expectPaid(ts, ref, person, before, order?.amountPaisa ?? -1);
  });

  it("India: a prepaid number, the operator, the circle typed, a plan", async () => {
    const { u, person, before } = await customer("9779841000204");
    await openCategory(u, /India recharge/, /India: what do you want to recharge/);
    await u.tap("📱 Prepaid mobile", /Which mobile number\?/);
    await u.say("+91 98765 43210", /Prepaid mobile: which operator\?/);
    await u.tap("Airtel Prepaid", /Which telecom circle/);
    const plans = await u.say("delhi", /Choose a plan for 9876543210/);
    expect(plans.kind).toBe("list");
    const check = await u.tap(
      "₹299 · 28 days · Unlimited calls, 2 GB/day, 100 SMS/day",
      /Please check your order/,
    );
    expectParts(check.text, ["Operator: Airtel Prepaid", "Circle: Delhi NCR", "Amount: ₹299"]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("Airtel Prepaid · 9876543210 · ₹299");
    expectChatWithinLimits(u);
    await expectPaid(ts, ref, person, before, 29_900);
  });
});
