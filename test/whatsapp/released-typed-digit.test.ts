import { describe, expect, it } from "vitest";
import { useReleasedChatRig } from "../support/released-chat-rig.ts";

/**
 * A released number's chat forgets its last numbered list (the old holder's menu): a digit its
 * next holder types presses no row of it (`forgetChat` drops the chat's `lb`).
 */

const ADMIN_PHONE = "9779800050000";
const rig = useReleasedChatRig(ADMIN_PHONE);

describe("a released number's last numbered list", () => {
  it("is forgotten: a digit typed by the next holder presses none of its rows", async () => {
    const phone = "9779800050001";
    const { asha } = await rig.oldHolder(phone, "50");
    const bikash = await rig.heldBy(phone, "50");
    // While the hold waits the owner's own user id is served: her menu is the chat's newest list.
    const menu = await asha.say("hi", /Choose what you want to pay/);
    expect(menu.kind).toBe("list");
    await rig.release(phone);
    // Before: row 1 of Asha's menu was pressed (a category opened for the fresh account).
    const seen = await bikash.say("1");
    expect(seen.text).toMatch(/did not understand/);
    expect(seen.text).not.toMatch(/balance|Which/);
  });
});
