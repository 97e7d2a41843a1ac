import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  availableOf,
  creditPerson,
  linkCodeIn,
  shareContact,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A Telegram user holds a right code to use a WhatsApp account (sent to that account's WhatsApp
 * chat), and the account's number is released (/waid) before they type it. The code went to a
 * number an admin found to have a new holder, who may be the one typing it: nothing is joined
 * (the old account's money never reaches the new holder). The answer says why and what to do,
 * truthfully (review s25-left, 3: it said the number "is no longer the number of the account"
 * and to share the contact again, which registers the number to the Telegram account itself or
 * sends the code to the new holder: never the way to the old account).
 */

const ADMIN_PHONE = "9779800053000";
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}` },
});
const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

describe("a link code for a WhatsApp account released before it is typed", () => {
  it("joins nothing and says the number was released and to ask support, not for a new code", async () => {
    const phone = "9779800053001";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin-53");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-301");
    await asha.say("hi", /Namaste Asha/);
    const old = waPerson(phone);
    await creditPerson(ts, old, 40_000);
    const tg = ts.user(13_301);
    await shareContact(tg, phone, /sent a 6-digit code to that WhatsApp chat/);
    const sent = await asha.waitFor(/Your code to use this account from Telegram too/);
    // The number's next holder writes; an admin releases it from Asha's account.
    await waUser(phone, "Bikash", "NP.bikash-301").say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    const answer = await tg.say(`/link ${linkCodeIn(sent.text)}`, /Nothing was joined/);
    expect(answer.text).toBe(
      "That code was right, but +977 9800053001 was released from the WhatsApp account it was " +
        "sent for: our support found that the number has a new holder, so a code sent to it no " +
        "longer shows that the account is yours. Nothing was joined. The account keeps its money " +
        "and history; if it is yours, ask our support, or at the shop where you recharge.",
    );
    expect(await ts.system.deps.accounts.links.linkOf(tg.id)).toBeNull();
    expect(await ts.system.deps.accounts.phoneOf(tg.id)).toBeNull();
    expect(await availableOf(ts, old)).toBe(40_000);
  });
});
