import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { availableOf, linkWhatsAppTo, standInOf, waPerson } from "../support/whatsapp-steps.ts";

/**
 * A WhatsApp chat's link to a Telegram account is sealed with who proved it (the sender's Meta
 * user id: accounts/links.ts, whatsapp/held.ts `senderSeal`). The chat's old holder, joined to
 * their Telegram account, later took the number for an account of the chat's own, which an admin
 * released (/waid) to the number's next holder; the old Telegram account then shared the number
 * again. The link sealed by the old holder no longer names whoever reads the chat: the Telegram
 * account's messages to it (a top-up's notice) are not delivered there but to the Telegram
 * account's own chat (review s25-left, 2: `chatNowOf` read the link without its seal, so the
 * notice reached the new holder; review s25-f, S1).
 */

const ADMIN_PHONE = "9779800052000";
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}` },
});
const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

describe("a released chat's link sealed by its old holder", () => {
  it("carries none of the linked Telegram account's messages to the number's new holder", async () => {
    const phone = "9779800052001";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin-52");
    await admin.say("hi");
    // Asha's Telegram account holds the number; her WhatsApp chat joins it with a code.
    const tgA = ts.user(13_201);
    await tgA.register(phone);
    const asha = waUser(phone, "Asha", "NP.asha-201");
    await asha.say("hi", /registered with us on Telegram/);
    await linkWhatsAppTo(asha, tgA);
    // A top-up started in the chat as the Telegram account, paid later.
    const started = await ts.system.topUps!.start({
      userId: tgA.id,
      chatId: waPerson(phone),
      locale: "en",
      amountPaisa: 20_000,
    });
    if (!started.ok) throw new Error("top-up start refused");
    // The Telegram account moves to another number; the chat takes this one for its own account.
    await tgA.register("9779800052002");
    await asha.say("hi", /Namaste Asha/);
    // The number's next holder writes; an admin releases it from Asha's WhatsApp account.
    const bikash = waUser(phone, "Bikash", "NP.bikash-201");
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    const since = bikash.texts().length;
    // Asha's Telegram account, which never re-checks its number, shares this one again.
    await tgA.register(phone);
    ts.system.khalti!.act(started.topUp.paymentId, "pay");
    await ts.system.topUps!.confirm("khalti", started.topUp.paymentId);
    const topUp = () => ts.system.topUps!.get(started.topUp.paymentId);
    await waitUntil(async () => {
      const t = await topUp();
      return t?.notified !== undefined || t?.pushFailed !== undefined;
    }, "the top-up's notice tried");
    expect(await availableOf(ts, tgA.id)).toBe(20_000);
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(/added to your balance|Rs 200/);
    // Not the chat's now: the notice goes to the Telegram account's own chat instead.
    expect((await topUp())?.pushFailed).toBeUndefined();
    expect((await tgA.waitFor((m) => /added to your balance/.test(m.text))).text).toMatch(/Rs 200/);
  });
});
