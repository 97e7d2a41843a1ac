import { describe, expect, it } from "vitest";
import { useReleasedChatRig } from "../support/released-chat-rig.ts";
import { creditPerson, openCategory } from "../support/whatsapp-steps.ts";

/**
 * A released number's next holder acts as a fresh account in the number's chat: the idle notice
 * of a question they leave unanswered reaches them. The deadline is keyed by the chat, whose id
 * is the old account's (its messages never reach the number again): the notice goes where the
 * flow's account is read (the fresh account's chat), as its order pushes do.
 */

const ADMIN_PHONE = "9779800051000";
const rig = useReleasedChatRig(ADMIN_PHONE, { CONVERSATION_IDLE_MS: "3000" });
const { ts } = rig;

describe("a fresh WhatsApp account's idle notice", () => {
  it("reaches the number's new holder", async () => {
    const phone = "9779800051001";
    await rig.oldHolder(phone, "51");
    const bikash = await rig.releaseTo(phone, "51");
    await bikash.say("balance", /Rs 0/);
    await creditPerson(ts, await rig.holderOf(phone), 30_000);
    await openCategory(bikash, /Mobile top-up/, /Which mobile number should I recharge/);
    // Nothing typed: the notice comes by itself, to this chat.
    const notice = await bikash.waitFor(/ended after/);
    expect(notice.text).toMatch(/Nothing was charged/);
  });
});
