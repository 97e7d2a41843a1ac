import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/**
 * An Indian number typed where a Nepal number is asked is said to be one, with the way to India
 * recharge, and the question stays (review s32-flows, 4: before, "Please use digits only.").
 */
describe("a foreign number at a Nepal number question", () => {
  const ts = useTestSystem();

  it("mobile top-up: an Indian number is named, then a Nepal number goes on", async () => {
    const u = ts.user(9341);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    const refused = await u.say("+91 98765 43210", /Indian number/);
    expect(refused.text).toBe(
      "That is an Indian number. Indian numbers are recharged with 🇮🇳 India recharge (send /recharge); here, please type a Nepal number.\nPlease try again:",
    );
    await u.say("+44 7700 900123", /Only Nepal numbers can be paid here/);
    await u.say("9841009341", /How much/);
  });

  it("landline, in Nepali", async () => {
    const u = ts.user(9342, { language_code: "ne" });
    await u.say("/recharge", "के तिर्न चाहनुहुन्छ?");
    const menu = u.botMessages().at(-1)!;
    const landline = u.buttons(menu).find((b) => b.startsWith("☎️"));
    expect(landline).toBeDefined();
    const ops = await u.tap(landline!);
    await u.tap(u.buttons(ops)[0]!);
    await u.say("+91 98765 43210", /यो भारतको नम्बर हो/);
  });
});
