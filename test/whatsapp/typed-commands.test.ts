import { describe, expect, it } from "vitest";
import { typedCommands } from "../../src/whatsapp/command-words.ts";
import { useTestSystem } from "../support/system.ts";
import { creditedCustomer } from "../support/whatsapp-steps.ts";

/**
 * WhatsApp has no command menu: a customer types a command's word bare. /help offered
 * "/complain", "/statement", "/reminders", yet the bare words were answered "I did not
 * understand that"; and the texts WhatsApp customers got named slash commands ("/help"'s list,
 * "Send /recharge to make one", "check /history", a flow's Cancel "Send /addmoney …"). Now every
 * command the bot answers is typed bare there, and every WhatsApp text names the words to type
 * (src/whatsapp/command-words.ts); Telegram's texts are unchanged.
 */

/** A slash command at a word's start, as a WhatsApp text should no longer show one. */
const SLASH = /(^|[\s("])\/[a-z]/mu;

describe("WhatsApp: the commands /help offers, typed bare, and the texts that name them", () => {
  const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

  it("complain, statement and reminders typed bare run their commands", async () => {
    const { u } = await creditedCustomer(ts, "9779841000861", 500_000);
    await u.say("complain", /nothing to complain about/);
    await u.say("Statement", /Which month's statement/);
    await u.say("reminders", /No reminders coming up/);
    // A sentence that begins with the word is still words, not the command.
    await u.say("complain my recharge never arrived today", /I did not understand that/);
  });

  it("help, an empty history and a flow's Cancel name the words to type", async () => {
    const { u } = await creditedCustomer(ts, "9779841000862", 500_000);
    const help = await u.say("help", /What I can do/);
    expect(help.text).not.toMatch(SLASH);
    expect(help.text).toContain('"recharge" – recharge or pay a bill');
    expect(help.text).toContain('"history 2026-10" shows one month');
    expect(help.text).toContain('"complain" – report a problem with an order');
    expect(help.text).toContain('"statement" – a month');
    const history = await u.say("history", /no orders yet/);
    expect(history.text).toBe('You have no orders yet. Send "recharge" to make one.');
    await u.say("addmoney", /How much do you want to add/);
    const cancelled = await u.say("cancel", /Cancelled/);
    expect(cancelled.text).toBe(
      'Cancelled. Nothing was added and nothing was paid. Send "addmoney" to add money.',
    );

    await u.say("language", /Choose your language/);
    await u.tap("नेपाली", /नेपाली/);
    const ne = await u.say("help", /"recharge"/);
    expect(ne.text).not.toMatch(SLASH);
    expect(ne.text).toContain('"complain"');
  });

  it("names the typed words with their argument, and leaves links and Telegram's commands", () => {
    for (const [text, typed] of [
      [
        "Something went wrong on our side. Before you try again, please check /history to see whether your order went through.",
        'Something went wrong on our side. Before you try again, please check "history" to see whether your order went through.',
      ],
      ["/history 2026-10 shows one month", '"history 2026-10" shows one month'],
      ["Send /settle 1795973150669.", 'Send "settle 1795973150669".'],
      ["The merchant's books: /books", 'The merchant\'s books: "books"'],
      ["(/balance shows it)", '("balance" shows it)'],
      ["फेरि सुरु गर्न /cashin पठाउनुहोस्।", 'फेरि सुरु गर्न "cashin" पठाउनुहोस्।'],
      ["Send /credit to start again.", 'Send "credit" to start again.'],
      ["Send /complain when you want", 'Send "complain" when you want'],
      // Not read bare (typed with the slash it still works), a link's path, Telegram's own.
      ["send /unlink first", "send /unlink first"],
      ["open https://bot.example/status/1", "open https://bot.example/status/1"],
      ["send /myqr on Telegram for it", "send /myqr on Telegram for it"],
      ["टेलिग्राम मा /myqr पठाउनुहोस्", "टेलिग्राम मा /myqr पठाउनुहोस्"],
    ] as const) {
      expect(typedCommands(text)).toBe(typed);
    }
  });
});
