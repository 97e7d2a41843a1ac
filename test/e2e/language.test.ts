import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/** Languages: Telegram's language code decides first, /language changes it for good. */
describe("languages, end to end", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem();
  });
  afterAll(async () => {
    await ts.cleanup();
  });

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
    expect((await u.say("/help")).text).toBe(ts.system.deps.i18n.t("hi", "help-text"));
    const unknown = await u.say("hello?");
    expect(unknown.text).toBe(ts.system.deps.i18n.t("hi", "common-unknown-input"));
    expect(unknown.text).not.toBe(ts.system.deps.i18n.t("ne", "common-unknown-input"));
  });

  it("runs a whole mobile top-up in Nepali, down to the push", async () => {
    const u = ts.user(943, { language_code: "ne" });
    const menu = await u.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    expect(u.buttons(menu)).toContain("📱 मोबाइल टप-अप");
    await u.tap("📱 मोबाइल टप-अप", /कुन मोबाइल नम्बर रिचार्ज गर्ने\?/);
    // A wrong number is explained in Nepali too.
    await u.say("12345", /यसमा ५ अङ्क छन्; ठ्याक्कै १० चाहिन्छ।/);
    const op = await u.say("९८४१०००५०१", /9841000501 को अपरेटर:/);
    expect(u.buttons(op)).toContain("✓ NTC Prepaid (पहिचान भयो)");
    expect(u.buttons(op)).toContain("✖ रद्द");
    await u.tap("✓ NTC Prepaid (पहिचान भयो)", /कति\? Rs 50 देखि Rs 3,000 सम्मको रकम/);
    const confirm = await u.say("120", /कृपया आफ्नो अर्डर जाँच्नुहोस्:/);
    expect(confirm.text).toContain("अपरेटर: NTC Prepaid");
    expect(confirm.text).toContain("नम्बर / खाता: 9841000501");
    expect(confirm.text).toContain("रकम: Rs 120");
    expect(confirm.text).toContain("अहिले तिर्ने?");
    expect(u.buttons(confirm)).toEqual(["✅ पुष्टि", "✖ रद्द"]);
    const receipt = await u.tap("✅ पुष्टि", /🧾 अर्डर \d+/);
    const ref = /अर्डर (\d+)/.exec(receipt.text)?.[1];
    expect(receipt.text).toContain("अवस्था:");
    const push = await u.waitFor(new RegExp(`✅ अर्डर ${ref} सफल भयो।`));
    expect(push.text).toContain("NTC Prepaid · 9841000501 · Rs 120");
    // The receipt is edited in place, in Nepali.
    await u.emu.waitForBotMessage(
      u.id,
      (m) => m.id === receipt.id && m.text.includes("अवस्था: ✅ सफल"),
    );
    const order = await ts.system.orders.get(ref!);
    expect(order?.locale).toBe("ne");
    expect(order?.status).toBe("success");
    // Nothing the user read was English.
    expect(u.botTexts().join("\n")).not.toMatch(/Please|Order|Amount|Operator:/);
  });
});
