import { describe, expect, it } from "vitest";
import { templateLanguage } from "../../src/whatsapp/template-language.ts";

/** Unit: which approved template a message outside the window goes in, and its words' language. */
describe("templateLanguage", () => {
  const defaults = { en: "en_US", hi: "hi", ne: "en_US" };
  const withNepali = { en: "en_US", hi: "hi", ne: "ne" };
  const rerender = (locale: string) => ({ locale, in: (l: string) => `words in ${l}` });

  it("the person's language when a template is approved in it; the words rendered in it", () => {
    expect(templateLanguage(withNepali, "ne", rerender("en"))).toEqual({
      code: "ne",
      wordsIn: "ne",
    });
    expect(templateLanguage(defaults, "hi", rerender("hi"))).toEqual({ code: "hi" });
  });

  it("no template in the person's language: English, the words rendered in English", () => {
    expect(templateLanguage(defaults, "ne", rerender("ne"))).toEqual({
      code: "en_US",
      wordsIn: "en",
    });
    // A locale the setting does not name at all falls back to en's code too.
    expect(templateLanguage({ en: "en_GB" }, "hi", rerender("hi"))).toEqual({
      code: "en_GB",
      wordsIn: "en",
    });
  });

  it("words that cannot be rendered again choose the template by their own language", () => {
    // An admin alert (English) to a Hindi-speaking admin: not the Hindi template around English.
    expect(templateLanguage(defaults, "hi", { locale: "en" })).toEqual({ code: "en_US" });
    expect(templateLanguage(withNepali, "en", { locale: "ne" })).toEqual({ code: "ne" });
  });

  it("words that say nothing go in the person's language's template", () => {
    expect(templateLanguage(defaults, "hi", undefined)).toEqual({ code: "hi" });
    expect(templateLanguage(defaults, "ne", undefined)).toEqual({ code: "en_US" });
  });
});
