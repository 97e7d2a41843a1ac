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

/** Mobile, data pack, TV and internet on WhatsApp: from "hi" to the success push. */
describe("WhatsApp: Nepal recharges from hi to the success push", () => {
  const ts = useTestSystem({ env: { ACCESS_MODE: "prepaid" } });

  const customer = (waId: string) => creditedCustomer(ts, waId, 500_000);

  it("mobile: a typed number, its operator taken from the series, a typed amount", async () => {
    const { u, person, before } = await customer("9779841000101");
    await openCategory(u, /Mobile top-up/, /Which mobile number should I recharge/);
    await u.say("+977 984-123-4567", /9841234567 · NTC Prepaid\nHow much\?/);
    const check = await u.say("Rs 150", /Please check your order/);
    expectParts(check.text, [
      "Operator: NTC Prepaid",
      "Number / account: 9841234567",
      "Amount: Rs 150",
    ]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("NTC Prepaid · 9841234567 · Rs 150");
    expectChatWithinLimits(u);
    await expectPaid(ts, ref, person, before, 15_000);
  });

  it("data pack: the product kind, then a pack from a long list", async () => {
    const { u, person, before } = await customer("9779841000102");
    await openCategory(u, /Data pack/, /Which mobile number is the pack for/);
    await u.say("+977 980-123-4567", /9801234567 is an Ncell number/);
    const first = await u.tap("📶 Data", /Ncell Data packs for 9801234567 \(6\)/);
    expect(u.buttons(first)).toContain("1.5 GB / 1 day · Rs 100");
    // The second page is a new list (WhatsApp cannot edit the first one).
    const second = await u.tap("›", /Ncell Data packs/);
    expect(second.wamid).not.toBe(first.wamid);
    const check = await u.tap(
      "Night data 4 GB (11pm-6am) / 7 days · Rs 150",
      /Please check your order/,
    );
    expectParts(check.text, ["Package: Night data 4 GB (11pm-6am) / 7 days", "Amount: Rs 150"]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("Ncell Data · 9801234567 · Rs 150");
    expectChatWithinLimits(u);
    await expectPaid(ts, ref, person, before, 15_000);
    const order = await ts.system.orders.get(ref);
    expect(order).toMatchObject({
      category: "datapack",
      details: { packageId: "PROD_002_06_inv" },
    });
  });

  it("TV: the subscriber shown, a package from the second page", async () => {
    const { u, person, before } = await customer("9779841000103");
    await openCategory(u, /TV \(DTH\)/, /Which TV operator|operator/);
    await u.tap("Dish Home", /Your Dish Home customer id/);
    await u.say("DH123456", /Dish Home subscriber DH123456/);
    await u.waitFor(/Choose a package \(9\)/);
    await u.tap("›", /Choose a package/);
    const check = await u.tap("Dish Home Gold HD - 3 Months · Rs 1,890", /Please check your order/);
    expectParts(check.text, ["Operator: Dish Home", "Package: Dish Home Gold HD - 3 Months"]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("Dish Home · DH123456 · Rs 1,890");
    expectChatWithinLimits(u);
    await expectPaid(ts, ref, person, before, 189_000);
  });

  it("internet: 29 ISPs found by typing part of the name, a package", async () => {
    const { u, person, before } = await customer("9779841000104");
    const isps = await openCategory(u, /Internet/, /type part of the name to search/);
    expect(isps.kind).toBe("list");
    await u.say("link", /Matches for "link"/);
    await u.tap("DG Link", /Your DG Link username/);
    await u.say("dglink.ram", /DG Link packages for dglink.ram \(9\)/);
    const check = await u.tap("DG Link 100 Mbps - 3 Months · Rs 3,705", /Please check your order/);
    expectParts(check.text, ["Operator: DG Link", "Amount: Rs 3,705"]);
    const { ref, push } = await confirmUntil(u, "succeeded");
    expect(push.text).toContain("DG Link · dglink.ram · Rs 3,705");
    expectChatWithinLimits(u);
    await expectPaid(ts, ref, person, before, 370_500);
  });
});
