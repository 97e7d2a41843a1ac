import { describe, expect, it } from "vitest";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { useTestSystem } from "../support/system.ts";
import type { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { creditedCustomer, standInOf, waCustomer } from "../support/whatsapp-steps.ts";

/**
 * Review s32-whatsapp, findings 1-3: messages that are not words to the bot. A reaction (added, or
 * taken away: Meta sends both) and a system notice (the customer changed number) used to reach the
 * engine as an empty text: "I did not understand that…", at the confirmation the whole
 * confirmation again, and for a system notice to the number the customer just left. Meta's welcome
 * request (a new customer opening the chat) got the same instead of the greeting. Now a reaction
 * and a system notice are not answered (a notice is logged with both chats, for support), and a
 * welcome request is greeted as "hi" is.
 *
 * "Not answered" is read in the chat's order: the next message typed is handled after them
 * (inbound-queue.ts keeps a chat's order), so its answer must be the first business message after
 * the reaction's.
 */
/** The first business message to the customer after their message `wamid`. */
const firstAfter = (u: WhatsAppChatUser, wamid: string) =>
  u.waitFor(undefined, { afterWamid: wamid });

describe("WhatsApp: reactions, welcome requests and system notices", () => {
  const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });

  it("a reaction, added or taken away, is not answered, at the receipt or at the confirmation", async () => {
    const { u } = await creditedCustomer(ts, "9779841000811", 500_000);
    const menu = await u.say("hi", /Choose what you want to pay/);
    const react = (message_id: string, emoji?: string) =>
      standInOf(ts).userSendsMessage(
        { waId: u.waId },
        { type: "reaction", reaction: { message_id, ...(emoji ? { emoji } : {}) } },
      );
    const reacted = await react(menu.wamid, "👍");
    await react(menu.wamid);
    const balance = await u.say("balance", /Rs 5,000/);
    expect((await firstAfter(u, reacted)).wamid).toBe(balance.wamid);

    await u.say("9841234567", /How much/);
    const check = await u.say("150", /Please check your order/);
    const onConfirmation = await react(check.wamid, "👍");
    // Words typed there restate the confirmation under the reason: the first message since.
    const typed = await u.say("ok", /Please use the buttons below/);
    expect((await firstAfter(u, onConfirmation)).wamid).toBe(typed.wamid);
  });

  it("a welcome request is greeted with the menu, as hi is", async () => {
    const u = waCustomer(ts, "9779841000812", "Gita");
    const wamid = await standInOf(ts).userSendsMessage(
      { waId: u.waId, name: "Gita" },
      { type: "request_welcome" },
    );
    const first = await u.waitFor(undefined, { afterWamid: wamid });
    expect(first.text).not.toContain("I did not understand");
    await u.waitFor(/Choose what you want to pay/, { afterWamid: wamid });
  });

  it("a changed number's system notice is not answered, and is logged with both chats", async () => {
    const { u } = await creditedCustomer(ts, "9779841000813", 100_000);
    await u.say("hi", /Choose what you want to pay/);
    const notice = await standInOf(ts).userSendsMessage(
      { waId: u.waId },
      {
        type: "system",
        system: {
          body: "User A changed from 9779841000813 to 9779841000814",
          wa_id: "9779841000814",
          type: "user_changed_number",
        },
      },
    );
    const balance = await u.say("balance", /Rs 1,000/);
    expect((await firstAfter(u, notice)).wamid).toBe(balance.wamid);
    const line = ts.logs.find((l) => l.includes("user_changed_number"));
    expect(line).toBeDefined();
    expect(line).toContain(String(chatIdOfWaId("9779841000813")));
    expect(line).toContain(String(chatIdOfWaId("9779841000814")));
    expect(line).not.toContain("User A changed");
  });
});
