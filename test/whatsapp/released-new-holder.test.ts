import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  confirm,
  creditPerson,
  linkTelegramTo,
  linkWhatsAppTo,
  openCategory,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * After `/waid release` the number's chat id is still the old account's address, while the chat
 * may act as its next holder's account (registered on Telegram, joined with `link`). A push to that
 * chat id is routed by whose message it is (the order's account), never by the chat id alone: the
 * new holder's result goes to the WhatsApp chat, the old account's to its old holder's Telegram
 * chat, and nothing of the new holder's reaches the old holder (review s24-g, finding 1). The
 * aggregator's webhooks are dropped and the reconciler is run by hand: no timing is assumed.
 */

const ADMIN_PHONE = "9779800050000";
const ts = useTestSystem({
  redis: true,
  env: {
    ACCESS_MODE: "prepaid",
    ADMIN_IDS: `wa:${ADMIN_PHONE}`,
    RECONCILE_INTERVAL_MS: "3600000",
    RECONCILE_MIN_AGE_MS: "0",
  },
});
const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

async function order(u: WhatsAppChatUser, rupees: number) {
  await openCategory(u, /Mobile top-up/, /Which mobile number should I recharge/);
  await u.say("9841234567", /How much\?/);
  await u.say(`Rs ${rupees}`, /Please check your order/);
  return (await confirm(u)).ref;
}

const ended = (ref: string) =>
  waitUntil(async () => {
    await ts.system.reconciler.runOnce();
    return (await ts.system.orders.get(ref))?.status === "success";
  }, "the order's end");

describe("a released number's next holder, joined to their Telegram account", () => {
  it("gets their own order's result in the WhatsApp chat; the old holder gets only theirs", async () => {
    const phone = "9779800050001";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin-50");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-50");
    await asha.say("hi", /Namaste Asha/);
    await creditPerson(ts, waPerson(phone), 50_000);
    const tgA = ts.user(13_001);
    await linkTelegramTo(tgA, asha, phone);
    ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
    // The old account's order, placed before the release and ending after it.
    const ashaRef = await order(asha, 150);
    const bikash = waUser(phone, "Bikash", "NP.bikash-50");
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    const since = bikash.texts().length;
    const tgB = ts.user(13_002);
    await tgB.register(phone);
    await tgB.credit(30_000);
    await linkWhatsAppTo(bikash, tgB);
    await bikash.say("balance", /Rs 300/);
    const ref = await order(bikash, 120);
    await ended(ashaRef);
    await ended(ref);
    const chatSince = () => bikash.texts().slice(since);
    await waitUntil(
      async () => chatSince().some((t) => t.includes(ref) && /succeeded/i.test(t)),
      "the new holder's result in their chat",
    );
    await tgA.waitFor((m) => m.text.includes(ashaRef) && /succeeded/i.test(m.text));
    // Sent once: the new holder's result was in their chat, so it is nowhere else.
    expect(tgA.botTexts().some((t) => t.includes(ref))).toBe(false);
    expect(chatSince().some((t) => t.includes(ashaRef))).toBe(false);
    const pushes = async () =>
      (await ts.system.sentLog.list(ref)).filter((e) => e.status === "success");
    await waitUntil(async () => (await pushes()).length > 0, "the push's outcome written down");
    expect(await pushes()).toMatchObject([{ chatId: waPerson(phone), ok: true }]);
  });

  it("gets their own top-up's notice in the WhatsApp chat, never the old holder", async () => {
    const phone = "9779800050002";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin-50");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-50b");
    await asha.say("hi", /Namaste Asha/);
    const tgA = ts.user(13_003);
    await linkTelegramTo(tgA, asha, phone);
    const bikash = waUser(phone, "Bikash", "NP.bikash-50b");
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    const since = bikash.texts().length;
    const tgB = ts.user(13_004);
    await tgB.register(phone);
    await linkWhatsAppTo(bikash, tgB);
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
