import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { decodeConversation } from "../../src/bot/conversation-storage.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { REDIS_URL } from "../support/redis.ts";
import { E2E_ACCESS, useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

/**
 * Issue 31 target 6: Redis bytes per open conversation, at most 1.5 KB on both channels.
 * Conversations v2 keep every update a flow waited for and every `external`'s value until the flow
 * ends, so what the WhatsApp channel puts into its synthetic updates and what the flows' externals
 * return is stored, deflated, in every open conversation. At a mobile top-up's amount question (the
 * bench's mid-flow point, bench/whatsapp.ts) the stored WhatsApp conversation carried the tap's
 * wamid in the callback query's id (32 random characters no compression shortens), a
 * `chat_instance`, and the idle notice's text as the arm's external returned it: 885 to 898 B
 * deflated, over the 896 B allocation of Redis's allocator (1,128 B of MEMORY USAGE, 1,576 B per
 * chat in the bench). Without them about 790 B.
 */
const PHONE = "9779861000001";
const CHAT = chatIdOfWaId(PHONE) as number;
const TG_USER = 4_301;

describe("an open conversation stores only what its readers need", () => {
  const ts = useTestSystem({
    redis: true,
    env: { ...E2E_ACCESS, STAFF_IDS: `${E2E_ACCESS.STAFF_IDS},${CHAT}` },
  });

  const stored = async (chatId: number) => {
    const redis = new Redis(REDIS_URL);
    try {
      const raw = await redis.getBuffer(`${ts.prefix}conversation:${chatId}`);
      if (!raw) throw new Error(`no conversation stored for chat ${chatId}`);
      return { bytes: raw.length, json: JSON.stringify(decodeConversation(raw)) };
    } finally {
      redis.disconnect();
    }
  };

  it("WhatsApp at the amount question: no wamid, no chat_instance, no notice text; under 850 B", async () => {
    const standIn = ts.system.whatsapp;
    if (!standIn) throw new Error("local mode runs the WhatsApp stand-in");
    const wa = new WhatsAppChatUser(standIn, PHONE, { name: "Mid" });
    await wa.say("hi", /Choose what you want to pay/);
    await wa.tap(/Mobile top-up/, /Which mobile number/);
    await wa.say("9840000001", /How much\?/);
    const { bytes, json } = await stored(CHAT);
    // The flow is where the bench measures it: the tap, the number, two idle arms.
    expect(json).toContain('"data":"m:mobile"');
    expect(json).toContain('"text":"9840000001"');
    expect(json.match(/"armedAt"/g) ?? []).toHaveLength(2);
    // The tap's update: the chat in its callback query id, nothing more.
    expect(json).not.toContain("wamid.");
    expect(json).toContain(`"id":"wa:${CHAT}"`);
    expect(json).not.toContain("chat_instance");
    // The idle arm says whether it wrote the notice's info, not what it wrote.
    expect(json).not.toMatch(/\\"locale\\"/);
    // Deflated, well inside the 896 B allocation (885 to 898 B before).
    expect(bytes).toBeLessThan(850);
  });

  it("Telegram at the amount question: no notice text in the idle arm's value", async () => {
    const u = ts.user(TG_USER);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9840000002", /How much/);
    const { json } = await stored(TG_USER);
    expect(json.match(/"armedAt"/g) ?? []).toHaveLength(2);
    expect(json).not.toMatch(/\\"locale\\"/);
  });
});
