// The emulator's JSON control API over HTTP, as the web playground and scripts use it.
import { Bot, InlineKeyboard } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../src/playground/emulator/index.ts";

const TOKEN = "424242:control-test";
const cleanups: (() => Promise<unknown> | unknown)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function setUp(withBot = true): Promise<RunningEmulator> {
  const running = await startBotApiEmulatorServer({ token: TOKEN });
  cleanups.push(() => running.close());
  if (withBot) {
    const bot = new Bot(TOKEN, { client: { apiRoot: running.apiRoot } });
    bot.command("menu", (ctx) =>
      ctx.reply("Choose", { reply_markup: new InlineKeyboard().text("Water", "cat:water") }),
    );
    bot.callbackQuery("cat:water", async (ctx) => {
      await ctx.answerCallbackQuery();
      await ctx.editMessageText("Water bill: which office?");
    });
    bot.on("message:text", (ctx) => ctx.reply(`you said ${ctx.message.text}`));
    await new Promise<void>((resolve, reject) => {
      bot.start({ onStart: () => resolve() }).catch(reject);
    });
    cleanups.push(() => bot.stop());
  }
  return running;
}

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe("control API", () => {
  it("lets a user type, press a button and read the chat", async () => {
    const { emulator, controlUrl } = await setUp();

    const user = await call(controlUrl, "PUT", "/users/501", {
      first_name: "Maya",
      username: "maya_k",
      language_code: "hi",
    });
    expect(user).toEqual({
      status: 200,
      json: {
        user: {
          id: 501,
          first_name: "Maya",
          username: "maya_k",
          language_code: "hi",
          blocked: false,
          started: true,
        },
      },
    });
    const sent = await call(controlUrl, "POST", "/users/501/messages", { text: "/menu" });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ message_id: 1 });
    expect(sent.json.update_id).toEqual(expect.any(Number));
    const menu = await emulator.waitForBotMessage(501, "Choose");

    const pressed = await call(controlUrl, "POST", "/users/501/callbacks", {
      message_id: menu.id,
      data: "cat:water",
    });
    expect(pressed.status).toBe(200);
    await emulator.waitForBotMessage(501, "which office?");

    const chat = await call(controlUrl, "GET", "/users/501/messages");
    expect(chat.status).toBe(200);
    expect(chat.json.messages).toMatchObject([
      { id: 1, from: "user", text: "/menu", edited: false },
      { id: 2, from: "bot", text: "Water bill: which office?", edited: true },
    ]);
    const stats = await call(controlUrl, "GET", "/stats");
    expect(stats.json).toMatchObject({ messagesSent: 1, edits: 1, messagesByChat: { "501": 1 } });
  });

  it("presses a button by its label", async () => {
    const { emulator, controlUrl } = await setUp();
    await call(controlUrl, "POST", "/users/502/messages", { text: "/menu" });
    await emulator.waitForBotMessage(502, "Choose");

    const clicked = await call(controlUrl, "POST", "/users/502/buttons", { text: "Water" });
    expect(clicked.status).toBe(200);
    await emulator.waitForBotMessage(502, "which office?");
    expect(emulator.callbackAnswers()).toHaveLength(1);
  });

  it("answers malformed or impossible requests with 400 JSON", async () => {
    const { emulator, controlUrl } = await setUp(false);
    emulator.sendText(503, "hi");

    const cases: [string, string, unknown][] = [
      ["POST", "/users/503/messages", "{not json"],
      ["POST", "/users/503/messages", {}],
      ["POST", "/users/503/messages", { text: "" }],
      ["POST", "/users/503/messages", { text: "hi", extra: 1 }],
      ["POST", "/users/abc/messages", { text: "hi" }],
      ["POST", "/users/-5/messages", { text: "hi" }],
      ["POST", "/users/503/callbacks", { message_id: 1 }],
      ["POST", "/users/503/callbacks", { message_id: 42, data: "x" }],
      ["POST", "/users/503/callbacks", { message_id: 1, data: "x" }],
      ["POST", "/users/503/buttons", { text: "Nowhere" }],
      ["PUT", "/users/503", { first_name: "" }],
      ["PUT", "/users/503", { first_name: "A", username: "x y" }],
      ["POST", "/groups/5/messages", { user_id: 503, text: "hi" }],
      ["POST", "/updates/1/redeliver", undefined],
      ["PUT", "/limits", { limits: { globalPerSecond: -1 } }],
    ];
    for (const [method, path, body] of cases) {
      const answer = await call(controlUrl, method, path, body);
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 400 });
      expect(answer.json.error).toEqual(expect.any(String));
    }
    expect((await call(controlUrl, "GET", "/users/9999")).status).toBe(404);
    expect(await call(controlUrl, "GET", "/no/such/thing")).toEqual({
      status: 404,
      json: { error: "no such control endpoint" },
    });
    // Nothing reached the chat.
    expect(emulator.chat(503).map((entry) => entry.text)).toEqual(["hi"]);
  });

  it("streams messages, edits and typing as server-sent events", async () => {
    const { emulator, controlUrl, apiRoot } = await setUp(false);
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const response = await fetch(`${controlUrl}/events?chat_id=504`, { signal: controller.signal });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: { event: string; data: Record<string, unknown> }[] = [];
    let buffer = "";
    const readUntil = async (count: number) => {
      while (events.length < count) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error("stream ended");
        buffer += chunk.value;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          end = buffer.indexOf("\n\n");
        }
      }
    };
    await readUntil(1);
    expect(events[0]?.event).toBe("ready");

    emulator.sendText(505, "someone else");
    emulator.sendText(504, "hello");
    const api = new Bot(TOKEN, { client: { apiRoot } }).api;
    await api.sendChatAction(504, "typing");
    const sent = await api.sendMessage(504, "Processing");
    await api.editMessageText(504, sent.message_id, "Done");
    await readUntil(5);

    expect(events.slice(1).map((e) => [e.event, e.data.chatId])).toEqual([
      ["message", 504],
      ["typing", 504],
      ["message", 504],
      ["edit", 504],
    ]);
    expect(events[4]?.data.message).toMatchObject({
      id: 2,
      from: "bot",
      text: "Done",
      edited: true,
    });
  });

  it("switches flood limits on and resets everything", async () => {
    const { emulator, controlUrl, apiRoot } = await setUp(false);
    emulator.sendText(506, "hi");
    expect((await call(controlUrl, "PUT", "/limits", { limits: { perChatBurst: 1 } })).status).toBe(
      200,
    );
    const api = new Bot(TOKEN, { client: { apiRoot } }).api;
    await api.sendMessage(506, "one");
    const second = await api.sendMessage(506, "two").catch((error: unknown) => error);
    expect(second).toMatchObject({ error_code: 429 });

    expect(await call(controlUrl, "POST", "/reset")).toEqual({ status: 200, json: { ok: true } });
    expect((await call(controlUrl, "GET", "/users/506/messages")).json).toEqual({ messages: [] });
    expect((await call(controlUrl, "GET", "/stats")).json).toMatchObject({
      messagesSent: 0,
      tooManyRequests: 0,
    });
  });
});
