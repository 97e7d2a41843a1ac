import { describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/phone.ts";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { creditPerson, openCategory, standInOf } from "../support/whatsapp-steps.ts";

/**
 * A released number's next holder acts as a fresh account in the number's chat: the idle notice
 * of a question they leave unanswered reaches them. The deadline is keyed by the chat, whose id
 * is the old account's (its messages never reach the number again): the notice goes where the
 * flow's account is read (the fresh account's chat), as its order pushes do.
 */

const ADMIN_PHONE = "9779800051000";
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}`, CONVERSATION_IDLE_MS: "3000" },
});

const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

describe("a fresh WhatsApp account's idle notice", () => {
  it("reaches the number's new holder", async () => {
    const phone = "9779800051001";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-51");
    await asha.say("hi", /Namaste Asha/);
    const bikash = waUser(phone, "Bikash", "NP.bikash-51");
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    await bikash.say("balance", /Rs 0/);
    const fresh = (await ts.system.deps.accounts.userByPhone(phone as Phone)) ?? 0;
    await creditPerson(ts, fresh, 30_000);
    await openCategory(bikash, /Mobile top-up/, /Which mobile number should I recharge/);
    // Nothing typed: the notice comes by itself, to this chat.
    const notice = await bikash.waitFor(/ended after/);
    expect(notice.text).toMatch(/Nothing was charged/);
  });
});
