import { describe, expect, it } from "vitest";
import { electricityBill, waterBill } from "../../dev/sandbox/lookups.ts";
import { formatRupees, toPaisa } from "../../src/money.ts";
import { type TestUser, useTestSystem } from "../support/system.ts";

/**
 * A bill flow for an account whose payment by this customer is still under way: the utility shows
 * the bill due until that payment succeeds, so the flow stops instead of paying the due twice (the
 * rule a repeat already had, history.test.ts). The sandbox's final word is kept far off, so the
 * first payment stays under way for the whole test.
 */
describe("a bill whose payment is still under way", () => {
  const ts = useTestSystem({ sandbox: { delays: { toPendingMs: 20, toFinalMs: 600_000 } } });
  const rs = (rupees: string) => formatRupees(toPaisa(rupees));
  const underWayText = (ref: string) =>
    `A payment of this bill (order ${ref}) is still being processed, so I will not pay it again now. You will get a message with its result; then check /history.`;

  async function waterBillOf(u: TestUser, office: string, customer: string) {
    await u.menu("🚰 Water bill", /which office is your water connection with/);
    await u.tap(office, new RegExp(`customer id at ${office}`));
    await u.say(customer, /For which month/);
  }

  it("water: the same account is not paid again; another office's account is", async () => {
    const u = ts.user(611);
    await waterBillOf(u, "KUKL Kamaladi", "12345678");
    await u.tap("Kartik", /Water bill of/);
    const due = rs(waterBill("12345678", "0", 7).bill_amount);
    await u.payDue(due);
    const { ref } = await u.confirm();

    await waterBillOf(u, "KUKL Kamaladi", "12345678");
    const underWay = await u.tap("Kartik", /still being processed/);
    expect(underWay.text).toBe(underWayText(ref));
    expect((await ts.system.orders.listByUser(611, 10)).map((o) => o.reference)).toEqual([ref]);

    // The same number at another office is another account: its bill is checked as usual.
    await waterBillOf(u, "KUKL Lalitpur", "12345678");
    await u.tap("Kartik", /Pay the due of/);
    await u.tap(`💳 Pay the due ${due}`, /Please check your order/);
  });

  it("electricity: the same SC number and customer id are not paid again", async () => {
    const u = ts.user(711);
    const toBill = async () => {
      await u.menu("💡 Electricity bill", /which distribution centre/);
      await u.tap("Ratnapark DC", /Your SC number/);
      await u.say("555.77", /Your customer id/);
      await u.say("22223333", /A phone number/);
    };
    await toBill();
    await u.say("9841234567", /Electricity bill of/);
    const due = electricityBill("22223333", "555.77", "0", "0", Date.now()).bill_amount;
    await u.payDue(rs(due));
    const { ref } = await u.confirm();

    await toBill();
    const underWay = await u.say("9841234567", /still being processed/);
    expect(underWay.text).toBe(underWayText(ref));
    expect((await ts.system.orders.listByUser(711, 10)).map((o) => o.reference)).toEqual([ref]);
  });
});
