import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { linkCodeIn, linkTelegramTo, standInOf, waPerson } from "../support/whatsapp-steps.ts";

/**
 * What `/link` says is true in every outcome the code can reach (review: some said "no code is
 * waiting" where one was, or told a chat to do what cannot give it a code): a right code for a
 * number that has since left its account, `/link` in a chat already joined, and a code typed in
 * the chat it was sent to instead of the one that asked for it. Over Redis, through both chats.
 */

const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });
const waUser = (phone: string, name: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId: `NP.bsuid-${phone}` });

describe("the words of /link", () => {
  it("a right code for a number that left its account since says so, not 'no code'", async () => {
    const phone = "9779800032001";
    const tg = ts.user(32_001);
    await tg.register(phone);
    const wa = waUser(phone, "Maya");
    await wa.say("hi", /registered with us on Telegram/);
    const after = tg.lastId();
    await wa.say("link", /sent a 6-digit code to that Telegram chat/);
    const sent = await tg.emu.waitForBotMessage(tg.id, /Your code to use this account/, {
      afterId: after,
      timeoutMs: 8000,
    });
    // The Telegram account registers the number it uses now, and another Telegram account the
    // old one: it is no longer the number of the account the code was sent for.
    await tg.register("9779800032091");
    await ts.user(32_091).register(phone);
    const answer = await wa.say(`link ${linkCodeIn(sent.text)}`, /nothing was joined/);
    expect(answer.text).toContain(
      "That code was right, but +977 9800032001 is no longer the number of the account it was sent for",
    );
    expect(answer.text).not.toContain("No code is waiting");
    expect(await ts.system.deps.accounts.links.linkOf(waPerson(phone))).toBeNull();
  });

  it("/link in a chat already joined names the account it uses and how to stop", async () => {
    const phone = "9779800032002";
    const wa = waUser(phone, "Gita");
    await wa.say("hi", /./);
    const tg = ts.user(32_002);
    await linkTelegramTo(tg, wa, phone);
    const answer = await tg.say("/link", /already uses/);
    expect(answer.text).toBe(
      "This chat already uses the account of +977 9800032002. To stop, send /unlink.",
    );
  });

  it("a code typed in the chat it was sent to says where it belongs, and asks nothing impossible", async () => {
    const phone = "9779800032003";
    const tg = ts.user(32_003);
    await tg.register(phone);
    const wa = waUser(phone, "Kiran");
    await wa.say("hi", /registered with us on Telegram/);
    const after = tg.lastId();
    await wa.say("link", /sent a 6-digit code to that Telegram chat/);
    const sent = await tg.emu.waitForBotMessage(tg.id, /Your code to use this account/, {
      afterId: after,
      timeoutMs: 8000,
    });
    // Typed on Telegram, where it arrived: no code waits here, and sharing a contact here (the
    // account's own number) would never bring one.
    const answer = await tg.say(`/link ${linkCodeIn(sent.text)}`, /No code is waiting/);
    expect(answer.text).toContain("it was meant for the other chat");
    expect(answer.text).not.toContain("share your contact");
    // In the chat that asked, the same code still joins.
    await wa.say(`link ${linkCodeIn(sent.text)}`, /Joined: this chat now uses the account/);
  });
});
