import { describe, expect, it } from "vitest";
import { notificationRender } from "../../src/bot/notification-render.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createChatI18n } from "../../src/system/bot.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { mobileInput } from "../support/orders.ts";
import {
  graphClient,
  notifierOver,
  openWindows,
  useGraphStandIn,
} from "../support/whatsapp-notifier.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A final push outside the 24-hour window goes as the approved template: in the language the
 * person reads when a template is approved in it, else English, and its words in the template's
 * language, rendered from the order again when the order was placed in another one. Before, the
 * template's language was the person's and the words the order's: a Nepali order's words in the
 * English template (Meta has no Nepali, `ne:en_US` by default), or an English order's words in
 * the Nepali template after the person changed language.
 */
const render = notificationRender(createChatI18n(CATEGORY_MODULES));
/** WHATSAPP_TEMPLATE_LANGUAGES's default, and one with a Nepali template approved. */
const DEFAULT_LANGUAGES = { en: "en_US", hi: "hi", ne: "en_US" };
const WITH_NEPALI = { en: "en_US", hi: "hi", ne: "ne" };

const graph = useGraphStandIn();

let phones = 0;
/**
 * An order of `orderLocale` pushed to a person who reads `personLocale` now, their window closed
 * (they never wrote): the template the stand-in received.
 */
async function pushedTemplate(
  orderLocale: string,
  personLocale: string,
  languages: Record<string, string>,
  /** Meta's refusal of the first template send. */
  fault?: number,
) {
  const waId = `97798420${String(++phones).padStart(5, "0")}`;
  if (fault !== undefined) graph().standIn.faults.failNextSends(fault, 1, waId);
  const chatId = chatIdOfWaId(waId) as number;
  const client = graphClient(graph().graphRoot);
  const { fetch } = testRouter({
    store: createMemoryWaChatStore(),
    send: (to, body, o) => client.send(to, body, o),
    localeOf: async () => ({ locale: personLocale, opener: "Choose" }),
    template: { name: "order_update", languages },
  });
  const { orders, notifier } = notifierOver(fetch, { notifier: { render } });
  const o = await orders.place(mobileInput({ chatId, userId: chatId, locale: orderLocale }));
  await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
  expect(await notifier.runOnce()).toEqual(["sent"]);
  const [message, ...more] = graph().standIn.messagesTo(waId);
  expect(more).toEqual([]);
  expect(message?.kind).toBe("template");
  return { text: message?.text ?? "", ref: o.reference };
}

describe("WhatsApp template: its language and its words' are the same", () => {
  it("a Nepali speaker's push goes in the Nepali template, with Nepali words, when one is approved", async () => {
    const { text, ref } = await pushedTemplate("ne", "ne", WITH_NEPALI);
    expect(text).toMatch(/^\[template order_update\/ne\] /);
    expect(text).toContain(`अर्डर ${ref} सफल भयो।`);
  });

  it("an order placed in English, pushed after the person chose Nepali: the Nepali template, Nepali words", async () => {
    // Before: [template order_update/ne] ✅ Order … succeeded.
    const { text, ref } = await pushedTemplate("en", "ne", WITH_NEPALI);
    expect(text).toMatch(/^\[template order_update\/ne\] /);
    expect(text).toContain(`अर्डर ${ref} सफल भयो।`);
    expect(text).not.toContain("succeeded");
  });

  it("no Nepali template approved (the default): the English template, with English words", async () => {
    // Before: [template order_update/en_US] ✅ अर्डर … सफल भयो।
    const { text, ref } = await pushedTemplate("ne", "ne", DEFAULT_LANGUAGES);
    expect(text).toMatch(/^\[template order_update\/en_US\] /);
    expect(text).toContain(`Order ${ref} succeeded.`);
    expect(text).not.toContain("सफल");
  });

  it("a Hindi order to a Hindi speaker: the Hindi template, Hindi words (unchanged)", async () => {
    const { text } = await pushedTemplate("hi", "hi", DEFAULT_LANGUAGES);
    expect(text).toMatch(/^\[template order_update\/hi\] /);
    expect(text).not.toContain("succeeded");
  });

  // A WHATSAPP_TEMPLATE_LANGUAGES entry ahead of Meta's approval (or one withdrawn). Before: the
  // push dead-lettered at once (a 400), for every Hindi reader outside the window (s21 finding 5).
  it("no Hindi template at Meta after all (132001): the English template, with English words", async () => {
    const { text, ref } = await pushedTemplate("hi", "hi", DEFAULT_LANGUAGES, 132001);
    expect(text).toMatch(/^\[template order_update\/en_US\] /);
    expect(text).toContain(`Order ${ref} succeeded.`);
  });
});

describe("WhatsApp template: a push sent again as the template after a late failed 131047", () => {
  // The window was open by our clock, Meta's had closed: the push is accepted, then reported
  // `failed` 131047 and sent again as the template. Before (s21 finding 7): the Nepali words kept
  // from the free-form send went into the English template (Meta has no Nepali).
  it("a Nepali order's push goes again as the English template, with English words", async () => {
    const waId = `97798421${String(++phones).padStart(5, "0")}`;
    const chatId = chatIdOfWaId(waId) as number;
    const client = graphClient(graph().graphRoot);
    const chats = createMemoryWaChatStore();
    await openWindows(chats, [waId], graph().standIn, "नमस्ते");
    const { router, fetch } = testRouter({
      store: chats,
      send: (to, body, o) => client.send(to, body, o),
      localeOf: async () => ({ locale: "ne", opener: "छान्नुहोस्" }),
      template: { name: "order_update", languages: DEFAULT_LANGUAGES },
    });
    const { orders, notifier } = notifierOver(fetch, { notifier: { render } });
    const o = await orders.place(mobileInput({ chatId, userId: chatId, locale: "ne" }));
    await orders.apply({ reference: o.reference, source: "execute", status: "success", at: 1 });
    expect(await notifier.runOnce()).toEqual(["sent"]);
    const [free] = graph().standIn.messagesTo(waId);
    expect(free?.kind).not.toBe("template");
    expect(free?.text).toContain(`अर्डर ${o.reference} सफल भयो।`);

    expect(await router.resendAsTemplate(chatId, free?.wamid ?? "")).toBe(true);
    const [, again, ...more] = graph().standIn.messagesTo(waId);
    expect(more).toEqual([]);
    expect(again?.text).toMatch(/^\[template order_update\/en_US\] /);
    expect(again?.text).toContain(`Order ${o.reference} succeeded.`);
    expect(again?.text).not.toContain("सफल");
  });
});
