import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  confirm,
  linkWhatsAppTo,
  openCategory,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A WhatsApp chat joined to the Telegram account that registered its number acts as that account;
 * once the link is dropped (a new Meta user id writes from the number) it no longer does, and the
 * account's messages addressed to the chat (an order placed from it, a top-up started in it) go to
 * the account's own Telegram chat, never to whoever writes from the number now (review s25-a, B1).
 * The chat's own WhatsApp account is never held here (the number was first registered on
 * Telegram), so nothing but whose message it is can keep it from the chat. The aggregator's
 * webhooks are dropped and the reconciler is run by hand: no timing is assumed.
 */

const ts = useTestSystem({
  redis: true,
  env: { ACCESS_MODE: "prepaid", RECONCILE_INTERVAL_MS: "3600000", RECONCILE_MIN_AGE_MS: "0" },
});
const waUser = (phone: string, name: string, userId: string) =>
  new WhatsAppChatUser(standInOf(ts), phone, { name, userId });

/** A Telegram account that registered `phone`, credited, and the number's chat joined to it. */
async function linked(phone: string, tgId: number, suffix: string) {
  const tg = ts.user(tgId);
  await tg.register(phone);
  await tg.credit(30_000);
  const asha = waUser(phone, "Asha", `NP.asha-${suffix}`);
  await asha.say("hi");
  await linkWhatsAppTo(asha, tg);
  await asha.say("balance", /Rs 300/);
  return { tg, asha };
}

/** Someone else writes from the number: the link is dropped, the gate asks them. */
async function newWriter(phone: string, suffix: string) {
  const bikash = waUser(phone, "Bikash", `NP.bikash-${suffix}`);
  const since = bikash.texts().length;
  await bikash.say("balance", /Is that Telegram account yours/);
  return { bikash, seen: () => bikash.texts().slice(since).join("\n---\n") };
}

describe("a Telegram account's messages to its WhatsApp chat once the link was dropped", () => {
  it("an order's result goes to the account's Telegram chat, not to the new writer", async () => {
    const phone = "9779800047911";
    const { tg, asha } = await linked(phone, 13_911, "4791");
    ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
    await openCategory(asha, /Mobile top-up/, /Which mobile number should I recharge/);
    await asha.say("9841234567", /How much\?/);
    await asha.say("Rs 100", /Please check your order/);
    const ref = (await confirm(asha)).ref;
    expect((await ts.system.orders.get(ref))?.chatId).toBe(waPerson(phone));
    const bikash = await newWriter(phone, "4791");
    await waitUntil(async () => {
      await ts.system.reconciler.runOnce();
      return (await ts.system.orders.get(ref))?.status === "success";
    }, "the order's end");
    const result = await tg.waitFor((m) => m.text.includes(ref) && /succeeded/i.test(m.text));
    expect(result.text).toMatch(/Balance after: Rs 200/);
    expect(bikash.seen()).not.toContain(ref);
    expect(bikash.seen()).not.toMatch(/Rs 200/);
  });

  it("a top-up's notice goes to the account's Telegram chat, not to the new writer", async () => {
    const phone = "9779800047912";
    const { tg } = await linked(phone, 13_912, "4792");
    // Started in the WhatsApp chat as the Telegram account: its notice is addressed to the chat.
    const started = await ts.system.topUps!.start({
      userId: tg.id,
      chatId: waPerson(phone),
      locale: "en",
      amountPaisa: 20_000,
    });
    if (!started.ok) throw new Error("top-up start refused");
    const bikash = await newWriter(phone, "4792");
    ts.system.khalti!.act(started.topUp.paymentId, "pay");
    await ts.system.topUps!.confirm("khalti", started.topUp.paymentId);
    const notice = await tg.waitFor((m) => /added to your balance/.test(m.text));
    expect(notice.text).toMatch(/Rs 200/);
    expect(bikash.seen()).not.toMatch(/added to your balance|Rs 500/);
  });
});
