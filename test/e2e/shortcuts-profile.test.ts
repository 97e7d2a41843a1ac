import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";

/** Issue 30, shortcuts: the bot introduces itself in every language before the first /start. */
describe("the bot's description, end to end", () => {
  const ts = useTestSystem();

  it("sets the description and the short description in English (the default), Nepali and Hindi", async () => {
    const emu = ts.user(3001).emu;
    // Set at start with the command menu: waited for, as the start does not wait for Telegram.
    await emu.waitFor(() => emu.profileText("short_description", "hi"));
    const t = (locale: string, key: string) => ts.system.deps.i18n.t(locale, key);
    expect(emu.profileText("description")).toBe(t("en", "bot-description"));
    expect(emu.profileText("short_description")).toBe(t("en", "bot-short-description"));
    expect(emu.profileText("description")).toMatch(/^Recharge mobiles and pay bills/);
    for (const locale of ["ne", "hi"]) {
      const description = emu.profileText("description", locale);
      const short = emu.profileText("short_description", locale);
      expect(description).toBe(t(locale, "bot-description"));
      expect(short).toBe(t(locale, "bot-short-description"));
      // Written in Devanagari, not the English fallback.
      expect(description).toMatch(/[\u0900-\u097F]/);
      expect(short?.length).toBeLessThanOrEqual(120);
    }
    expect(emu.profileText("description", "ne")).toContain("नेपाल र भारतमा");
    expect(emu.profileText("description", "hi")).toContain("नेपाल और भारत में");
    // Telegram's own read-back answers what was set (a language without its own: the default).
    const api = ts.system.bot.api;
    expect(await api.getMyShortDescription({ language_code: "ne" })).toEqual({
      short_description: t("ne", "bot-short-description"),
    });
    expect(await api.getMyDescription({ language_code: "fr" })).toEqual({
      description: t("en", "bot-description"),
    });
  });
});
