import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem, type TestUser } from "../support/system.ts";

/**
 * Issue 16, "Say the right thing", as chats in English and Nepali or Hindi: India mobile series,
 * messages that match what was typed (landline trunk 0, electricity phone), a pending order that
 * says a message will follow, and an office found by search named at once.
 */
describe("say the right thing, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem();
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);

  /** /recharge -> India -> prepaid: at the number question. */
  async function toIndiaNumber(u: TestUser, locale: string) {
    await u.say("/recharge", t(locale, "menu-prompt"));
    await u.tap(t(locale, "menu-india"));
    await u.tap(t(locale, "india-kind-prepaid"));
  }

  describe("India: a mobile number starts with 6, 7, 8 or 9", () => {
    it("in English", async () => {
      const u = ts.user(1601);
      await toIndiaNumber(u, "en");
      const refused = await u.say(
        "5123456789",
        /An Indian mobile number starts with 6, 7, 8 or 9\./,
      );
      expect(refused.text).toContain("Please try again");
      await u.say("+91 61234 56789", /Prepaid mobile: which operator/);
    });

    it("in Hindi", async () => {
      const u = ts.user(1602, { language_code: "hi" });
      await toIndiaNumber(u, "hi");
      await u.say("5123456789", /भारत का मोबाइल नंबर 6, 7, 8 या 9 से शुरू होता है।/);
      await u.say("7123456789", /प्रीपेड मोबाइल: कौन सा ऑपरेटर\?/);
      expect(u.botTexts().join("\n")).not.toMatch(/Indian mobile/);
    });
  });

  /** /recharge -> Landline -> NTC Landline: at the number question. */
  async function toLandlineNumber(u: TestUser, locale: string) {
    await u.say("/recharge", t(locale, "menu-prompt"));
    await u.tap(t(locale, "menu-landline"));
    await u.tap("NTC Landline", /NTC Landline/);
  }

  describe("landline: a typed leading 0 is named, not counted away", () => {
    it("in English", async () => {
      const u = ts.user(1603);
      await toLandlineNumber(u, "en");
      const refused = await u.say("014123456", /drop the leading 0/);
      expect(refused.text).toContain(
        "Please drop the leading 0: the number is the 9 digits after it, and after the 0 you typed 8.",
      );
      expect(refused.text).not.toContain("That has 8 digits");
      // Without a typed 0 the digit count is still the message.
      await u.say("14123456", /That has 8 digits; it needs exactly 9/);
      await u.say("014-123 4567", /How much\?/);
    });

    it("in Nepali", async () => {
      const u = ts.user(1604, { language_code: "ne" });
      await toLandlineNumber(u, "ne");
      const refused = await u.say("014123456", /कृपया सुरुको 0 हटाउनुहोस्/);
      expect(refused.text).toContain("त्यसपछिका 9 अङ्क");
      expect(refused.text).not.toContain("यसमा 8 अङ्क छन्");
    });
  });

  /** /recharge -> Electricity -> office by search -> SC -> customer id: at the phone question. */
  async function toElectricityPhone(u: TestUser, locale: string, office: RegExp) {
    await u.say("/recharge", t(locale, "menu-prompt"));
    await u.tap(t(locale, "menu-electricity"));
    const sc = await u.say("pokhara", office);
    await u.say("55.1", /./);
    await u.say("123456", /./);
    return sc;
  }

  describe("electricity: the office is named at once and the phone message states the rule", () => {
    it("in English", async () => {
      const u = ts.user(1605);
      const sc = await toElectricityPhone(u, "en", /Your SC number at Pokhara DC/);
      expect(sc.text).toContain("Pokhara DC");
      // An 8-digit number starting with 9: the rule refuses it, and the message says why.
      const mobileLike = await u.say("98412345", /That is not a phone number/);
      expect(mobileLike.text).toContain("it starts with 9 like a mobile but has 8 digits");
      expect(mobileLike.text).toContain("does not start with 9");
      const short = await u.say("12345", /That is not a phone number/);
      expect(short.text).toContain("it has 5 digits (not counting a leading 0)");
      const words = await u.say("phone", /That is not a phone number/);
      expect(words.text).toContain("does not start with 9");
      await u.say("01-4123456", /Electricity bill of/);
    });

    it("in Nepali", async () => {
      const u = ts.user(1606, { language_code: "ne" });
      await toElectricityPhone(u, "ne", /Pokhara DC मा तपाईंको SC नम्बर/);
      const mobileLike = await u.say("98412345", /यो फोन नम्बर होइन/);
      expect(mobileLike.text).toContain("यसमा 8 अङ्क छन्");
      expect(mobileLike.text).toContain("9 बाट सुरु हुँदैन");
    });
  });

  describe("a pending order says a message will follow, and roughly when", () => {
    // A sandbox whose orders reach pending at once and stay there for the test's length.
    let slow: TestSystem;
    beforeAll(async () => {
      slow = await startTestSystem({
        sandbox: { delays: { toPendingMs: 20, toFinalMs: 120_000 } },
      });
    });
    afterAll(async () => {
      await slow.cleanup();
    });

    async function payPending(u: TestUser, locale: string) {
      await u.say("/recharge", t(locale, "menu-prompt"));
      await u.tap(t(locale, "menu-mobile"));
      // The number's series names the operator: the amount is asked next.
      await u.say("9841001234", /9841001234 · NTC Prepaid/);
      await u.say("100", /./);
      return u.tap(/✅/, /🧾/);
    }

    it("in English", async () => {
      const u = slow.user(1607);
      const receipt = await payPending(u, "en");
      const follow =
        "We will send you a message as soon as the operator answers, usually within a few minutes.";
      expect(receipt.text).toContain(follow);
      // Edited to "with the operator" (queued and pending read alike), it still says so; /status
      // names the status itself (queued until the sandbox's pending lands).
      const pending = await u.waitFor(
        (m) => m.id === receipt.id && m.text.includes("Status: ⏳ with the operator"),
      );
      expect(pending.text).toContain(follow);
      const ref = /Order (\d+)/.exec(receipt.text)?.[1];
      const shown = await u.say(`/status ${ref}`, /Status: ⏳ (queued|pending)/);
      expect(shown.text).toContain(follow);
    });

    it("in Nepali", async () => {
      const u = slow.user(1608, { language_code: "ne" });
      const receipt = await payPending(u, "ne");
      expect(receipt.text).toContain("हामी तपाईंलाई सन्देश पठाउनेछौं, प्रायः केही मिनेटभित्र।");
      const pending = await u.waitFor(
        (m) => m.id === receipt.id && m.text.includes("अवस्था: ⏳ अपरेटरकहाँ"),
      );
      expect(pending.text).toContain("केही मिनेटभित्र");
    });
  });

  it("a final receipt no longer promises a message", async () => {
    const u = ts.user(1609);
    await u.say("/recharge", t("en", "menu-prompt"));
    await u.tap(t("en", "menu-mobile"));
    await u.say("9841001235", /9841001235 · NTC Prepaid/);
    await u.say("100", /./);
    const receipt = await u.tap(/✅/, /🧾/);
    const done = await u.waitFor((m) => m.id === receipt.id && /successful/.test(m.text));
    expect(done.text).not.toContain("We will send you a message");
  });
});
