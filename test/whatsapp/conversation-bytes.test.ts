import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { decodeConversation } from "../../src/bot/conversation-storage.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { REDIS_URL } from "../support/redis.ts";
import { E2E_ACCESS, useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

/**
 * Issue 31 target 6: Redis bytes per open conversation, at most 1.5 KB on both channels.
 * Conversations v2 keep every update a flow waited for, every Bot API answer and every `external`'s
 * value until the flow ends, so what the WhatsApp channel puts into its synthetic updates, what the
 * conversation storage keeps of the answers and what the flows' externals return is stored,
 * deflated, in every open conversation. At a mobile top-up's amount question (the bench's mid-flow
 * point, bench/whatsapp.ts) the stored WhatsApp conversation carried the tap's wamid in the
 * callback query's id (32 random characters no compression shortens), a `chat_instance`, the idle
 * notice's info as the arm's external returned it, and the words of both questions in the Bot API
 * answers: 882 to 898 B deflated, across Redis's 896 B allocation step (1,128 B of MEMORY USAGE
 * for some chats, 1,576 B per chat in the bench). Without them 672 to 684 B (20 chats).
 */
const PHONE = "9779861000001";
const CHAT = chatIdOfWaId(PHONE) as number;
const TG_USER = 4_301;

describe("an open conversation stores only what its readers need", () => {
  const ts = useTestSystem({
    redis: true,
    env: { ...E2E_ACCESS, STAFF_IDS: `${E2E_ACCESS.STAFF_IDS},${CHAT}` },
  });

  /**
   * The chat's conversation once it is saved at the amount question (its second idle arm): the
   * question goes out before the update's state is saved (with the chat's turn, carried-writes.ts).
   */
  const stored = async (chatId: number) => {
    const redis = new Redis(REDIS_URL);
    try {
      return await waitUntil(async () => {
        const raw = await redis.getBuffer(`${ts.prefix}conversation:${chatId}`);
        const json = JSON.stringify(decodeConversation(raw));
        const saved = (json?.match(/"armedAt"/g) ?? []).length === 2;
        return saved ? { bytes: raw?.length ?? 0, json } : null;
      }, `chat ${chatId}'s conversation saved at the amount question`);
    } finally {
      redis.disconnect();
    }
  };

  it("WhatsApp at the amount question: no wamid, chat_instance, notice info or question words; under 740 B", async () => {
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
    // The tap's update: the chat in its callback query id, nothing more.
    expect(json).not.toContain("wamid.");
    expect(json).toContain(`"id":"wa:${CHAT}"`);
    expect(json).not.toContain("chat_instance");
    // The idle arm says whether it wrote the notice's info, not what it wrote.
    expect(json).not.toMatch(/\\"locale\\"/);
    // The questions' Bot API answers: their ids and chat, not their words.
    expect(json).not.toContain("Which mobile number");
    expect(json).not.toContain("How much");
    expect(
      json.match(/"result":\{"message_id":\d+,"date":\d+,"chat":\{[^}]*\}\}/g) ?? [],
    ).toHaveLength(2);
    // Deflated, inside the 768 B allocation step (882 to 898 B before).
    expect(bytes).toBeLessThan(740);
  });

  it("Telegram at the amount question: no notice info in the idle arm's value, no question words", async () => {
    const u = ts.user(TG_USER);
    await u.menu("📱 Mobile top-up", /Which mobile number/);
    await u.say("9840000002", /How much/);
    const { json } = await stored(TG_USER);
    expect(json).toContain('"text":"9840000002"');
    expect(json).not.toMatch(/\\"locale\\"/);
    expect(json).not.toContain("Which mobile number");
  });
});
