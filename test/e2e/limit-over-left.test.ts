import { afterEach, describe, expect, it } from "vitest";
import { formatOrderTime } from "../../src/bot/format.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * An order over what is left of today's cap, while some of it is left: the customer is told the
 * order's figure and what is left, never "you have reached today's limit" (session 32, h-rvflow).
 */
describe("an order over what is left of today's cap", () => {
  let ts: TestSystem | undefined;
  afterEach(async () => {
    await ts?.cleanup();
    ts = undefined;
  });

  const nextNepalMidnight = (locale: string) => {
    const offset = 345 * 60_000;
    const day = 86_400_000;
    return formatOrderTime(
      Math.floor((Date.now() + offset) / day + 1) * day - offset,
      "np",
      locale,
    );
  };

  it("a repeat of Rs 400 with Rs 100 left says both figures, in English and Nepali", async () => {
    ts = await startTestSystem({ env: { DAILY_SPEND_CAP: "500" } });
    for (const [id, lang] of [
      [9321, "en"],
      [9322, "ne"],
    ] as const) {
      const u = ts.user(id, { language_code: lang });
      // Rs 400 of the Rs 500 spent today: Rs 100 is left.
      await u.say("9841009321", lang === "en" ? /How much/ : /कति\?/);
      await u.say("400", lang === "en" ? /Please check your order/ : /अर्डर जाँच्नुहोस्/);
      // The cap counts the order from its Confirm, whatever its outcome.
      await u.tap(lang === "en" ? "✅ Confirm" : "✅ पुष्टि", /🧾/);
      const list = await u.say("/history");
      const repeat = u.buttons(list).find((b) => b.startsWith("🔁"));
      expect(repeat).toBeDefined();
      u.press(repeat!);
      const refused = await u.waitFor(lang === "en" ? /limit/ : /सीमा/);
      expect(refused.text).toBe(
        lang === "en"
          ? `This order counts Rs 400 towards today's limit of Rs 500, and Rs 100 of it is left today: you can order up to Rs 100 now, or this order from ${nextNepalMidnight("en")}.`
          : `यो अर्डरले आजको रु 500 को सीमाबाट रु 400 लिन्छ, तर आज रु 100 मात्र बाँकी छ: अहिले रु 100 सम्मको अर्डर गर्न सक्नुहुन्छ, वा यो अर्डर ${nextNepalMidnight("ne")} देखि।`,
      );
      expect(await ts.system.orders.listByUser(id, 10)).toHaveLength(1);
    }
  });
});
