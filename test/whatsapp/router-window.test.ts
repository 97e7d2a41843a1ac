import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/chat-store.ts";
import { renderMessage } from "../../src/whatsapp/render.ts";
import { whatsappRouter } from "../../src/whatsapp/router.ts";
import type { WaOutbound } from "../../src/whatsapp/types.ts";

/**
 * The router's own clock for the 24-hour window (no 131047 needed): a push more than 24 h after
 * the customer's last message is the template; within 24 h it is free-form.
 */
const HOUR = 3_600_000;
const WA_ID = "9779841000901";
const CHAT = WA_CHAT_BASE + Number(WA_ID);

function setup() {
  let now = 1_800_000_000_000;
  const sent: WaOutbound[] = [];
  const store = createMemoryWaChatStore();
  const router = whatsappRouter({
    store,
    client: {
      send: async (_to, body) => {
        sent.push(body);
        return { wamid: `wamid.${sent.length}` };
      },
      markRead: async () => {},
    },
    render: renderMessage,
    localeOf: async () => ({ locale: "en", opener: "Choose" }),
    template: { name: "order_update", languages: { en: "en_US" } },
    now: () => now,
    logger: createLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
    telegram: false,
    botInfo: {},
  });
  const fetch = router.fetchVia(async () => new Response("{}"));
  const push = (text: string) =>
    fetch("http://bot.test/botX/sendMessage", {
      method: "POST",
      body: JSON.stringify({ chat_id: CHAT, text }),
    });
  return { store, sent, push, advance: (ms: number) => (now += ms), now: () => now };
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
