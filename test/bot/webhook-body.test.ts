import { Bot } from "grammy";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  TELEGRAM_WEBHOOK_MAX_BODY_BYTES,
  telegramWebhook,
} from "../../src/bot/webhook-transport.ts";
import { type Listener, listen } from "../../src/http/listen.ts";
import { testBotInfo } from "../support/bot-info.ts";
import { loggedLines } from "../support/log-lines.ts";

/**
 * The Telegram webhook's body (review s22, note 3), over a real listener on loopback: only a JSON
 * object with a numeric update_id reaches the bot; anything else is a 400 with the bot's
 * middleware never run; a body past the cap is a 413; the secret token is checked before any of it.
 */

const SECRET = "webhook-body-secret-0123456789";
const seen: unknown[] = [];
const { logger, lines } = loggedLines();
let server: Listener;
let url: string;

beforeAll(async () => {
  const bot = new Bot("123:webhook-body-test", { botInfo: testBotInfo() });
  bot.use((ctx) => {
    seen.push(ctx.update);
  });
  const app = new Hono();
  app.post("/tg", telegramWebhook(bot, { secretToken: SECRET, answerWithinMs: 60_000, logger }));
  server = await listen(app.fetch, { host: "127.0.0.1", port: 0 });
  url = `${server.url}/tg`;
});
afterAll(() => server.close());
beforeEach(() => {
  seen.length = 0;
  lines.length = 0;
});

const post = (
  body: string | ReadableStream<Uint8Array>,
  secret = SECRET,
  headers: Record<string, string> = {},
) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": secret,
      ...headers,
    },
    body,
    duplex: "half",
  } as RequestInit);

const update = (id: number, pad = "") =>
  JSON.stringify({
    update_id: id,
    message: {
      message_id: 1,
      date: 1,
      chat: { id: 7, type: "private", first_name: "a" },
      from: { id: 7, is_bot: false, first_name: "a" },
      text: `hi${pad}`,
    },
  });

describe("the Telegram webhook's body", () => {
  it("hands a real update to the bot and answers 200", async () => {
    const res = await post(update(41));
    expect(res.status).toBe(200);
    expect(seen).toEqual([JSON.parse(update(41))]);
  });

  it.each([
    ["null"],
    ["[]"],
    ["[{}]"],
    ["42"],
    ['"update"'],
    ["true"],
    ["{}"],
    ['{"update_id":"41"}'],
    ['{"update_id":null}'],
    ['{"update_id":1.5}'],
    ['{"update_id":-1}'],
    ['{"message":{"text":"hi"}}'],
    ["{"],
    [""],
  ])("answers 400 to %s, the bot's middleware never running", async (body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(seen).toEqual([]);
    expect(lines.filter((l) => l.msg === "telegram webhook: body refused")).toHaveLength(1);
  });

  it("answers 413 to an update past the cap, declared or chunked, without handing it on", async () => {
    const big = update(42, "x".repeat(TELEGRAM_WEBHOOK_MAX_BODY_BYTES));
    expect((await post(big)).status).toBe(413);
    const bytes = new TextEncoder().encode(big);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024)
          controller.enqueue(bytes.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
    expect((await post(chunked)).status).toBe(413);
    expect(seen).toEqual([]);
    // Just within the cap is an update like any other.
    const within = update(43, "x".repeat(TELEGRAM_WEBHOOK_MAX_BODY_BYTES - update(43).length));
    expect(new TextEncoder().encode(within).length).toBe(TELEGRAM_WEBHOOK_MAX_BODY_BYTES);
    expect((await post(within)).status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it("checks the secret token before the body: a wrong one is 401 whatever the body", async () => {
    for (const body of [
      "null",
      update(44),
      update(45, "x".repeat(TELEGRAM_WEBHOOK_MAX_BODY_BYTES)),
    ])
      expect((await post(body, "wrong-secret")).status).toBe(401);
    expect(seen).toEqual([]);
    expect(lines.filter((l) => l.msg === "telegram webhook: body refused")).toEqual([]);
  });
});
