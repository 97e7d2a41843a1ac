import { describe, expect, it } from "vitest";
import { RECONCILE_BY_HAND, useReleasedChatRig } from "../support/released-chat-rig.ts";
import { waitUntil } from "../support/wait.ts";
import { linkTelegramTo, waPerson } from "../support/whatsapp-steps.ts";

/**
 * After `/waid release` the number's chat id is still the old account's address, while the chat
 * may act as its next holder's account (registered on Telegram, joined with `link`). A push to that
 * chat id is routed by whose message it is (the order's account), never by the chat id alone: the
 * new holder's result goes to the WhatsApp chat, the old account's to its old holder's Telegram
 * chat, and nothing of the new holder's reaches the old holder (review s24-g, finding 1). The
 * aggregator's webhooks are dropped and the reconciler is run by hand: no timing is assumed.
 */

const ADMIN_PHONE = "9779800050000";
const rig = useReleasedChatRig(ADMIN_PHONE, RECONCILE_BY_HAND);
const { ts } = rig;

describe("a released number's next holder, joined to their Telegram account", () => {
  it("gets their own order's result in the WhatsApp chat; the old holder gets only theirs", async () => {
    const phone = "9779800050001";
    const { asha } = await rig.oldHolder(phone, "50", 50_000);
    const tgA = ts.user(13_001);
    await linkTelegramTo(tgA, asha, phone);
    rig.dropWebhooks();
    // The old account's order, placed before the release and ending after it.
    const ashaRef = await rig.order(asha, 150);
    const bikash = await rig.releaseTo(phone, "50");
    const since = bikash.texts().length;
    await rig.joinedOnTelegram(bikash, phone, 13_002, 30_000);
    await bikash.say("balance", /Rs 300/);
    const ref = await rig.order(bikash, 120);
    await rig.ended(ashaRef);
    await rig.ended(ref);
    const chatSince = () => bikash.texts().slice(since);
    await waitUntil(
      async () => chatSince().some((t) => t.includes(ref) && /succeeded/i.test(t)),
      "the new holder's result in their chat",
    );
    await tgA.waitFor((m) => m.text.includes(ashaRef) && /succeeded/i.test(m.text));
    // Sent once: the new holder's result was in their chat, so it is nowhere else.
    expect(tgA.botTexts().some((t) => t.includes(ref))).toBe(false);
    expect(chatSince().some((t) => t.includes(ashaRef))).toBe(false);
    expect(await rig.finalPushesOf(ref)).toMatchObject([{ chatId: waPerson(phone), ok: true }]);
  });

  it("gets their own top-up's notice in the WhatsApp chat, never the old holder", async () => {
    const phone = "9779800050002";
    const { asha } = await rig.oldHolder(phone, "50b");
    const tgA = ts.user(13_003);
    await linkTelegramTo(tgA, asha, phone);
    const bikash = await rig.releaseTo(phone, "50b");
    const since = bikash.texts().length;
    const tgB = await rig.joinedOnTelegram(bikash, phone, 13_004);
    // Started in the WhatsApp chat as the new holder's account: its notice is addressed to the chat.
    const started = await ts.system.topUps!.start({
      userId: tgB.id,
      chatId: waPerson(phone),
      locale: "en",
      amountPaisa: 20_000,
    });
    if (!started.ok) throw new Error("top-up start refused");
    ts.system.khalti!.act(started.topUp.paymentId, "pay");
    await ts.system.topUps!.confirm("khalti", started.topUp.paymentId);
    await bikash.waitFor(/added to your balance/);
    expect(bikash.texts().slice(since).join("\n")).toMatch(/Rs 200/);
    expect(tgA.botTexts().some((t) => /added to your balance/.test(t))).toBe(false);
  });
});
