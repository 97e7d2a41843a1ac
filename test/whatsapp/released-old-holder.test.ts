import { describe, expect, it } from "vitest";
import { RECONCILE_BY_HAND, useReleasedChatRig } from "../support/released-chat-rig.ts";
import type { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { linkTelegramTo } from "../support/whatsapp-steps.ts";

/**
 * After `/waid release` the account stays its old holder's: an order of it that ends after the
 * release has its result go to the account's other chat (a Telegram chat joined to it), never to
 * the number's chat (its new holder's); with no other chat, the push is recorded as not delivered
 * on the order's timeline and dead-lettered (never answered as sent). The aggregator's webhooks are dropped and the
 * reconciler is run by hand: the orders end after the release, with no timing assumed.
 */

const ADMIN_PHONE = "9779800048000";
const rig = useReleasedChatRig(ADMIN_PHONE, RECONCILE_BY_HAND);
const { ts } = rig;

/** Asha orders on WhatsApp (the order stays open); Bikash writes from her number; released. */
async function orderThenRelease(
  phone: string,
  n: string,
  before?: (a: WhatsAppChatUser) => Promise<void>,
) {
  const { asha, old } = await rig.oldHolder(phone, `48${n}`, 50_000);
  await before?.(asha);
  rig.dropWebhooks();
  const ref = await rig.order(asha, 150);
  const since = asha.texts().length;
  const bikash = await rig.releaseTo(phone, `48${n}`);
  await rig.ended(ref);
  return { ref, old, chatSince: () => bikash.texts().slice(since).join("\n") };
}

describe("the old holder of a released number", () => {
  it("gets an order's result in the Telegram chat joined to the account", async () => {
    const phone = "9779800048001";
    const tg = ts.user(12_981);
    const { ref, chatSince } = await orderThenRelease(phone, "1", (asha) =>
      linkTelegramTo(tg, asha, phone),
    );
    const push = await tg.waitFor(
      (m) => m.text.includes(ref) && /succeeded|successful/i.test(m.text),
    );
    expect(push.text).toContain(ref);
    expect(chatSince()).not.toContain(ref);
  });

  it("with no other chat: the push is recorded as not delivered, never reaching the number", async () => {
    const phone = "9779800048002";
    const { ref, old, chatSince } = await orderThenRelease(phone, "2");
    const [entry] = await rig.finalPushesOf(ref);
    expect(entry).toMatchObject({ chatId: old, ok: false });
    expect(entry?.error).toMatch(/released/);
    // Dead-lettered (an operator can replay it; RechargePushesFailing alerts), not marked gone.
    const dead = await ts.system.queue.listDead(50);
    expect(dead.some((d) => JSON.stringify(d).includes(ref))).toBe(true);
    expect(chatSince()).not.toContain(ref);
  });

  it("a Telegram chat that blocked the bot: not delivered, the released chat not marked gone", async () => {
    const phone = "9779800048003";
    const tg = ts.user(12_983);
    const { ref, old } = await orderThenRelease(phone, "3", async (asha) => {
      await linkTelegramTo(tg, asha, phone);
      ts.system.emulator!.users.block(tg.id, true);
    });
    const [entry] = await rig.finalPushesOf(ref);
    expect(entry).toMatchObject({ chatId: old, ok: false });
    expect(entry?.error).toMatch(/refused it \(403\)/);
    const dead = await ts.system.queue.listDead(50);
    expect(dead.some((d) => JSON.stringify(d).includes(ref))).toBe(true);
    // The refusal is the Telegram chat's: the account's later pushes are not dropped unrecorded.
    expect(await ts.system.queue.isChatInactive(old)).toBe(false);
  });
});
