import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  creditPerson,
  linkTelegramTo,
  linkWhatsAppTo,
  openCategory,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A released number's next holder, joined to their Telegram account in the number's chat: the
 * idle notice of a question they leave unanswered is theirs (the flow's account rides with it,
 * bot/idle.ts `account`), so it reaches their chat, never the old holder's Telegram chat, which a
 * push to the chat's id (the old account's) would reach (review s24-g, findings 1 and 5).
 */

const ADMIN_PHONE = "9779800052000";
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}`, CONVERSATION_IDLE_MS: "3000" },
});

const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

describe("the new holder's idle notice in a released number's chat", () => {
  it("reaches the new holder, not the old holder's Telegram chat", async () => {
    const phone = "9779800052001";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin-52");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-52");
    await asha.say("hi", /Namaste Asha/);
    await creditPerson(ts, waPerson(phone), 10_000);
    const tgA = ts.user(13_101);
    await linkTelegramTo(tgA, asha, phone);
    const bikash = waUser(phone, "Bikash", "NP.bikash-52");
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    const tgB = ts.user(13_102);
    await tgB.register(phone);
    await tgB.credit(30_000);
    await linkWhatsAppTo(bikash, tgB);
    await openCategory(bikash, /Mobile top-up/, /Which mobile number should I recharge/);
    // Nothing typed: the notice comes by itself, to this chat.
    const notice = await bikash.waitFor(/ended after/);
    expect(notice.text).toMatch(/Nothing was charged/);
    expect(tgA.botTexts().some((t) => /ended after/.test(t))).toBe(false);
  });
});
