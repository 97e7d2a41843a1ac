import { describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { linkTelegramTo } from "../support/whatsapp-steps.ts";

/**
 * One person, one account, whichever channel came first: a customer who began on WhatsApp and
 * then registers the same phone on Telegram, and types the code sent to their WhatsApp chat, sees
 * their WhatsApp balance there (the Telegram user is linked to the WhatsApp-born account), and
 * what they spend on one channel is gone on both.
 */
describe("WhatsApp first, then Telegram: one account", () => {
  const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

  it("links the Telegram user to the WhatsApp account of the same phone", async () => {
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("local mode runs the WhatsApp stand-in");
    const phone = "9779841777001";
    const wa = new WhatsAppChatUser(standIn, phone, { name: "Gita" });
    await wa.say("hi", /Namaste Gita/);
    const person = chatIdOfWaId(phone) as number;
    const credited = await ts.system.ledger.transfer({
      id: "wa-first-credit",
      debit: account.merchant.funding,
      credit: account.customer(person),
      amountPaisa: 70_000,
      kind: "credit",
    });
    expect(credited.ok).toBe(true);
    await wa.say("balance", /Rs 700/);

    // The same person on Telegram: shares the phone's contact, types the code sent to the
    // WhatsApp chat, and the balance is the same one.
    const tg = ts.user(4101);
    await linkTelegramTo(tg, wa, phone);
    await tg.say("/balance", /Rs 700/);
    // The phone still names the WhatsApp-born account, and no second account was opened.
    expect(await ts.system.deps.accounts.userByPhone(phone as never)).toBe(person);
    expect((await ts.system.ledger.balance(account.customer(4101))).availablePaisa).toBe(0);

    // Spent on Telegram, gone on WhatsApp.
    await tg.mobileToConfirm("9841230411", "200");
    const { push } = await tg.confirmUntil("succeeded");
    expect(push.text).toContain("Rs 200");
    await wa.say("balance", /Rs 500/);
    const orders = await ts.system.orders.listByUser(person, 10);
    expect(orders.map((o) => o.status)).toEqual(["success"]);

    // Linked, the Telegram chat cannot move the WhatsApp account to another number (whoever got
    // the old number next would write as this account on WhatsApp).
    const { message_id } = tg.emu.sendContact(tg.id, { phoneNumber: "+9779841777002" });
    await tg.emu.waitForBotMessage(tg.id, /your WhatsApp account \(\+977 9841777001\)/, {
      afterId: message_id,
    });
    expect(await ts.system.deps.accounts.phoneOf(person)).toBe(phone);
    expect(await ts.system.deps.accounts.userByPhone("9779841777002" as never)).toBeNull();
  });

  it("does not link a Telegram user who has an account of their own", async () => {
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("local mode runs the WhatsApp stand-in");
    const phone = "9779841777011";
    await new WhatsAppChatUser(standIn, phone, { name: "Ram" }).say("hi", /Namaste Ram/);
    const tg = ts.user(4102);
    await tg.register();
    const { message_id } = tg.emu.sendContact(tg.id, { phoneNumber: `+${phone}` });
    await tg.emu.waitForBotMessage(tg.id, /has an account of its own/, {
      afterId: message_id,
    });
    // Nothing moved: the number is the WhatsApp account's, the Telegram user keeps their own.
    expect(await ts.system.deps.accounts.userByPhone(phone as never)).toBe(chatIdOfWaId(phone));
    expect(await ts.system.deps.accounts.phoneOf(4102)).toBe(tg.phone());
    expect(await ts.system.deps.accounts.links.linkOf(4102)).toBeNull();
    // And no code was sent to the WhatsApp chat.
    expect(standIn.messagesTo(phone).some((m) => /Your code/.test(m.text))).toBe(false);
  });
});
