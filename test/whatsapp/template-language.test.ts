import { describe, expect, it } from "vitest";
import { withWords } from "../../src/telegram/words.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { templateLanguage } from "../../src/whatsapp/template-language.ts";
import type { WaOutbound } from "../../src/whatsapp/types.ts";
import { testRouter } from "../support/whatsapp-router.ts";

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

describe("router: a push rendered again for the template keeps its link lines", () => {
  // The router writes a link button under the words ("label: url": WhatsApp's buttons carry no
  // URL). Before (s21 finding 7): the words rendered again in the template's language replaced the
  // whole text, link lines included.
  it("a Nepali push with a link, outside the window: English words, the link under them", async () => {
    const sent: WaOutbound[] = [];
    const { fetch } = testRouter({
      store: createMemoryWaChatStore(),
      send: async (_to, body) => {
        sent.push(body);
        return { wamid: `wamid.${sent.length}` };
      },
      localeOf: async () => ({ locale: "ne", opener: "छान्नुहोस्" }),
      template: { name: "order_update", languages: { en: "en_US", hi: "hi", ne: "en_US" } },
    });
    const words = {
      locale: "ne",
      in: (l: string) => (l === "ne" ? "अर्डर 7 सफल भयो।" : "Order 7 succeeded."),
    };
    await withWords(words, () =>
      fetch("http://bot.test/botX/sendMessage", {
        method: "POST",
        body: JSON.stringify({
          chat_id: WA_CHAT_BASE + 9779841000933,
          text: "अर्डर 7 सफल भयो।",
          reply_markup: { inline_keyboard: [[{ text: "Receipt", url: "https://r.test/7" }]] },
        }),
      }),
    );
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).toContain('"code":"en_US"');
    expect(JSON.stringify(sent[0])).toContain("Order 7 succeeded. · Receipt: https://r.test/7");
  });
});
