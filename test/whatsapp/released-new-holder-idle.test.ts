import { describe, expect, it } from "vitest";
import { useReleasedChatRig } from "../support/released-chat-rig.ts";
import { linkTelegramTo, openCategory } from "../support/whatsapp-steps.ts";

/**
 * A released number's next holder, joined to their Telegram account in the number's chat: the
 * idle notice of a question they leave unanswered is theirs (the flow's account rides with it,
 * bot/idle.ts `account`), so it reaches their chat, never the old holder's Telegram chat, which a
 * push to the chat's id (the old account's) would reach (review s24-g, findings 1 and 5).
 */

const ADMIN_PHONE = "9779800052000";
const rig = useReleasedChatRig(ADMIN_PHONE, { CONVERSATION_IDLE_MS: "3000" });
const { ts } = rig;

describe("the new holder's idle notice in a released number's chat", () => {
  it("reaches the new holder, not the old holder's Telegram chat", async () => {
    const phone = "9779800052001";
    const { asha } = await rig.oldHolder(phone, "52", 10_000);
    const tgA = ts.user(13_101);
    await linkTelegramTo(tgA, asha, phone);
    const bikash = await rig.releaseTo(phone, "52");
    await rig.joinedOnTelegram(bikash, phone, 13_102, 30_000);
    await openCategory(bikash, /Mobile top-up/, /Which mobile number should I recharge/);
    // Nothing typed: the notice comes by itself, to this chat.
    const notice = await bikash.waitFor(/ended after/);
    expect(notice.text).toMatch(/Nothing was charged/);
    expect(tgA.botTexts().some((t) => /ended after/.test(t))).toBe(false);
  });
});
