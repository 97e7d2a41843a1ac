import { describe, expect, it } from "vitest";
import type { StandInMessage } from "../../dev/whatsapp/index.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { useTestSystem } from "../support/system.ts";
import { standInOf, waCustomer } from "../support/whatsapp-steps.ts";

/**
 * The list opener's label ("Choose" on a list of more than 3 rows) is in the person's language:
 * the one read with the message's arrival (one Redis node), and the new one as soon as the person
 * changes it, though the router trusts a chat's language for 15 s (src/system/whatsapp.ts).
 */
describe("WhatsApp: the list opener speaks the person's language", () => {
  let shift = 0;
  const ts = useTestSystem({
    redis: true,
    env: { ACCESS_MODE: "prepaid" },
    now: () => Date.now() + shift,
  });

  const openerOf = (m: StandInMessage) =>
    (m.body.interactive as { action?: { button?: string } } | undefined)?.action?.button;
  /** A list whose text matches `re`. */
  const list = (re: RegExp) => (m: StandInMessage) => m.kind === "list" && re.test(m.text);

  it("a Nepali person writing more than 15 s after their last message gets छान्नुहोस्", async () => {
    const u = waCustomer(ts, "9779841000931", "Maya");
    await u.say("language", /Choose your language/);
    await u.tap("नेपाली", /नेपाली/);
    // Past the 15 s the router trusts a chat's language for: the arrival's read is what counts.
    shift += 20_000;
    const menu = await u.say("नमस्ते", list(/नमस्ते Maya!/));
    expect(menu.kind).toBe("list");
    expect(menu.buttons.length).toBeGreaterThan(3);
    expect(openerOf(menu)).toBe("छान्नुहोस्");
  });

  it("the language tap forgets the chat's language read at its arrival: a list right after is in the new one", async () => {
    const u = waCustomer(ts, "9779841000932", "Hari");
    const before = await u.say("hi", list(/Namaste Hari/));
    expect(openerOf(before)).toBe("Choose");
    await u.say("language", /Choose your language/);
    // The tap arrives with English read for the chat (and cached), then sets Nepali.
    shift += 20_000;
    await u.tap("नेपाली", /नेपाली/);
    // A push right after (within the 15 s): a list of 5 rows, sent the way the bot sends one.
    const chatId = chatIdOfWaId(u.waId) as number;
    const rows = [1, 2, 3, 4, 5].map((n) => [{ text: `Row ${n}`, callback_data: `x:${n}` }]);
    await ts.system.bot.api.sendMessage(chatId, "Five rows", {
      reply_markup: { inline_keyboard: rows },
    });
    const pushed = await u.waitFor(/Five rows/);
    expect(pushed.kind).toBe("list");
    expect(openerOf(pushed)).toBe("छान्नुहोस्");
  });

  it("and a template right after the language tap has the new language's code", async () => {
    const u = waCustomer(ts, "9779841000933", "Ram");
    await u.say("language", /Choose your language/);
    shift += 20_000;
    await u.tap("हिन्दी", "भाषा हिंदी कर दी गई।");
    // WhatsApp refuses free-form now: the push goes as the template, in its language's code.
    standInOf(ts).closeWindow(u.waId);
    await ts.system.bot.api.sendMessage(chatIdOfWaId(u.waId) as number, "Order 7 succeeded");
    const pushed = await u.waitFor(/Order 7 succeeded/);
    expect(pushed.kind).toBe("template");
    expect(pushed.text).toMatch(/^\[template [a-z0-9_]+\/hi\] /);
  });

  it("a language set between a message's arrival and its handling is not undone by the arrival's read", async () => {
    const u = waCustomer(ts, "9779841000934", "Sita");
    await u.say("hi", list(/Namaste Sita/));
    const chatId = chatIdOfWaId(u.waId) as number;
    // Set on another channel (or instance) right after this message's arrival read English.
    const store = ts.system.whatsappChannel?.store;
    if (!store) throw new Error("no WhatsApp channel");
    const arrive = store.arrive;
    store.arrive = async (...a: Parameters<typeof arrive>) => {
      const arrived = await arrive(...a);
      await ts.system.deps.accounts.setLocale(chatId, "ne");
      return arrived;
    };
    shift += 20_000;
    try {
      await u.say("hello", /Sita/);
    } finally {
      store.arrive = arrive;
    }
    const rows = [1, 2, 3, 4, 5].map((n) => [{ text: `Row ${n}`, callback_data: `y:${n}` }]);
    await ts.system.bot.api.sendMessage(chatId, "Five more rows", {
      reply_markup: { inline_keyboard: rows },
    });
    const pushed = await u.waitFor(/Five more rows/);
    expect(openerOf(pushed)).toBe("छान्नुहोस्");
  });
});
