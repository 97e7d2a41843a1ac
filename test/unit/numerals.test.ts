import { describe, expect, it } from "vitest";
import { createI18n, translator } from "../../src/bot/i18n.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { formatMoney } from "../../src/money.ts";
import { localeText } from "../support/locale-files.ts";

/**
 * One digit system in a message (review item: Nepali counts came out in Devanagari digits beside
 * amounts in Latin ones, "१२ खाता" next to "रु 1,000"). Money is written in Latin digits in every
 * language (formatMoney, so an amount shown can be typed back), and so are references and phone
 * numbers; so every number a Nepali or Hindi message carries is Latin too: the counts Fluent
 * formats, and the numbers written into the texts.
 */

const DEVANAGARI_DIGIT = /[\u0966-\u096F]/;
const extraDirs = CATEGORY_MODULES.flatMap((m) => (m.localesDir ? [m.localesDir] : []));
const i18n = createI18n(() => "en", extraDirs);

describe("numerals in Nepali and Hindi messages", () => {
  it.each(["ne", "hi"] as const)(
    "%s: a count beside an amount is in the amount's digits",
    (locale) => {
      const t = translator(i18n, locale);
      const rs = (paisa: number) => formatMoney(paisa, { locale });
      const text = t("books-customers", { balance: rs(100_000), held: rs(15_000), count: 12 });
      expect(text).toContain(rs(100_000));
      expect(text).toMatch(/\b12 /);
      expect(text).not.toMatch(DEVANAGARI_DIGIT);
      const mixed = t("err-phone-mobile-length", { actual: 8 });
      expect(mixed).toMatch(/\b8 /);
      expect(mixed).not.toMatch(DEVANAGARI_DIGIT);
    },
  );

  it("plural forms still follow the language's rules", () => {
    expect(translator(i18n, "hi")("books-agents", { balance: "₹1", count: 1 })).toContain("1 खाता");
    expect(translator(i18n, "hi")("books-agents", { balance: "₹1", count: 3 })).toContain("3 खाते");
    expect(translator(i18n, "en")("books-agents", { balance: "Rs 1", count: 1 })).toMatch(
      /1 account\b/,
    );
  });

  it.each(["ne", "hi"])("%s: no message is written with Devanagari digits", (locale) => {
    const lines = localeText(locale)
      .split("\n")
      .filter((l) => !l.startsWith("#") && DEVANAGARI_DIGIT.test(l));
    expect(lines).toEqual([]);
  });
});
