import { describe, expect, it } from "vitest";
import { refundedComplaint } from "../support/complaints.ts";
import { RECONCILE_BY_HAND, useReleasedChatRig } from "../support/released-chat-rig.ts";
import { waitUntil } from "../support/wait.ts";
import { agentCashIn, linkTelegramTo, waPerson } from "../support/whatsapp-steps.ts";

/**
 * A message that names no account (telegram/call-account.ts), addressed to a released account's
 * WhatsApp chat, is never carried to the old holder's other chat: it may be the new holder's,
 * even once the chat stands for nobody (review s24-j, blocker 1). The new holder's complaint
 * notices are their own (`withAccount`): in their chat while it acts as them, else in their own
 * Telegram chat (review s25-a, S1), never the old holder's.
 */

const ADMIN_PHONE = "9779800050000";
const AGENT = 13_170;
const rig = useReleasedChatRig(ADMIN_PHONE, { AGENT_IDS: String(AGENT), ...RECONCILE_BY_HAND });
const { ts } = rig;

const noticeOf = (ref: string) =>
  waitUntil(async () => {
    const log = await ts.system.sentLog.list(ref);
    return log.find((e) => e.status === "complaint resolved");
  }, "the complaint notice's outcome");

async function refund(userId: number, chatId: number, ref: string, text: string) {
  await refundedComplaint(ts.system.deps.complaints!, userId, ref, 1000, { chatId, text });
  return noticeOf(ref);
}

describe("the new holder's complaint notices to a released chat", () => {
  it("reach the chat while it acts as them, then their Telegram chat; never the old holder", async () => {
    const phone = "9779800050171";
    const { asha } = await rig.oldHolder(phone, "171");
    const tgA = ts.user(13_171);
    await linkTelegramTo(tgA, asha, phone);
    rig.dropWebhooks();
    const bikash = await rig.releaseTo(phone, "171");
    const tgB = await rig.joinedOnTelegram(bikash, phone, 13_172, 30_000);
    const ref1 = await rig.order(bikash, 120);
    const ref = await rig.order(bikash, 130);
    await rig.ended(ref1);
    await rig.ended(ref);
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
    const { admin, asha } = await rig.oldHolder(phone, "181");
    const tgA = ts.user(13_181);
    await linkTelegramTo(tgA, asha, phone);
    const id = await agentCashIn(ts, AGENT, "s24j-float-181", phone);
    const bikash = await rig.releaseTo(phone, "181");
    await rig.joinedOnTelegram(bikash, phone, 13_182);
    const since = bikash.texts().length;
    await admin.say(`reverse ${id}`, /Why is it reversed/);
    await admin.say("typed the wrong customer", /Reverse receipt cashin-/);
    await admin.tap(/Confirm/, /Reversed: Rs 300 back/);
    const told = await tgA.waitFor((m) => /revers/i.test(m.text) && m.text.includes("300"));
    expect(told.text).toMatch(/Rs 300/);
    expect(bikash.texts().slice(since).join("\n")).not.toMatch(/revers|Rs 300/i);
  });
});
