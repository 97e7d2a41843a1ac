import { describe, expect, it } from "vitest";
import type { Complaints } from "../../src/complaints/index.ts";
import { account } from "../../src/ledger/index.ts";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import {
  confirm,
  linkTelegramTo,
  linkWhatsAppTo,
  openCategory,
  standInOf,
  waPerson,
} from "../support/whatsapp-steps.ts";

/**
 * A message that names no account (telegram/call-account.ts), addressed to a released account's
 * WhatsApp chat, is never carried to the old holder's other chat: it may be the new holder's,
 * even once the chat stands for nobody (review s24-j, blocker 1). The new holder's complaint
 * notices are their own (`withAccount`): in their chat while it acts as them, else in their own
 * Telegram chat (review s25-a, S1), never the old holder's.
 */

const ADMIN_PHONE = "9779800050000";
const AGENT = 13_170;
const ts = useTestSystem({
  redis: true,
  env: {
    ACCESS_MODE: "prepaid",
    ADMIN_IDS: `wa:${ADMIN_PHONE}`,
    AGENT_IDS: String(AGENT),
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

const complaints = (): Complaints => ts.system.deps.complaints!;
const noticeOf = (ref: string) =>
  waitUntil(async () => {
    const log = await ts.system.sentLog.list(ref);
    return log.find((e) => e.status === "complaint resolved");
  }, "the complaint notice's outcome");

async function refund(userId: number, chatId: number, ref: string, text: string) {
  const raised = await complaints().raise({
    userId,
    chatId,
    locale: "en",
    orderReference: ref,
    reason: "not_received",
  });
  if (!raised.ok) throw new Error("not raised");
  await complaints().resolve(raised.complaint.reference, 1, { text, refundPaisa: 1000 });
  return noticeOf(ref);
}

describe("the new holder's complaint notices to a released chat", () => {
  it("reach the chat while it acts as them, then their Telegram chat; never the old holder", async () => {
    const phone = "9779800050171";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin-51");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-171");
    await asha.say("hi", /Namaste Asha/);
    const tgA = ts.user(13_171);
    await linkTelegramTo(tgA, asha, phone);
    ts.system.sandbox!.setFaults(ts.system.config.sandbox.token, { dropWebhooks: true });
    const bikash = waUser(phone, "Bikash", "NP.bikash-171");
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    const tgB = ts.user(13_172);
    await tgB.register(phone);
    await tgB.credit(30_000);
    await linkWhatsAppTo(bikash, tgB);
    const ref1 = await order(bikash, 120);
    const ref = await order(bikash, 130);
    await ended(ref1);
    await ended(ref);
    // The chat acts as the new holder: their notice (their account said) goes to it (s24-j, 2).
    const first = await refund(tgB.id, waPerson(phone), ref1, "sorry-one");
    expect(first).toMatchObject({ ok: true });
    await waitUntil(() => bikash.texts().some((t) => t.includes("sorry-one")), "Bikash's notice");
    // The chat stands for nobody: the new holder unlinks it and leaves the number.
    await bikash.say("unlink");
    await tgB.register("9779800050172");
    const since = bikash.texts().length;
    const entry = await refund(tgB.id, waPerson(phone), ref, "sorry-two");
    expect(entry).toMatchObject({ ok: true });
    await tgB.waitFor(/sorry-two/);
    expect(
      bikash
        .texts()
        .slice(since)
        .some((t) => t.includes("sorry-two")),
    ).toBe(false);
    expect(tgA.botTexts().filter((t) => /sorry|complaint/i.test(t))).toEqual([]);
  });
});

describe("the old holder's notices, their account said, while the chat acts as the new holder", () => {
  it("a reversal notice to the old account reaches the old holder's Telegram chat (s24-j, 3)", async () => {
    const phone = "9779800050181";
    const admin = waUser(ADMIN_PHONE, "Admin", "NP.admin-51");
    await admin.say("hi");
    const asha = waUser(phone, "Asha", "NP.asha-181");
    await asha.say("hi", /Namaste Asha/);
    const tgA = ts.user(13_181);
    await linkTelegramTo(tgA, asha, phone);
    await ts.system.ledger.transfer({
      id: "s24j-float-181",
      debit: account.merchant.funding,
      credit: account.agent(AGENT),
      amountPaisa: 100_000,
      kind: "credit",
    });
    const agent = ts.user(AGENT);
    await agent.say("/cashin", /customer's phone number/);
    await agent.say(phone.slice(3), /How much cash/);
    const confirmed = await agent.say("300", /Add .* to the balance of/);
    const id = /Receipt: (cashin-[0-9a-f]+)/.exec(confirmed.text)?.[1] ?? "";
    await agent.tap("✅ Confirm", /Cash-in done/);
    const bikash = waUser(phone, "Bikash", "NP.bikash-181");
    await bikash.say("balance", /under review by our support/);
    await admin.say(`waid +${phone} release`, /was released from account/);
    const tgB = ts.user(13_182);
    await tgB.register(phone);
    await linkWhatsAppTo(bikash, tgB);
    const since = bikash.texts().length;
    await admin.say(`reverse ${id}`, /Why is it reversed/);
    await admin.say("typed the wrong customer", /Reverse receipt cashin-/);
    await admin.tap(/Confirm/, /Reversed: Rs 300 back/);
    const told = await tgA.waitFor((m) => /revers/i.test(m.text) && m.text.includes("300"));
    expect(told.text).toMatch(/Rs 300/);
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(/revers|Rs 300/i);
  });
});
