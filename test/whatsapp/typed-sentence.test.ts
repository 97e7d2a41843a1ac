import { describe, expect, it } from "vitest";
import { asCommand } from "../../src/whatsapp/update.ts";
import { useTestSystem } from "../support/system.ts";
import {
  confirmUntil,
  creditedCustomer,
  openCategory,
  waCustomer,
} from "../support/whatsapp-steps.ts";

/**
 * Review s32-whatsapp, finding 5: WhatsApp has no command menu, so a command word typed bare
 * ("balance", "status 123") counts as the command (update.ts `asCommand`). Every text starting
 * with one did: "Recharge was not received on my phone" typed at the complaint's question became
 * /recharge, and the customer was asked "Stop raising this complaint?"; an admin's reason
 * "Credit entered twice" would have been /credit. A command word with more than one word after it
 * now counts only when what follows is arguments: the first has a digit (a reference, a phone, a
 * month, a code) and there are at most three (/waid <number> accept <id>).
 * Finding 6: only a bare greeting word was one; "Hi!", "Namaste 🙏" got "I did not understand".
 * Left s33, 3: a greeting with one word after it ("Hey Ram", "Namaste ji", "Hi there") was read as
 * /start too, so at a question taking free text (a name, a customer id) it opened "Leave this?".
 * Only a bare greeting is one now.
 */
const COMMANDS = new Set([
  "start",
  "recharge",
  "balance",
  "status",
  "history",
  "link",
  "waid",
  "credit",
  "help",
]);

describe("WhatsApp: a sentence that begins with a command word", () => {
  it("commands typed bare still count, with their arguments", () => {
    for (const [typed, command] of [
      ["balance", "/balance"],
      ["Balance please", "/balance please"],
      ["status 1795973150669", "/status 1795973150669"],
      ["start shop-12", "/start shop-12"],
      ["start r-9861234567-200", "/start r-9861234567-200"],
      ["history 2026-10", "/history 2026-10"],
      ["link 123456", "/link 123456"],
      ["waid 9779841000813 accept NP.123", "/waid 9779841000813 accept NP.123"],
      ["waid 9779841000813 release", "/waid 9779841000813 release"],
      ["hi", "/start"],
      ["balance?", "/balance"],
      ["Help!", "/help"],
    ] as const) {
      expect(asCommand(typed, COMMANDS), typed).toBe(command);
    }
  });

  it("a sentence stays words", () => {
    for (const typed of [
      "Recharge was not received on my phone",
      "Credit entered twice",
      "Balance returned to the customer",
      "Status 123 shows failed but money was taken",
    ]) {
      expect(asCommand(typed, COMMANDS), typed).toBe(typed);
    }
  });

  // Finding 6: a greeting with punctuation, an emoji, drawn-out letters or a word after it was
  // "I did not understand that" to a new customer's first message.
  it("a greeting, however it is written, opens the menu", () => {
    for (const typed of ["hi", "Hi!", "Hello.", "Namaste 🙏", "नमस्ते!", "Hii", "HEYYY"]) {
      expect(asCommand(typed, COMMANDS), typed).toBe("/start");
    }
    expect(asCommand("hi I want to pay my electricity bill", COMMANDS)).toBe(
      "hi I want to pay my electricity bill",
    );
  });

  // Left s33, 3: with a word after it, it is a sentence (an answer), in en, ne and hi words.
  it("a greeting with a word after it stays words", () => {
    for (const typed of [
      "Hey Ram",
      "Hi there",
      "Namaste ji",
      "नमस्ते दाइ",
      "नमस्कार जी",
      "hello 🙏 Sita",
    ]) {
      expect(asCommand(typed, COMMANDS), typed).toBe(typed);
    }
  });

  describe("in a chat", () => {
    const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

    it('a new customer\'s "Hi!" is greeted with the menu', async () => {
      const u = waCustomer(ts, "9779841000822", "Ram");
      const first = await u.say("Hi!");
      expect(first.text).toMatch(/^Namaste Ram!/);
      await u.waitFor(/Choose what you want to pay/);
    });

    it('outside a flow, "Hi there" and "Namaste ji" are greeted with the menu as "hi" is', async () => {
      const u = waCustomer(ts, "9779841000825", "Sita");
      const first = await u.say("Hi there");
      expect(first.text).toMatch(/^Namaste Sita!/);
      await u.waitFor(/Choose what you want to pay/);
      const again = await u.say("Namaste ji");
      expect(again.text).toMatch(/^Namaste Sita!/);
      expect(again.text).not.toContain("did not understand");
    });

    it('"Namaste ji" typed at the name question is the name, not "Leave this?"', async () => {
      const { u } = await creditedCustomer(ts, "9779841000823", 500_000);
      await u.say("9841000823", /How much/);
      await u.say("150", /Please check your order/);
      await confirmUntil(u, "succeeded");
      await u.tap(/Save as/, /What should I call 9841000823\?/);
      const named = await u.say("Namaste ji", /./);
      expect(named.text).not.toContain("Leave");
      expect(named.text).toContain("Saved as Namaste ji · 9841000823");
    });

    it('"Hey Ram" typed at a customer id is re-asked with a reason, the flow kept', async () => {
      const { u } = await creditedCustomer(ts, "9779841000824", 500_000);
      await openCategory(u, /TV \(DTH\)/, /operator/);
      await u.tap("Dish Home", /Your Dish Home customer id/);
      const asked = await u.say("Hey Ram", /./);
      expect(asked.text).not.toContain("Leave");
      expect(asked.text).not.toMatch(/Choose what you want to pay/);
      // The question still stands: a good id goes on to the packages.
      await u.say("DH123456", /Dish Home subscriber DH123456/);
    });

    it("typed at the complaint's question, it is an answer, not a command that ends the complaint", async () => {
      const { u } = await creditedCustomer(ts, "9779841000821", 500_000);
      await u.say("9841234567", /How much/);
      await u.say("150", /Please check your order/);
      await confirmUntil(u, "succeeded");
      await u.tap(/Report a problem/, /What went wrong with order/);
      const wamid = await ts.system.whatsapp!.userSends(
        { waId: u.waId },
        "Recharge was not received on my phone",
      );
      const next = await u.waitFor(undefined, { afterWamid: wamid });
      expect(next.text).not.toContain("Stop raising this complaint?");
      // Re-asked with its reason, the reasons under it again.
      expect(next.text).toContain("Please choose one of the buttons");
      expect(next.buttons.map((b) => b.title)).toContain("1. Paid but not received");
    });
  });
});
