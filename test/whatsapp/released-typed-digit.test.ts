import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { standInOf } from "../support/whatsapp-steps.ts";

/**
 * A released number's chat forgets its last numbered list (the old holder's menu): a digit its
 * next holder types presses no row of it (`forgetChat` drops the chat's `lb`).
 */

const ADMIN_PHONE = "9779800050000";
const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", ADMIN_IDS: `wa:${ADMIN_PHONE}` },
});

const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

describe("a released number's last numbered list", () => {
  it("is forgotten: a digit typed by the next holder presses none of its rows", async () => {
    const phone = "9779800050001";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-50");
    await asha.say("hi", /Namaste Asha/);
    const bikash = waUser(phone, "Bikash", "NP.bikash-50");
    await bikash.say("balance", /under review by our support/);
    // While the hold waits the owner's own user id is served: her menu is the chat's newest list.
    const menu = await asha.say("hi", /Choose what you want to pay/);
    expect(menu.kind).toBe("list");
    await admin.say(`waid +${phone} release`, /was released from account/);
    // Before: row 1 of Asha's menu was pressed (a category opened for the fresh account).
    const seen = await bikash.say("1");
    expect(seen.text).toMatch(/did not understand/);
    expect(seen.text).not.toMatch(/balance|Which/);
  });
});
