import { describe, expect, it } from "vitest";
import { customerName } from "../../dev/sandbox/data.ts";
import { electricityBill, waterBill } from "../../dev/sandbox/lookups.ts";
import { formatRupees, toPaisa } from "../../src/money.ts";
import { expectParts } from "../support/chat.ts";
import { type TestUser, useTestSystem } from "../support/system.ts";

/**
 * Receipts to keep (issue 30), read as the chat: fee and discount only when not zero, on the
 * confirmation, the receipt and the push alike; what identifies the account (office, SC number,
 * holder, subscriber) on every receipt and push; one date format, the time in the order's zone
 * with its name, the same on the receipt, the push, /status and /history; in Nepali the Bikram
 * Sambat date beside the Gregorian and Latin digits only. Prepaid, with no price schedule: every
 * fee and discount is zero.
 */
describe("receipts to keep, end to end", () => {
  const ts = useTestSystem({
    env: { ACCESS_MODE: "prepaid", INR_TO_NPR_RATE: "1.6", LOW_FLOAT_ALERT: "0" },
  });
  const t = (locale: string, key: string, args?: Record<string, string>) =>
    ts.system.deps.i18n.t(locale, key, args);

  async function funded(id: number): Promise<TestUser> {
    const u = ts.user(id);
    await u.register();
    await u.credit(2_000_000);
    return u;
  }

  it("shows no fee and no discount line when both are zero: confirmation, receipt, push", async () => {
    const u = await funded(3001);
    const confirm = await u.mobileToConfirm("9841234567", "150");
    expectParts(confirm.text, ["Amount: Rs 150", "Total to pay: Rs 150"]);
    expect(confirm.text).not.toMatch(/Fee|Discount/);
    const { receipt, ref, push } = await u.confirmUntil("succeeded");
    for (const text of [receipt.text, push.text]) {
      expect(text).not.toMatch(/Fee|Discount/);
      expect(text).toContain("NTC Prepaid · 9841234567 · Rs 150");
    }
    expect(push.text).toContain("Total paid: Rs 150");
    expect(push.text).toContain(`Order ${ref} succeeded`);
  });

  it("a water bill's receipt and push name the office and the account holder", async () => {
    const u = await funded(3002);
    await u.menu("🚰 Water bill", /which office is your water connection with/);
    await u.say("Pokhara", /customer id at Nepal Khanepani Sansthan Pokhara/);
    await u.say("123456", /For which month\?/);
    await u.tap("Kartik", /Water bill of/);
    const bill = waterBill("123456", "0", 7);
    await u.payDue(formatRupees(toPaisa(bill.bill_amount)));
    const { receipt, push } = await u.confirmUntil("succeeded");
    for (const text of [receipt.text, push.text]) {
      expectParts(text, [
        "Khanepani (Water) · 123456 · ",
        "Office: Nepal Khanepani Sansthan Pokhara",
        `Account holder: ${bill.customer_name}`,
        "Bill month: Kartik",
      ]);
    }
  });

  it("an electricity bill's receipt and push name the office, the SC number and the holder", async () => {
    const u = await funded(3003);
    await u.menu("💡 Electricity bill", /which distribution centre \(office\)/);
    await u.say("pokhara", /Your SC number/);
    await u.say("012.34.567", /Your customer id/);
    await u.say("778899", /A phone number for this bill/);
    await u.say("9841234567", /Electricity bill of/);
    const bill = electricityBill("778899", "012.34.567", "0", "0", Date.now());
    await u.payDue(formatRupees(toPaisa(bill.bill_amount)));
    const { receipt, push } = await u.confirmUntil("succeeded");
    for (const text of [receipt.text, push.text]) {
      expectParts(text, [
        "Nepal Electricity Authority · 778899 · ",
        "Office: Pokhara DC",
        "SC number: 012.34.567",
        `Account holder: ${bill.customer_name}`,
      ]);
    }
  });

  it("a TV (DTH) receipt and push name the subscriber", async () => {
    const u = await funded(3004);
    await u.menu("📺 TV (DTH)", /Which TV \(DTH\) operator/);
    await u.tap("Dish Home", /Your Dish Home customer id/);
    await u.say("DH123456", /Choose a package/);
    await u.tap("Dish Home Basic - 1 Month · Rs 350", /Please check your order/);
    const { receipt, push } = await u.confirmUntil("succeeded");
    for (const text of [receipt.text, push.text]) {
      expect(text).toContain(`Subscriber: ${customerName("DH123456")}`);
      expect(text).not.toContain("Subscriber: Customer:");
    }
  });

  it("an India order's time is India time named IST on the receipt, the push, /status and /history", async () => {
    const u = await funded(3005);
    await u.menu("🇮🇳 India recharge", /India: what do you want to recharge\?/);
    await u.tap("📱 Prepaid mobile", /Which mobile number\?/);
    await u.say("9876543210", /Prepaid mobile: which operator\?/);
    await u.tap("Airtel Prepaid", /Which telecom circle/);
    await u.say("delhi", /Choose a plan for 9876543210/);
    await u.tap("₹299 · 28 days · Unlimited calls, 2 GB/day, 100 SMS/day", /check your order/);
    const { receipt, ref, push } = await u.confirmUntil("succeeded");
    const order = (await ts.system.orders.get(ref))!;
    const shown = `${clock("Asia/Kolkata", order.createdAt)} IST`;
    expect(receipt.text).toContain(`Date: ${shown}`);
    expect(push.text).toContain(`Date: ${shown}`);
    expect((await u.say(`/status ${ref}`, new RegExp(`Order ${ref}\\n`))).text).toContain(
      `Placed: ${shown}`,
    );

    // A Nepal order of the same customer: Nepal time, named NPT, everywhere too.
    await u.mobileToConfirm("9841234567", "100");
    const nepal = await u.confirmUntil("succeeded");
    const nepalOrder = (await ts.system.orders.get(nepal.ref))!;
    const nepalShown = `${clock("Asia/Kathmandu", nepalOrder.createdAt)} NPT`;
    expect(nepal.push.text).toContain(`Date: ${nepalShown}`);
    expect((await u.say(`/status ${nepal.ref}`, /Placed:/)).text).toContain(
      `Placed: ${nepalShown}`,
    );
    const history = await u.say("/history", /Your last orders/);
    expect(history.text).toContain(`${nepalShown} · 📱 Mobile top-up`);
    expect(history.text).toContain(`${shown} · 🇮🇳 India recharge`);
  });

  it("in Nepali: the Bikram Sambat date beside the Gregorian, and Latin digits only", async () => {
    const u = ts.user(3006, { language_code: "ne" });
    u.emu.sendContact(u.id, { phoneNumber: `+${u.phone()}` });
    await u.waitFor(/दर्ता भयो/);
    await u.credit(100_000);
    await u.say("/recharge", t("ne", "menu-prompt"));
    await u.tap(t("ne", "menu-mobile"), /कुन मोबाइल नम्बर/);
    await u.say("9841234567", /कति\?/);
    const confirm = await u.say("150", t("ne", "confirm-title"));
    expect(confirm.text).not.toMatch(/शुल्क|छुट/);
    const receipt = await u.tap(t("ne", "common-confirm"), /अर्डर \d+/);
    const ref = /अर्डर (\d+)/.exec(receipt.text)![1]!;
    const push = await u.waitFor(t("ne", "notify-title-success", { ref }));
    for (const text of [receipt.text, push.text]) {
      expect(text).toMatch(
        /मिति: \d{4} \S+ \d{1,2} \(वि\.सं\. 20\d\d \S+ \d{1,2}\), \d{2}:\d{2} NPT/,
      );
      expect(text).not.toMatch(/[०-९]/);
      expect(text).not.toMatch(/शुल्क|छुट/);
    }
  });
});

/** A time as every order text shows it in English, computed here apart from the product's code. */
function clock(timeZone: string, ms: number): string {
  const date = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
  }).format(ms);
  const time = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(ms);
  return `${date}, ${time}`;
}
