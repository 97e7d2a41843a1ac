import { describe, expect, it } from "vitest";
import { electricityBill } from "../../dev/sandbox/lookups.ts";
import { formatRupees, toPaisa } from "../../src/money.ts";
import { type TestUser, useTestSystem } from "../support/system.ts";

/**
 * Saved numbers and billers (issue 16, "Remember numbers and accounts"), as a customer meets them:
 * a number is saved when its order succeeds, offered again only in its own category, named from
 * the success push ("Save as…"), renamed and deleted with /saved, and a saved biller paid again in
 * two taps with a fresh bill.
 */
describe("saved numbers and billers, end to end", () => {
  const ts = useTestSystem();

  /** A DTH package bought for `customerId` (Dish Home, the first package), until its push. */
  async function payDth(u: TestUser, customerId: string) {
    await u.menu("📺 TV (DTH)", /Pay one of your saved accounts|Which TV \(DTH\) operator/);
    if (u.hasButton("➕ Another account", u.emu.lastBotMessage(u.id)))
      await u.tap("➕ Another account", /Which TV \(DTH\) operator/);
    await u.tap("Dish Home", /Your Dish Home customer id/);
    await u.say(customerId, /Choose a package/);
    await u.tap("Dish Home Basic - 1 Month · Rs 350", /Please check your order/);
    return u.confirmUntil("succeeded");
  }

  it("offers a number only in its own category, and only after its order succeeded", async () => {
    const u = ts.user(1501);
    // A mobile top-up that succeeds, one that fails, and a DTH package.
    const { push } = await (async () => {
      await u.mobileToConfirm("9841000501", "100");
      return u.confirmUntil("succeeded");
    })();
    // The success push offers to name the number, without asking anything.
    expect(u.buttons(push)).toEqual(["🏷 Save as…", "📄 Share receipt", "⚠️ Report a problem"]);
    await u.mobileToConfirm("9841230000", "100");
    const failed = await u.confirmUntil("failed");
    // A failed order is not saved: its push offers the next step instead (issue 30), no Save as….
    expect(u.buttons(failed.push)).toEqual(["🔁 Try again", "✏️ Change number"]);
    await payDth(u, "DH765432");

    // The mobile question offers the mobile number only: not the failed one, not the DTH id.
    const ask = await u.menu("📱 Mobile top-up", /Which mobile number/);
    expect(u.buttons(ask)).toEqual(["9841000501", "✖ Cancel"]);
    await u.tap("✖ Cancel", /Cancelled/);
    // The DTH flow starts with its saved subscriber.
    const dth = await u.menu("📺 TV (DTH)", /Pay one of your saved accounts, or another one\?/);
    expect(u.buttons(dth)).toEqual(["DH765432", "➕ Another account", "✖ Cancel"]);
    // Two taps to the package list: the saved id is listed again without being asked.
    const list = await u.tap("DH765432", /Choose a package/);
    expect(u.botTexts().filter((t) => /Your Dish Home customer id/.test(t))).toHaveLength(1);
    expect(u.buttons(list)).toContain("‹ Back");
    await u.tap("✖ Cancel", /Cancelled/);
  });

  it("names a number from the push (a bad name asked again) and shows the name in the flows and /history", async () => {
    const u = ts.user(1502);
    await u.mobileToConfirm("9841000502", "200");
    const { push } = await u.confirmUntil("succeeded");
    expect(u.buttons(push)).toEqual(["🏷 Save as…", "📄 Share receipt", "⚠️ Report a problem"]);
    await u.tap("🏷 Save as…", /What should I call 9841000502\?/);
    // A bad name is asked again with the reason.
    await u.say("x".repeat(25), /That name is too long \(at most 24 characters\)/);
    const named = await u.say("Aama", /Saved as Aama · 9841000502/);
    expect(named.text).toContain("/saved renames or deletes it");

    // The mobile question labels it with the name; the button still answers with the number.
    const ask = await u.menu("📱 Mobile top-up", /Which mobile number/);
    expect(u.buttons(ask)).toEqual(["Aama · 9841000502", "✖ Cancel"]);
    await u.tap("Aama · 9841000502", /9841000502 · NTC Prepaid\nHow much/);
    await u.say("300", /Please check your order/);
    const second = await u.confirmUntil("succeeded");
    // Named already: no "Save as…" under the next push (only Share receipt and Report a problem, issue 30).
    expect(u.buttons(second.push)).toEqual(["📄 Share receipt", "⚠️ Report a problem"]);

    // /history names the number, on the lines and the Repeat buttons.
    const history = await u.say("/history", /Your last orders/);
    expect(history.text).toContain("NTC Prepaid · Aama · ✅ successful\nTotal: Rs 300 · Ref: ");
    expect(u.buttons(history).slice(0, 2)).toEqual([
      "🔁 Repeat Aama · Rs 300",
      "🔁 Repeat Aama · Rs 200",
    ]);
  });

  it("renames and deletes with /saved, grouped by category; Delete asks first", async () => {
    const u = ts.user(1506);
    // Saved before (a mobile number with a name, and an electricity account), as a success saves them.
    const saved = ts.system.deps.saved!;
    const aama = await saved.remember(1506, {
      category: "mobile",
      number: "9841000506",
      usedAt: 2,
    });
    await saved.rename(1506, aama.id, "Aama");
    await saved.remember(1506, {
      category: "electricity",
      number: "665500",
      biller: { operatorId: 118, officeCode: "205", scNo: "012.34.500", phone: "9841000506" },
      usedAt: 1,
    });
    const list = await u.say("/saved", /Your saved numbers and accounts/);
    expect(list.text).toBe(
      [
        "Your saved numbers and accounts:",
        "📱 Mobile top-up\n• Aama · 9841000506",
        "💡 Electricity bill\n• 665500",
        "Choose one to rename or delete it.",
      ].join("\n\n"),
    );
    expect(u.buttons(list)).toEqual(["Aama · 9841000506", "665500", "✖ Cancel"]);
    await u.tap("Aama · 9841000506", /Aama · 9841000506: rename or delete\?/);
    await u.tap("✏️ Rename", /What should I call 9841000506\?/);
    await u.say("Mom", /Renamed: Mom · 9841000506/);

    // Delete asks first; Keep keeps it.
    await u.say("/saved", /Your saved numbers/);
    await u.tap("Mom · 9841000506", /rename or delete/);
    const sure = await u.tap("🗑 Delete", /Delete Mom · 9841000506 from your saved numbers\?/);
    expect(u.buttons(sure)).toEqual(["🗑 Yes, delete", "↩ Keep it", "✖ Cancel"]);
    await u.tap("↩ Keep it", /Mom · 9841000506 stays saved/);
    await u.say("/saved", /Your saved numbers/);
    await u.tap("Mom · 9841000506", /rename or delete/);
    await u.tap("🗑 Delete", /from your saved numbers\?/);
    await u.tap("🗑 Yes, delete", /Deleted Mom · 9841000506/);
    const left = await u.say("/saved", /Your saved numbers/);
    expect(left.text).not.toContain("Mom");
    expect(u.buttons(left)).toEqual(["665500", "✖ Cancel"]);
    await u.tap("665500", /rename or delete/);
    await u.tap("🗑 Delete", /from your saved numbers\?/);
    await u.tap("🗑 Yes, delete", /Deleted 665500/);
    expect((await u.say("/saved")).text).toBe(
      "You have no saved numbers yet. A number is saved when an order to it succeeds.",
    );
    const again = await u.menu("📱 Mobile top-up", /Which mobile number/);
    expect(u.buttons(again)).toEqual(["✖ Cancel"]);
  });

  it("starts /saved from inside an order only after 'Leave this order?'", async () => {
    const u = ts.user(1503);
    await u.mobileToConfirm("9841000503", "100");
    await u.confirmUntil("succeeded");
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const leave = await u.say("/saved", /Leave this order\?/);
    expect(u.buttons(leave)).toEqual(["↩ Keep", "🚪 Leave"]);
    await u.tap("🚪 Leave", /Your saved numbers and accounts/);
  });

  it("pays a saved electricity bill again in two taps: a fresh bill, and a month paid is not paid again", async () => {
    const u = ts.user(1504);
    const rs = (rupees: string) => formatRupees(toPaisa(rupees));
    await u.menu("💡 Electricity bill", /which distribution centre \(office\)/);
    await u.say("pokhara", /Your SC number/);
    await u.say("012.34.999", /Your customer id/);
    await u.say("665544", /A phone number for this bill/);
    await u.say("9841234567", /Electricity bill of/);
    const expected = electricityBill("665544", "012.34.999", "0", "0", Date.now());
    const due = rs(expected.bill_amount);
    await u.payDue(due);
    await u.confirmUntil("succeeded");

    // Tap 1: the category; tap 2: the saved biller. The bill is checked afresh at once.
    const saved = await u.menu(
      "💡 Electricity bill",
      /Pay one of your saved accounts, or another one\?/,
    );
    const label = `665544 · ${expected.customer_name}`;
    expect(u.buttons(saved)).toEqual([label, "➕ Another account", "✖ Cancel"]);
    const bill = await u.tap(label, /Electricity bill of/);
    expect(bill.text).toContain(`Electricity bill of ${expected.customer_name} (SC 012.34.999)`);
    // The month just paid shows as paid: nothing due, only an advance may be typed.
    expect(bill.text).toContain("Nothing is due on this account right now.");
    const ask = await u.waitFor(/You can pay in advance/);
    expect(u.buttons(ask)).toEqual(["‹ Back", "✖ Cancel"]);
    // Nothing asked in between: office, SC number, customer id and phone came from the saved biller.
    const texts = u.botTexts();
    const since = texts.lastIndexOf(saved.text);
    expect(
      texts.slice(since).some((t) => /Your SC number|Your customer id|phone number/.test(t)),
    ).toBe(false);
    // The confirmation names the office from today's list, and the saved details.
    const confirm = await u.say("500", /Please check your order/);
    expect(confirm.text).toContain("Office: Pokhara DC");
    expect(confirm.text).toContain("SC number: 012.34.999");
    expect(confirm.text).toContain("Phone: 9841234567");
    expect(confirm.text).toContain("Bill due: Rs 0");
    await u.tap("✖ Cancel", /Cancelled/);
  });

  it("names and lists in Nepali", async () => {
    const u = ts.user(1505, { language_code: "ne" });
    await u.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    await u.tap("📱 मोबाइल टप-अप", /कुन मोबाइल नम्बर रिचार्ज गर्ने\?/);
    await u.say("9841000505", /9841000505 · NTC Prepaid\nकति\?/);
    await u.say("100", /कृपया आफ्नो अर्डर जाँच्नुहोस्:/);
    const receipt = await u.tap("✅ पुष्टि", /🧾 अर्डर \d+/);
    const ref = /अर्डर (\d+)/.exec(receipt.text)?.[1];
    const push = await u.waitFor(new RegExp(`✅ अर्डर ${ref} सफल भयो।`));
    expect(u.buttons(push)).toEqual(["🏷 नाम राखेर सुरक्षित गर्ने…", "📄 रसिद सेयर", "⚠️ समस्या जनाउनुहोस्"]);
    await u.tap("🏷 नाम राखेर सुरक्षित गर्ने…", /9841000505 लाई के नाम दिने\?/);
    await u.say("क".repeat(25), /नाम धेरै लामो भयो \(बढीमा 24 अक्षर\)/);
    await u.say("आमा", /आमा · 9841000505 नामले सुरक्षित भयो।/);
    const list = await u.say("/saved", /तपाईंका सुरक्षित नम्बर र खाताहरू:/);
    expect(list.text).toContain("📱 मोबाइल टप-अप\n• आमा · 9841000505");
    await u.tap("आमा · 9841000505", /नाम बदल्ने कि हटाउने\?/);
    await u.tap("🗑 हटाउने", /सुरक्षित नम्बरबाट हटाउने\?/);
    await u.tap("🗑 हो, हटाउने", /आमा · 9841000505 हटाइयो।/);
    // Nothing the user read was English.
    expect(u.botTexts().join("\n")).not.toMatch(/Saved|Delete|Rename|Please|Order/);
  });
});
