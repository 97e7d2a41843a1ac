import { afterAll, describe, expect, it } from "vitest";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { createRedisWaChatStore } from "../../src/whatsapp/chat-store.ts";
import type { WaOutbound } from "../../src/whatsapp/types.ts";
import { testRedis } from "../support/redis.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A paged question keeps its words while its buttons are there, on the Redis store (which lets
 * delivered words go): a new page of it, asked for after a newer message with buttons, shows the
 * question again, never a blank body.
 */
const redis = testRedis("wa-router-pages");
afterAll(() => redis.cleanup());

const WA_ID = "9779841000917";
const CHAT = WA_CHAT_BASE + Number(WA_ID);
const QUESTION = "Choose a package for 9841000917";

describe("router: a new page of a question after a newer message with buttons", () => {
  it("shows the question's words, not an empty body", async () => {
    const store = createRedisWaChatStore(redis.redis, `${redis.prefix}${Math.random()}:`);
    const sent: { wamid: string; body: WaOutbound }[] = [];
    const { fetch } = testRouter({
      store,
      send: async (_to, body) => {
        const wamid = `wamid.pg${sent.length}`;
        sent.push({ wamid, body });
        return { wamid };
      },
    });
    const call = async (method: string, body: object) => {
      const res = await fetch(`http://bot.test/botX/${method}`, {
        method: "POST",
        body: JSON.stringify({ chat_id: CHAT, ...body }),
      });
      return ((await res.json()) as { result: { message_id: number } }).result;
    };
    const deliverAll = async () => {
      for (const s of sent) await store.putStatus(CHAT, s.wamid, "delivered");
    };
    const page = (n: number) => [
      Array.from({ length: 3 }, (_, i) => ({
        text: `Pack ${n}-${i}`,
        callback_data: `v:${n}${i}`,
      })),
      [
        { text: "‹", callback_data: `p:${n === 0 ? 1 : 0}` },
        { text: `${n + 1}/2`, callback_data: "p:n" },
        { text: "›", callback_data: `p:${n === 0 ? 1 : 0}` },
      ],
    ];
    await store.arrive(CHAT, { at: Date.now(), wamid: "wamid.in" }, "none");
    const asked = await call("sendMessage", {
      text: QUESTION,
      reply_markup: { inline_keyboard: page(0) },
    });
    await deliverAll();
    // An aside with buttons of its own (the newest buttons now), delivered.
    await call("sendMessage", {
      text: "Recent orders",
      reply_markup: {
        inline_keyboard: [
          [
            { text: "Prev", callback_data: "h:0" },
            { text: "Next", callback_data: "h:2" },
          ],
        ],
      },
    });
    await deliverAll();
    const before = sent.length;
    // "›" on the question: the flow turns its page (only its buttons change).
    await call("editMessageReplyMarkup", {
      message_id: asked.message_id,
      reply_markup: { inline_keyboard: page(1) },
    });
    const turned = sent.slice(before).map((s) => JSON.stringify(s.body));
    expect(turned.length).toBeGreaterThan(0);
    expect(turned.join("")).toContain(QUESTION);
  });
});
