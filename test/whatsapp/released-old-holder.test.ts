import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  confirm,
  creditPerson,
  linkTelegramTo,
  openCategory,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * After `/waid release` the account stays its old holder's: an order of it that ends after the
 * release has its result go to the account's other chat (a Telegram chat joined to it), never to
 * the number's chat (its new holder's); with no other chat, the push is recorded as not delivered
 * on the order's timeline and dead-lettered (never answered as sent). The aggregator's webhooks are dropped and the
 * reconciler is run by hand: the orders end after the release, with no timing assumed.
 */

const ADMIN_PHONE = "9779800048000";
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

/** Asha orders on WhatsApp (the order stays open); Bikash writes from her number; released. */
async function orderThenRelease(
  phone: string,
  n: string,
  before?: (a: WhatsAppChatUser) => Promise<void>,
) {
  const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin");
  await admin.say("hi");
  const asha = waUser(phone, "Asha", `NP.asha-48${n}`);
  await asha.say("hi", /Namaste Asha/);
  const old = waPerson(phone);
  await creditPerson(ts, old, 50_000);
  await before?.(asha);
  ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
  const ref = await order(asha, 150);
  const bikash = waUser(phone, "Bikash", `NP.bikash-48${n}`);
  const since = asha.texts().length;
  await bikash.say("balance", /under review by our support/);
  await admin.say(`waid +${phone} release`, /was released from account/);
  await waitUntil(async () => {
    await ts.system.reconciler.runOnce();
    return (await ts.system.orders.get(ref))?.status === "success";
  }, "the order's end");
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
    const pushes = async () =>
      (await ts.system.sentLog.list(ref)).filter((e) => e.status === "success");
    await waitUntil(async () => (await pushes()).length > 0, "the push's outcome written down");
    const [entry] = await pushes();
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
    const pushes = async () =>
      (await ts.system.sentLog.list(ref)).filter((e) => e.status === "success");
    await waitUntil(async () => (await pushes()).length > 0, "the push's outcome written down");
    const [entry] = await pushes();
    expect(entry).toMatchObject({ chatId: old, ok: false });
    expect(entry?.error).toMatch(/refused it \(403\)/);
    const dead = await ts.system.queue.listDead(50);
    expect(dead.some((d) => JSON.stringify(d).includes(ref))).toBe(true);
    // The refusal is the Telegram chat's: the account's later pushes are not dropped unrecorded.
    expect(await ts.system.queue.isChatInactive(old)).toBe(false);
  });
});
