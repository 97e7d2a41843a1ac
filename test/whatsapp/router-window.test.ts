import { afterAll, describe, expect, it } from "vitest";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { createRedisWaChatStore, type WaChatStore } from "../../src/whatsapp/chat-store.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import type { WaOutbound } from "../../src/whatsapp/types.ts";
import { testRedis } from "../support/redis.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * The router's own clock for the 24-hour window (no 131047 needed): a push more than 24 h after
 * the customer's last message is the template; within 24 h it is free-form.
 */
const HOUR = 3_600_000;
const redis = testRedis("wa-router-window");
afterAll(() => redis.cleanup());
const WA_ID = "9779841000901";
const CHAT = WA_CHAT_BASE + Number(WA_ID);

function setup(chatStore: WaChatStore = createMemoryWaChatStore()) {
  let now = 1_800_000_000_000;
  const sent: WaOutbound[] = [];
  const store = chatStore;
  const { router, fetch } = testRouter({
    store,
    send: async (_to, body) => {
      sent.push(body);
      return { wamid: `wamid.${sent.length}` };
    },
    now: () => now,
  });
  const push = (text: string) =>
    fetch("http://bot.test/botX/sendMessage", {
      method: "POST",
      body: JSON.stringify({ chat_id: CHAT, text }),
    });
  /** The flows' `strip`: editMessageReplyMarkup with an empty keyboard. */
  const strip = (messageId: number) =>
    fetch("http://bot.test/botX/editMessageReplyMarkup", {
      method: "POST",
      body: JSON.stringify({
        chat_id: CHAT,
        message_id: messageId,
        reply_markup: { inline_keyboard: [] },
      }),
    });
  const ask = async (text: string) => {
    const res = await fetch("http://bot.test/botX/sendMessage", {
      method: "POST",
      body: JSON.stringify({
        chat_id: CHAT,
        text,
        reply_markup: {
          // Four rows: a numbered list (a typed number answers it).
          inline_keyboard: ["a", "b", "c", "d"].map((d) => [{ text: d, callback_data: d }]),
        },
      }),
    });
    return ((await res.json()) as { result: { message_id: number } }).result.message_id;
  };
  return {
    store,
    router,
    sent,
    push,
    strip,
    ask,
    advance: (ms: number) => (now += ms),
    now: () => now,
  };
}

describe("router: the 24-hour window by our own clock", () => {
  it("free-form inside the window, the template after 24 hours", async () => {
    const r = setup();
    await r.store.arrive(CHAT, { at: r.now(), wamid: "wamid.in.1" }, "none");
    r.advance(23 * HOUR);
    await r.push("✅ Order 1 succeeded.");
    expect(r.sent.at(-1)).toMatchObject({ type: "text", text: { body: "✅ Order 1 succeeded." } });

    r.advance(2 * HOUR);
    const answer = await r.push("✅ Order 2 succeeded.\nNTC Prepaid · 9841234567 · Rs 150");
    expect((await answer.json()) as unknown).toMatchObject({ ok: true });
    expect(r.sent.at(-1)).toMatchObject({
      type: "template",
      template: {
        name: "order_update",
        language: { code: "en_US" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "✅ Order 2 succeeded. · NTC Prepaid · 9841234567 · Rs 150" },
            ],
          },
        ],
      },
    });
  });
});

describe("router: buttons taken away from a message whose words are no longer kept", () => {
  it("send nothing, inside the window or after it (no blank template)", async () => {
    // The Redis store lets a delivered message's words go (chat-scripts.ts): shown without text.
    const memory = createMemoryWaChatStore();
    const r = setup({
      ...memory,
      shown: async () => ({ text: null, buttons: "abc123", seen: ["zzzzzz"] }),
    });
    await r.store.arrive(CHAT, { at: r.now(), wamid: "wamid.in.1" }, "none");
    expect((await (await r.strip(3)).json()) as unknown).toMatchObject({ ok: true });
    r.advance(25 * HOUR);
    expect((await (await r.strip(3)).json()) as unknown).toMatchObject({ ok: true });
    expect(r.sent).toEqual([]);
  });
});

describe("router: an older message resent as the template", () => {
  it("does not take the newest buttons from the message sent after it", async () => {
    for (const store of [
      createMemoryWaChatStore(),
      createRedisWaChatStore(redis.redis, `${redis.prefix}${Math.random()}:`),
    ]) {
      const r = setup(store);
      await r.store.arrive(CHAT, { at: r.now(), wamid: "wamid.in.1" }, "none");
      await r.ask("Pay with your balance?");
      const newest = await r.ask("Save this number?");
      // The first one failed (131047): it goes again as the template, without its buttons.
      expect(await r.router.resendAsTemplate(CHAT, "wamid.1")).toBe(true);
      const typed = await r.store.arrive(CHAT, { at: r.now(), wamid: "wamid.in.2" }, "buttons");
      expect(typed.buttons?.messageId).toBe(newest);
    }
  });
});
