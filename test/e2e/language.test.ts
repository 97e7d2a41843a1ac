import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/** Languages: Telegram's language code decides first, /language changes it for good. */
describe("languages, end to end", () => {
  const ts = useTestSystem();

  it("greets a user whose Telegram is in Nepali in Nepali", async () => {
    const u = ts.user(941, { first_name: "Sita", language_code: "ne" });
    const welcome = await u.say("/start", /नमस्ते Sita!/);
    expect(welcome.text).toContain("के तिर्ने हो छान्नुहोस्");
    expect(u.buttons(welcome)).toContain("📱 मोबाइल टप-अप");
    expect(u.buttons(welcome)).toContain("📶 डाटा प्याक");
  });

  it("switches to Hindi with /language and remembers it", async () => {
    const u = ts.user(942, { first_name: "Ram", language_code: "ne" });
    const prompt = await u.say("/language", /आफ्नो भाषा छान्नुहोस्/);
    expect(u.buttons(prompt)).toEqual(["English", "नेपाली", "हिन्दी"]);
    u.press("हिन्दी");
    await u.waitFor("भाषा हिंदी कर दी गई।");

    // Telegram still says Nepali; the choice wins from now on.
    expect((await u.say("/start", /नमस्ते Ram!/)).text).toContain("मैं नेपाल और भारत में");
    expect((await u.say("/help")).text).toBe(
      `${ts.system.deps.i18n.t("hi", "help-text")}\n${ts.system.deps.i18n.t("hi", "help-topup")}\n\n${ts.system.deps.i18n.t("hi", "help-statement")}\n${ts.system.deps.i18n.t("hi", "help-reminders")}\n\n${ts.system.deps.i18n.t("hi", "help-complain")}`,
    );
    const unknown = await u.say("hello?");
    expect(unknown.text).toBe(ts.system.deps.i18n.t("hi", "common-unknown-input"));
    expect(unknown.text).not.toBe(ts.system.deps.i18n.t("ne", "common-unknown-input"));
  });

  it("runs a whole mobile top-up in Nepali, down to the push", async () => {
    const u = ts.user(943, { language_code: "ne" });
    const menu = await u.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    expect(u.buttons(menu)).toContain("📱 मोबाइल टप-अप");
    await u.tap("📱 मोबाइल टप-अप", /कुन मोबाइल नम्बर रिचार्ज गर्ने\?/);
    // A wrong number is explained in Nepali too, its counts in the digits amounts are written in.
    await u.say("12345", /यसमा 5 अङ्क छन्; ठ्याक्कै 10 चाहिन्छ।/);
    // The number's series names the operator; Nepal's rupee is written रु in Nepali, in the
    // question, its buttons, the confirm and the push.
    const amountQ = await u.say(
      "९८४१०००५०१",
      /9841000501 · NTC Prepaid\nकति\? रु 50 देखि रु 3,000 सम्मको रकम/,
    );
    expect(u.buttons(amountQ)).toContain("✖ रद्द");
    expect(u.buttons(amountQ)).toContain("रु 100");
    // A misplaced comma, typed in Devanagari digits, is refused with the Nepali reason.
    await u.say("१२,०", /अल्पविराम \(,\) अङ्कका समूहबीच मात्र आउँछ/);
    const confirm = await u.say("120", /कृपया आफ्नो अर्डर जाँच्नुहोस्:/);
    expect(confirm.text).toContain("अपरेटर: NTC Prepaid");
    expect(confirm.text).toContain("नम्बर / खाता: 9841000501");
    expect(confirm.text).toContain("रकम: रु 120");
    expect(confirm.text).toContain("अहिले तिर्ने?");
    expect(u.buttons(confirm)).toEqual(["✅ पुष्टि", "✏️ नम्बर", "✏️ रकम", "‹ पछाडि", "✖ रद्द"]);
    const receipt = await u.tap("✅ पुष्टि", /🧾 अर्डर \d+/);
    const ref = /अर्डर (\d+)/.exec(receipt.text)?.[1];
    expect(receipt.text).toContain("अवस्था:");
    const push = await u.waitFor(new RegExp(`✅ अर्डर ${ref} सफल भयो।`));
    expect(push.text).toContain("NTC Prepaid · 9841000501 · रु 120");
    // The receipt is edited in place, in Nepali.
    await u.emu.waitForBotMessage(
      u.id,
      (m) => m.id === receipt.id && m.text.includes("अवस्था: ✅ सफल"),
    );
    const order = await ts.system.orders.get(ref!);
    expect(order?.locale).toBe("ne");
    expect(order?.status).toBe("success");
    // Nothing the user read was English.
    expect(u.botTexts().join("\n")).not.toMatch(/Please|Order|Amount|Operator:|Rs/);
  });

  it("writes a Nepal order's rupees as रु for a Hindi reader, down to the push", async () => {
    const u = ts.user(944, { language_code: "hi" });
    await u.say("/recharge", "आप क्या भरना चाहते हैं?");
    await u.tap("📱 मोबाइल टॉप-अप", /कौन सा मोबाइल नंबर रिचार्ज करना है\?/);
    const amountQ = await u.say(
      "9841000502",
      /9841000502 · NTC Prepaid\nकितना\? रु 50 से रु 3,000 तक/,
    );
    expect(u.buttons(amountQ)).toContain("रु 1,000");
    const confirm = await u.say("1,500", /कृपया अपना ऑर्डर जाँच लीजिए:/);
    expect(confirm.text).toContain("राशि: रु 1,500");
    const receipt = await u.tap("✅ पुष्टि करें", /🧾 ऑर्डर \d+/);
    const ref = /ऑर्डर (\d+)/.exec(receipt.text)?.[1];
    expect(receipt.text).toContain("रु 1,500");
    const push = await u.waitFor(new RegExp(`✅ ऑर्डर ${ref} सफल रहा।`));
    expect(push.text).toContain("NTC Prepaid · 9841000502 · रु 1,500");
    // Neither the English sign nor India's: this order was paid in Nepal's rupees.
    expect(u.botTexts().join("\n")).not.toMatch(/Rs|₹/);
  });

  it("shows a Hindi reader's India recharge in ₹, in the question, confirm, receipt and push", async () => {
    const u = ts.user(945, { language_code: "hi" });
    await u.say("/recharge", "आप क्या भरना चाहते हैं?");
    await u.tap("🇮🇳 भारत रिचार्ज", /भारत: क्या रिचार्ज करना है\?/);
    await u.tap("📱 प्रीपेड मोबाइल", /कौन सा मोबाइल नंबर\?/);
    await u.say("9876543210", /प्रीपेड मोबाइल: कौन सा ऑपरेटर\?/);
    await u.tap("Jio Prepaid", /कनेक्शन किस टेलीकॉम सर्किल \(राज्य\) का है\?/);
    const plans = await u.say("delhi", /₹50 से ₹5,000 तक की राशि लिखिए/);
    expect(u.buttons(plans).some((b) => b.startsWith("₹299 · "))).toBe(true);
    const confirm = await u.say("1,250", /कृपया अपना ऑर्डर जाँच लीजिए:/);
    expect(confirm.text).toContain("राशि: ₹1,250");
    const receipt = await u.tap("✅ पुष्टि करें", /🧾 ऑर्डर \d+/);
    const ref = /ऑर्डर (\d+)/.exec(receipt.text)?.[1];
    expect(receipt.text).toContain("₹1,250");
    const push = await u.waitFor(new RegExp(`✅ ऑर्डर ${ref} सफल रहा।`));
    expect(push.text).toContain("Jio Prepaid · 9876543210 · ₹1,250");
    expect(u.botTexts().join("\n")).not.toMatch(/Rs|रु/);
    expect(await ts.system.orders.get(ref!)).toMatchObject({ region: "in", locale: "hi" });
  });

  it.each([
    ["ne", 946, "🚰 खानेपानी बिल", /कुन महिनाको\?/, ["बैशाख", "जेठ", "असार"], /जम्मा बक्यौता: रु /],
    ["hi", 947, "🚰 पानी का बिल", /किस महीने का\?/, ["बैशाख", "जेठ", "असार"], /कुल बकाया: रु /],
  ] as const)(
    "%s: a water bill's months are short names three to a row, its amounts in रु",
    async (language_code, id, menu, monthQ, firstRow, total) => {
      const u = ts.user(id, { language_code });
      await u.say("/recharge", /\?/);
      await u.tap(menu, /🚰 Khanepani/);
      await u.tap("KUKL Kamaladi", /KUKL Kamaladi/);
      const months = await u.say("123456", monthQ);
      const rows = months.inlineKeyboard?.map((row) => row.map((b) => b.text)) ?? [];
      expect(rows.slice(0, 4).every((row) => row.length === 3)).toBe(true);
      expect(rows[0]).toEqual(firstRow);
      // Short enough that three fit a phone's row without being cut.
      expect(
        rows
          .slice(0, 4)
          .flat()
          .every((name) => name.length <= 7),
      ).toBe(true);
      const bill = await u.tap(rows[2]![0]!, total);
      expect(bill.text).not.toMatch(/Rs|₹/);
      // The pay-the-due question follows the bill, its button in रु too.
      await u.emu.waitFor(() => u.buttons().some((b) => b.startsWith("💳") && b.includes("रु ")));
    },
  );
});
