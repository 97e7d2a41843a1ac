import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detailsOf, startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";

/**
 * Issue 16, "Conversations that forgive", as chats: Back at every step of every flow, Edit buttons
 * at the confirmation that ask one answer again and come back, an operator that does not fit the
 * number asked again with the number kept. In English and Nepali or Hindi. Typing at the
 * confirmation (one message, edited in place) is in confirm-in-place.test.ts.
 */
describe("conversations that forgive, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem();
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);
  const orders = (userId: number) => ts.system.orders.listByUser(userId, 10);

  async function mobileNumber(u: TestUser, locale: "en" | "ne" | "hi") {
    await u.say("/recharge", t(locale, "menu-prompt"));
    return u.tap(t(locale, "menu-mobile"), t(locale, "mobile-ask-number"));
  }

  describe("the operator the number's series names (issue 30)", () => {
    it("takes NTC Postpaid for a 985 number without asking, and the confirmation names it (English)", async () => {
      const u = ts.user(1701);
      await mobileNumber(u, "en");
      const amount = await u.say("9851234567", /How much\?/);
      expect(amount.text.split("\n")[0]).toBe("📱 9851234567 · NTC Postpaid");
      // No operator question: nothing to tap, nothing to get wrong.
      expect(u.botTexts().some((m) => m.startsWith("Operator for"))).toBe(false);
      const confirm = await u.say("100", /Please check your order/);
      expect(confirm.text).toContain("Operator: NTC Postpaid");
      expect(confirm.text).toContain("Number / account: 9851234567");
    });

    it("in Nepali", async () => {
      const u = ts.user(1702, { language_code: "ne" });
      await mobileNumber(u, "ne");
      const amount = await u.say("9851234567", /कति\?/);
      expect(amount.text.split("\n")[0]).toBe("📱 9851234567 · NTC Postpaid");
      await u.say("100", /अपरेटर: NTC Postpaid/);
    });
  });

  describe("Back", () => {
    it("is offered from the second question on and goes back one step at a time (mobile)", async () => {
      const u = ts.user(1703);
      const first = await mobileNumber(u, "en");
      // Nothing to go back to on the first question.
      expect(u.buttons(first)).not.toContain("‹ Back");
      // The operator is the number's (no question): the amount is the second question.
      const amount = await u.say("9841231703", /9841231703 · NTC Prepaid\nHow much\?/);
      expect(u.buttons(amount)).toContain("‹ Back");
      const number = await u.tap("‹ Back", /Which mobile number/);
      // The question left by Back lost its buttons.
      expect(u.buttons(u.chat().find((m) => m.id === amount.id))).toEqual([]);
      expect(u.buttons(number)).not.toContain("‹ Back");
      await u.say("9841231704", /How much\?/);
      const confirm = await u.say("150", /Please check your order/);
      // Back at the confirmation asks the last question again.
      await u.tap("‹ Back", /How much\?/);
      expect(u.buttons(u.chat().find((m) => m.id === confirm.id))).toEqual([]);
      await u.say("250", /Amount: Rs 250/);
      const { ref } = await u.confirm();
      expect(await ts.system.orders.get(ref)).toMatchObject({
        connectionNo: "9841231704",
        amountPaisa: 25_000,
      });
      expect(await orders(1703)).toHaveLength(1);
    });

    it("goes back from a package list to the kind of pack, in Hindi (data pack)", async () => {
      const u = ts.user(1704, { language_code: "hi" });
      await u.say("/recharge", t("hi", "menu-prompt"));
      await u.tap(t("hi", "menu-datapack"));
      await u.say("9841231704", /9841231704 एक NTC नंबर है/);
      await u.tap(/Voice|वॉइस/, /NTC Voice पैक/);
      await u.tap("‹ पीछे", /9841231704 एक NTC नंबर है/);
      await u.tap("‹ पीछे", t("hi", "datapack-ask-number"));
    });

    it("skips a step that asked nothing: from the water customer id back to the office", async () => {
      const u = ts.user(1705);
      await u.say("/recharge", /What would you like to pay/);
      await u.tap("🚰 Water bill", /which office/);
      await u.tap("KUKL Lalitpur", /customer id at KUKL Lalitpur/);
      await u.say("123456", /For which month/);
      await u.tap("‹ Back", /customer id at KUKL Lalitpur/);
      // The earlier answer is a tap away.
      expect(u.buttons()).toContain("123456");
      await u.tap("‹ Back", /which office/);
      await u.tap("KUKL Bhaktapur", /customer id at KUKL Bhaktapur/);
    });

    it("works in India's flow at every step, in English", async () => {
      const u = ts.user(1706);
      await u.say("/recharge", /What would you like to pay/);
      const kinds = await u.tap(t("en", "menu-india"), /India: what do you want to recharge/);
      expect(u.buttons(kinds)).not.toContain("‹ Back");
      await u.tap("📱 Prepaid mobile", /Which mobile number/);
      await u.say("9876543210", /which operator/);
      await u.tap("Airtel Prepaid", /Which telecom circle/);
      await u.say("delhi", /Choose a plan for 9876543210/);
      await u.tap("‹ Back", /Which telecom circle/);
      await u.tap("‹ Back", /Prepaid mobile: which operator/);
      await u.tap("‹ Back", /Which mobile number/);
      await u.tap("‹ Back", /India: what do you want to recharge/);
    });
  });

  describe("Edit at the confirmation", () => {
    it("changes the number and then the amount, each coming straight back (mobile)", async () => {
      const u = ts.user(1707);
      await u.mobileToConfirm("9841231707", "150");
      await u.tap("✏️ Number", /Which mobile number/);
      // The same operator fits the new number: the confirmation comes straight back.
      const afterNumber = await u.say("9861231707", /Please check your order/);
      expect(afterNumber.text).toContain("Number / account: 9861231707");
      expect(afterNumber.text).toContain("Amount: Rs 150");
      await u.tap("✏️ Amount", /How much\?/);
      const afterAmount = await u.say("300", /Please check your order/);
      expect(afterAmount.text).toContain("Number / account: 9861231707");
      expect(afterAmount.text).toContain("Amount: Rs 300");
      // Only the newest confirmation has buttons.
      expect(u.chat().filter((m) => u.hasButton("✅ Confirm", m))).toHaveLength(1);
      const { ref } = await u.confirm();
      expect(await ts.system.orders.get(ref)).toMatchObject({
        connectionNo: "9861231707",
        amountPaisa: 30_000,
      });
      expect(await orders(1707)).toHaveLength(1);
    });

    it("places one order for a double tap on Confirm after an Edit, and none for the old confirmation", async () => {
      const u = ts.user(1713);
      const old = await u.mobileToConfirm("9841231713", "150");
      await u.tap("✏️ Amount", /How much\?/);
      const confirm = await u.say("250", /Please check your order/);
      // The first confirmation's Confirm, forced (its buttons are gone), then two taps on the new one.
      u.emu.pressButton(u.id, old.id, "ok", { force: true });
      u.emu.pressButton(u.id, confirm.id, "ok");
      u.emu.pressButton(u.id, confirm.id, "ok", { force: true });
      const receipt = await u.waitFor(/Order \d+/);
      await u.outcome(/Order (\d+)/.exec(receipt.text)?.[1] ?? "", "succeeded");
      const placed = await orders(1713);
      expect(placed).toHaveLength(1);
      expect(placed[0]?.amountPaisa).toBe(25_000);
    });

    it("asks the operator again when the new number belongs to another one", async () => {
      const u = ts.user(1708);
      await u.mobileToConfirm("9841231708", "150");
      await u.tap("✏️ Number", /Which mobile number/);
      const confirm = await u.say("9851231708", /Please check your order/);
      expect(confirm.text).toContain("Operator: NTC Postpaid");
      expect(confirm.text).toContain("Amount: Rs 150");
    });

    it("Back from an Edit question returns to the confirmation unchanged, in Nepali", async () => {
      const u = ts.user(1709, { language_code: "ne" });
      await mobileNumber(u, "ne");
      await u.say("9841231709", /कति\?/);
      await u.say("150", /रकम: रु 150/);
      await u.tap("✏️ रकम", /कति\?/);
      const back = await u.tap("‹ पछाडि", /कृपया आफ्नो अर्डर जाँच्नुहोस्/);
      expect(back.text).toContain("रकम: रु 150");
      await u.tap("✏️ नम्बर", t("ne", "mobile-ask-number"));
      const changed = await u.say("9861231709", /कृपया आफ्नो अर्डर जाँच्नुहोस्/);
      expect(changed.text).toContain("नम्बर / खाता: 9861231709");
      await u.tap("✅ पुष्टि", /🧾 अर्डर \d+/);
      expect(await orders(1709)).toHaveLength(1);
    });

    it("changes the package of a data pack, and the order is for the new one", async () => {
      const u = ts.user(1710);
      await u.say("/recharge", /What would you like to pay/);
      await u.tap("📶 Data pack", /Which mobile number/);
      await u.say("9841231710", /is an NTC number/);
      const list = await u.tap("📞 Voice", /NTC Voice packs for 9841231710 \(2\)/);
      const [first, second] = u.buttons(list);
      const confirm = await u.tap(first!, /Please check your order/);
      expect(u.buttons(confirm)).toEqual([
        "✅ Confirm",
        "✏️ Number",
        "✏️ Package",
        "‹ Back",
        "✖ Cancel",
      ]);
      await u.tap("✏️ Package", /NTC Voice packs for 9841231710 \(2\)/);
      const changed = await u.tap(second!, /Please check your order/);
      const name = second!.split(" · ")[0]!;
      expect(changed.text).toContain(`Package: ${name}`);
      const { ref } = await u.confirm();
      expect(detailsOf(await ts.system.orders.get(ref), "datapack").packageName).toBe(name);
      expect(await orders(1710)).toHaveLength(1);
    });

    it("changes a water bill's customer id: the bill is checked again and the amount asked", async () => {
      const u = ts.user(1711, { language_code: "hi" });
      await u.say("/recharge", t("hi", "menu-prompt"));
      await u.tap(t("hi", "menu-water"));
      await u.tap("KUKL Lalitpur");
      await u.say("123456");
      await u.tap("बैशाख");
      const pay = await u.waitFor(/का बकाया चुकाइए/);
      const confirm = await u.tap(u.buttons(pay)[0]!, /कृपया अपना ऑर्डर जाँच लीजिए/);
      expect(u.buttons(confirm)).toContain("✏️ ग्राहक आईडी");
      expect(u.buttons(confirm)).toContain("✏️ राशि");
      await u.tap("✏️ ग्राहक आईडी", /KUKL Lalitpur/);
      await u.say("55550000", /55550000|पानी/);
      const amount = await u.waitFor(/रु 1,246.86 का बकाया चुकाइए/);
      const again = await u.tap(u.buttons(amount)[0]!, /नंबर \/ खाता: 55550000/);
      expect(u.buttons(again)).toContain("✏️ राशि");
      await u.tap("✏️ राशि", /का बकाया चुकाइए/);
      const typed = await u.say("500", /नंबर \/ खाता: 55550000/);
      expect(typed.text).toContain("रु 500");
      await u.tap(/✅/, /🧾/);
      const [order] = await orders(1711);
      expect(order).toMatchObject({ connectionNo: "55550000", amountPaisa: 50_000 });
    });
  });
});

/** An Edit at the confirmation prices the changed order afresh: the fee follows the new amount. */
describe("a fresh price after an Edit, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    // Mobile: a 1% fee, at least Rs 1.
    const file = join(mkdtempSync(join(tmpdir(), "forgive-")), "prices.json");
    writeFileSync(
      file,
      JSON.stringify({ categories: { mobile: { fee: { percent: "1", min: "1", max: "20" } } } }),
    );
    // Prepaid: in staff mode nobody pays a fee, so none is shown (who-pays.md).
    ts = await startTestSystem({ env: { ACCESS_MODE: "prepaid", PRICE_SCHEDULE_FILE: file } });
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  it("shows and charges the new amount's fee (English)", async () => {
    const u = ts.user(1721);
    await u.register();
    await u.credit(500_000);
    const first = await u.mobileToConfirm("9841231721", "150");
    expect(first.text).toContain("Fee: Rs 1.50");
    expect(first.text).toContain("Total to pay: Rs 151.50");
    await u.tap("✏️ Amount", /How much\?/);
    const again = await u.say("1000", /Please check your order/);
    expect(again.text).toContain("Fee: Rs 10");
    expect(again.text).toContain("Total to pay: Rs 1,010");
    const { ref } = await u.confirm();
    const order = await ts.system.orders.get(ref);
    expect(order?.amountPaisa).toBe(100_000);
    expect(order?.price?.totalPaisa).toBe(101_000);
  });

  it("in Nepali", async () => {
    const u = ts.user(1722, { language_code: "ne" });
    u.emu.sendContact(u.id, { phoneNumber: `+${u.phone()}` });
    await u.waitFor(/दर्ता भयो/);
    await u.credit(500_000);
    await u.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    await u.tap("📱 मोबाइल टप-अप", /कुन मोबाइल नम्बर/);
    await u.say("9841231722", /कति\?/);
    await u.say("150", /रु 151.50/);
    await u.tap("✏️ रकम", /कति\?/);
    const again = await u.say("1000", /कृपया आफ्नो अर्डर जाँच्नुहोस्/);
    expect(again.text).toContain("रु 1,010");
  });
});
