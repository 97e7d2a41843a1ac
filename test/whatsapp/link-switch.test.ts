import { describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/phone.ts";
import { useTestSystem } from "../support/system.ts";
import {
  creditPerson,
  linkCodeIn,
  linkTelegramTo,
  linkWhatsAppTo,
  waCustomer,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A right link code typed in a chat already joined to another account (A) is for account B: the
 * chat is asked first, in plain words (leaving A, joining B), with Confirm and Cancel; any other
 * message is answered with the question again and why; Cancel keeps A, Confirm replaces it. The
 * same on Telegram and WhatsApp (one gate). Before: the join to A was replaced without a word.
 *
 * WhatsApp: the chat's number, joined to Telegram account X, is registered by Y since, so the
 * chat is held and asks for Y's code as a person does. Telegram: joined to A as a person does it;
 * the code for B is then offered through the link store (the chat's own screens cannot ask for a
 * second code while joined: one offer per chat, made before the join, e.g. on another instance).
 */

const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

const links = () => ts.system.deps.accounts.links;

/** A code for `personId` (the account of `phone`) waiting to be typed in `channelId`'s chat. */
async function offered(channelId: number, personId: number, phone: string): Promise<string> {
  const r = await links().offer(channelId, { personId, phone: phone as Phone });
  if (!r.ok) throw new Error("no code offered");
  return r.code;
}

describe("a code for another account in a chat already joined", () => {
  it("Telegram: asks first, re-asks on other input, Cancel keeps A, Confirm joins B", async () => {
    const phoneA = "9779800041001";
    const phoneB = "9779800041002";
    const waA = waCustomer(ts, phoneA, "Anil");
    await waA.say("hi", /Namaste/);
    const waB = waCustomer(ts, phoneB, "Bina");
    await waB.say("hi", /Namaste/);
    await creditPerson(ts, waPerson(phoneA), 10_000);
    await creditPerson(ts, waPerson(phoneB), 25_000);
    const tg = ts.user(41_001);
    await linkTelegramTo(tg, waA, phoneA);
    await tg.say("/balance", /Your balance: Rs 100/);

    const ask =
      /uses the account of \+977 9800041001\. The code is right for the account of \+977 9800041002\..*leaves the account of \+977 9800041001/s;
    await tg.say(`/link ${await offered(tg.id, waPerson(phoneB), phoneB)}`, ask);
    // Still A until answered.
    expect(await links().linkOf(tg.id)).toBe(waPerson(phoneA));
    await tg.say("/balance", /^Please answer this first: tap Confirm or Cancel/);
    await tg.say("hello", /that message was not an answer/);
    await tg.tap("✖ Cancel", /^Cancelled: this chat still uses the account of \+977 9800041001/);
    expect(await links().linkOf(tg.id)).toBe(waPerson(phoneA));
    await tg.say("/balance", /Your balance: Rs 100/);

    await tg.say(`/link ${await offered(tg.id, waPerson(phoneB), phoneB)}`, ask);
    await tg.tap("✅ Confirm", /^✅ Switched: this chat left the account of \+977 9800041001/);
    expect(await links().linkOf(tg.id)).toBe(waPerson(phoneB));
    await tg.say("/balance", /Your balance: Rs 250/);
    // The question's buttons are spent: a second tap changes nothing.
    await tg.tap("✅ Confirm", /^No switch is waiting in this chat/);
    expect(await links().linkOf(tg.id)).toBe(waPerson(phoneB));
  });

  it("WhatsApp: its number moved to another Telegram account; the code for it asks first", async () => {
    const phoneW = "9779800041101";
    const x = ts.user(41_101);
    await x.register(phoneW);
    await x.credit(30_000);
    const w = waCustomer(ts, phoneW, "Wangmo");
    await w.say("hi", /registered with us on Telegram/);
    await linkWhatsAppTo(w, x);
    await w.say("balance", /Your balance: Rs 300/);
    const chat = waPerson(phoneW);
    // The number is registered on Telegram by another account now: the chat's join to X no
    // longer matches its number, so it is held (whatsapp/held.ts) and may ask for Y's code.
    const y = ts.user(41_102);
    await y.register(phoneW);
    await y.credit(45_000);
    await w.say("balance", /registered with us on Telegram/);
    const after = y.lastId();
    await w.say("link", /sent a 6-digit code to that Telegram chat/);
    const sent = await y.emu.waitForBotMessage(
      y.id,
      /Your code to use this account from WhatsApp/,
      {
        afterId: after,
        timeoutMs: 8000,
      },
    );
    const code = linkCodeIn(sent.text);

    // X no longer has a number: "another account" (no number to name it by).
    const ask =
      /^This chat now uses another account\. The code is right for the account of \+977 9800041101\./;
    await w.say(`link ${code}`, ask);
    expect(await links().linkOf(chat)).toBe(x.id);
    await w.say("balance", /^Please answer this first/);
    await w.tap("✅ Confirm", /^✅ Switched: .*now uses the account of \+977 9800041101/s);
    expect(await links().linkOf(chat)).toBe(y.id);
    await w.say("balance", /Your balance: Rs 450/);
  });

  it("WhatsApp: Cancel keeps the join it had", async () => {
    const phoneW = "9779800041111";
    const x = ts.user(41_111);
    await x.register(phoneW);
    const w = waCustomer(ts, phoneW, "Pema");
    await w.say("hi", /registered with us on Telegram/);
    await linkWhatsAppTo(w, x);
    const y = ts.user(41_112);
    await y.register(phoneW);
    const after = y.lastId();
    await w.say("link", /sent a 6-digit code to that Telegram chat/);
    const sent = await y.emu.waitForBotMessage(
      y.id,
      /Your code to use this account from WhatsApp/,
      {
        afterId: after,
        timeoutMs: 8000,
      },
    );
    await w.say(`link ${linkCodeIn(sent.text)}`, /The code is right for the account/);
    await w.say("hello", /that message was not an answer/);
    await w.tap("✖ Cancel", /^Cancelled: this chat still uses the account/);
    expect(await links().linkOf(waPerson(phoneW))).toBe(x.id);
  });

  it("a code for the account the chat already uses just joins it again (nothing to ask)", async () => {
    const phoneA = "9779800041201";
    const waA = waCustomer(ts, phoneA, "Asmita");
    await waA.say("hi", /Namaste/);
    const tg = ts.user(41_201);
    await linkTelegramTo(tg, waA, phoneA);
    await tg.say(`/link ${await offered(tg.id, waPerson(phoneA), phoneA)}`, /^✅ Joined/);
    expect(await links().linkOf(tg.id)).toBe(waPerson(phoneA));
  });
});
