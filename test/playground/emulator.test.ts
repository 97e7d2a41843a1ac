// A real grammY bot against the Bot API emulator over loopback HTTP: what users see, what the
// bot is told, and the errors Telegram answers with.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Bot, GrammyError, InlineKeyboard, Keyboard, webhookCallback } from "grammy";
import type { Update } from "grammy/types";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BotApiEmulatorOptions,
  createBotApiEmulator,
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";

const TOKEN = "123456:emulator-test-token";
const cleanups: (() => Promise<unknown> | unknown)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function startEmulator(options: BotApiEmulatorOptions = {}): Promise<RunningEmulator> {
  const running = await startBotApiEmulatorServer({ token: TOKEN, ...options });
  cleanups.push(() => running.close());
  return running;
}

function newBot(apiRoot: string, token = TOKEN): Bot {
  return new Bot(token, { client: { apiRoot } });
}

/** Starts long polling and resolves once the bot is polling; stopped after the test. */
async function startPolling(bot: Bot): Promise<unknown[]> {
  const errors: unknown[] = [];
  bot.catch((error) => {
    errors.push(error.error);
  });
  await new Promise<void>((resolve, reject) => {
    bot.start({ onStart: () => resolve() }).catch(reject);
  });
  cleanups.push(() => bot.stop());
  return errors;
}

async function serveApp(app: Hono): Promise<string> {
  return new Promise((resolve) => {
    const server = serve(
      { fetch: app.fetch, port: 0, hostname: "127.0.0.1" },
      (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
    );
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          server.close(() => done());
          if ("closeAllConnections" in server) server.closeAllConnections();
        }),
    );
  });
}

async function rawCall(
  apiRoot: string,
  method: string,
  params: Record<string, unknown>,
  token = TOKEN,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${apiRoot}/bot${token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function apiError(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return error as GrammyError;
}

describe("a grammY bot on long polling", () => {
  it("echoes what a user types, and the chat shows both sides", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const seen: { chatType: string; name: string; language?: string; command?: string }[] = [];
    const bot = newBot(apiRoot);
    bot.command("start", async (ctx) => {
      seen.push({
        chatType: ctx.chat.type,
        name: ctx.from?.first_name ?? "",
        language: ctx.from?.language_code,
        command: ctx.match,
      });
      await ctx.reply("Welcome!");
    });
    bot.on("message:text", (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
    const errors = await startPolling(bot);
    emulator.users.upsert(1001, { first_name: "Asha", username: "asha_np", language_code: "ne" });

    const start = emulator.sendText(1001, "/start promo7");
    await emulator.waitForBotMessage(1001, "Welcome!", { afterId: start.message_id });
    const hello = emulator.sendText(1001, "hello");
    await emulator.waitForBotMessage(1001, "echo: hello", { afterId: hello.message_id });

    expect(seen).toEqual([
      { chatType: "private", name: "Asha", language: "ne", command: "promo7" },
    ]);
    expect(
      emulator.chat(1001).map(({ id, from, text, edited }) => ({ id, from, text, edited })),
    ).toEqual([
      { id: 1, from: "user", text: "/start promo7", edited: false },
      { id: 2, from: "bot", text: "Welcome!", edited: false },
      { id: 3, from: "user", text: "hello", edited: false },
      { id: 4, from: "bot", text: "echo: hello", edited: false },
    ]);
    expect(emulator.stats().messagesByChat).toEqual({ "1001": 2 });
    expect(errors).toEqual([]);
  });

  it("shows an inline keyboard, answers the press and edits the message in place", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const bot = newBot(apiRoot);
    bot.command("menu", (ctx) =>
      ctx.reply("Pick an amount", {
        reply_markup: new InlineKeyboard()
          .text("Rs 10", "amt:10")
          .text("Rs 20", "amt:20")
          .row()
          .url("Help", "https://example.com/help"),
      }),
    );
    bot.callbackQuery(/^amt:(\d+)$/, async (ctx) => {
      await ctx.answerCallbackQuery({ text: "Noted" });
      await ctx.editMessageText(`You chose Rs ${ctx.match[1]}`);
    });
    await startPolling(bot);

    const sent = emulator.sendText(2002, "/menu");
    const menu = await emulator.waitForBotMessage(2002, "Pick an amount", {
      afterId: sent.message_id,
    });
    expect(menu.inlineKeyboard).toEqual([
      [
        { text: "Rs 10", callback_data: "amt:10" },
        { text: "Rs 20", callback_data: "amt:20" },
      ],
      [{ text: "Help", url: "https://example.com/help" }],
    ]);

    const press = emulator.pressButton(2002, menu.id, "amt:20");
    const edited = await emulator.waitForBotMessage(2002, "You chose Rs 20");

    expect(edited).toMatchObject({ id: menu.id, from: "bot", edited: true });
    // editMessageText without reply_markup removes the keyboard, as on Telegram.
    expect(edited.inlineKeyboard).toBeUndefined();
    expect(emulator.chat(2002)).toHaveLength(2);
    expect(emulator.callbackAnswers()).toMatchObject([
      {
        callback_query_id: press.callback_query_id,
        chat_id: 2002,
        message_id: menu.id,
        data: "amt:20",
        text: "Noted",
        show_alert: false,
      },
    ]);
    expect(emulator.calls("answerCallbackQuery")).toHaveLength(1);
  });

  it("clicks a button by its label and refuses buttons the message does not have", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const bot = newBot(apiRoot);
    const pressed: string[] = [];
    bot.command("go", (ctx) =>
      ctx.reply("Confirm?", {
        reply_markup: new InlineKeyboard().text("Yes", "yes").text("No", "no"),
      }),
    );
    bot.on("callback_query:data", async (ctx) => {
      pressed.push(ctx.callbackQuery.data);
      await ctx.answerCallbackQuery();
    });
    await startPolling(bot);

    emulator.sendText(3003, "/go");
    const question = await emulator.waitForBotMessage(3003, "Confirm?");
    expect(() => emulator.pressButton(3003, question.id, "maybe")).toThrow(/no button/);
    expect(() => emulator.pressButton(3003, 99, "yes")).toThrow(/no message 99/);
    emulator.clickButton(3003, "No");
    await emulator.waitFor(() => emulator.callbackAnswers().length === 1);

    expect(pressed).toEqual(["no"]);
  });

  it("keeps the reply keyboard and the typing action the user sees", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const bot = newBot(apiRoot);
    bot.command("ask", async (ctx) => {
      await ctx.replyWithChatAction("typing");
      await ctx.reply("Which operator?", {
        reply_markup: new Keyboard().text("NTC").text("Ncell").oneTime(),
      });
    });
    bot.hears("NTC", (ctx) => ctx.reply("NTC it is", { reply_markup: { remove_keyboard: true } }));
    await startPolling(bot);
    const typing: string[] = [];
    emulator.on("typing", (event) => typing.push(event.action));

    emulator.sendText(4004, "/ask");
    await emulator.waitForBotMessage(4004, "Which operator?");
    expect(emulator.replyKeyboard(4004)).toEqual([["NTC", "Ncell"]]);
    expect(emulator.lastBotMessage(4004)?.replyKeyboard).toEqual([["NTC", "Ncell"]]);
    expect(typing).toEqual(["typing"]);
    // A message from the bot ends the chat action.
    expect(emulator.typing(4004)).toBeUndefined();

    emulator.sendText(4004, "NTC");
    const done = await emulator.waitForBotMessage(4004, "NTC it is");
    expect(done.removeKeyboard).toBe(true);
    expect(emulator.replyKeyboard(4004)).toBeUndefined();
  });

  it("delivers stickers, photos and group messages with the shapes grammY expects", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const bot = newBot(apiRoot);
    bot.on("message:sticker", (ctx) => ctx.reply(`sticker ${ctx.message.sticker.emoji}`));
    bot.on("message:photo", (ctx) =>
      ctx.reply(`photo ${ctx.message.photo.length} sizes, caption ${ctx.message.caption}`),
    );
    bot
      .chatType("group")
      .command("buy", (ctx) => ctx.reply(`Only private chats may order, ${ctx.from?.first_name}`));
    await startPolling(bot);
    emulator.users.upsert(5005, { first_name: "Bikash" });

    emulator.sendSticker(5005, { emoji: "🙂" });
    await emulator.waitForBotMessage(5005, "sticker 🙂");
    emulator.sendPhoto(5005, { caption: "meter" });
    await emulator.waitForBotMessage(5005, "photo 2 sizes, caption meter");
    emulator.sendGroupText(5005, -100200, "/buy");
    await emulator.waitForBotMessage(-100200, "Only private chats may order, Bikash");

    expect(emulator.chat(5005).map((entry) => entry.kind)).toEqual([
      "sticker",
      "text",
      "photo",
      "text",
    ]);
    expect(emulator.chat(-100200).map((entry) => entry.from)).toEqual(["user", "bot"]);
  });

  it("delivers a redelivered update again with the same update_id", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const bot = newBot(apiRoot);
    const handled: number[] = [];
    bot.on("message", async (ctx) => {
      handled.push(ctx.update.update_id);
      await ctx.reply(`got ${handled.length}`);
    });
    await startPolling(bot);

    const first = emulator.sendText(6006, "pay");
    await emulator.waitForBotMessage(6006, "got 1");
    emulator.redeliver(first.update_id);
    await emulator.waitForBotMessage(6006, "got 2");

    expect(handled).toEqual([first.update_id, first.update_id]);
  });

  it("serves a bot mounted under a path of a bigger Hono app", async () => {
    const emulator = createBotApiEmulator({ token: TOKEN });
    const main = new Hono();
    main.get("/health", (c) => c.text("ok"));
    main.route("/telegram", emulator.app);
    const url = await serveApp(main);
    cleanups.push(() => emulator.close());
    const bot = newBot(`${url}/telegram`);
    bot.on("message:text", (ctx) => ctx.reply(ctx.message.text.toUpperCase()));
    await startPolling(bot);

    emulator.sendText(7007, "namaste");
    await emulator.waitForBotMessage(7007, "NAMASTE");
  });
});

describe("getUpdates", () => {
  it("hands out updates until they are confirmed by offset, then never again", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    emulator.sendText(8008, "one");
    emulator.sendText(8008, "two");

    const firstFetch = await api.getUpdates();
    const again = await api.getUpdates();
    expect(firstFetch.map((u) => u.message?.text)).toEqual(["one", "two"]);
    // Not confirmed yet: the same updates come back.
    expect(again.map((u) => u.update_id)).toEqual(firstFetch.map((u) => u.update_id));

    const lastId = firstFetch.at(-1)!.update_id;
    expect(await api.getUpdates({ offset: lastId + 1 })).toEqual([]);
    expect(await api.getUpdates()).toEqual([]);

    const three = emulator.sendText(8008, "three");
    const later = await api.getUpdates({ offset: lastId + 1 });
    expect(later.map((u) => [u.update_id, u.message?.text])).toEqual([[three.update_id, "three"]]);
    expect(three.update_id).toBeGreaterThan(lastId);
  });

  it("gives the user's message the fields Telegram gives it", async () => {
    const { emulator, apiRoot } = await startEmulator({ now: () => 1_700_000_000_123 });
    const api = newBot(apiRoot).api;
    emulator.users.upsert(8108, {
      first_name: "Sita",
      last_name: "Rai",
      username: "sita_r",
      language_code: "hi",
    });
    emulator.sendText(8108, "/recharge@recharge_assistant_bot now");

    const [update] = await api.getUpdates();
    expect(update?.message).toEqual({
      message_id: 1,
      from: {
        id: 8108,
        is_bot: false,
        first_name: "Sita",
        last_name: "Rai",
        username: "sita_r",
        language_code: "hi",
      },
      chat: { id: 8108, type: "private", first_name: "Sita", last_name: "Rai", username: "sita_r" },
      date: 1_700_000_000,
      text: "/recharge@recharge_assistant_bot now",
      entities: [{ type: "bot_command", offset: 0, length: 32 }],
    });
  });

  it("holds a long poll until an update arrives", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    const polling = api.getUpdates({ timeout: 10 });
    await emulator.waitFor(() => emulator.stats().methodCalls.getUpdates === 1);
    const sent = emulator.sendText(8208, "late");

    const updates = await polling;
    expect(updates.map((u) => u.update_id)).toEqual([sent.update_id]);
  });

  it("terminates an older long poll with 409 when another one starts", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    const older = api.getUpdates({ timeout: 10 });
    await emulator.waitFor(() => emulator.stats().methodCalls.getUpdates === 1);
    const newer = api.getUpdates({ timeout: 0 });

    const error = await apiError(older);
    expect(error.error_code).toBe(409);
    expect(error.description).toBe(
      "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    );
    expect(await newer).toEqual([]);
  });

  it("announces a user blocking the bot as my_chat_member", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    emulator.users.upsert(8308, { first_name: "Hari" });
    emulator.users.block(8308);

    const [update] = await api.getUpdates();
    expect(update?.my_chat_member).toMatchObject({
      chat: { id: 8308, type: "private" },
      from: { id: 8308 },
      old_chat_member: { status: "member" },
      new_chat_member: { status: "kicked" },
    });
  });
});

describe("webhook mode", () => {
  it("POSTs updates to the webhook with the secret token and the bot answers through the API", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const bot = newBot(apiRoot);
    bot.on("message:text", (ctx) => ctx.reply(`hook: ${ctx.message.text}`));
    await bot.init();
    const hooks = new Hono();
    hooks.post("/tg", webhookCallback(bot, "hono", { secretToken: "s3cret_token" }));
    const url = `${await serveApp(hooks)}/tg`;

    await bot.api.setWebhook(url, { secret_token: "s3cret_token" });
    expect(emulator.webhookInfo()).toMatchObject({ url, pending_update_count: 0 });
    const sent = emulator.sendText(9009, "ping");
    await emulator.waitForBotMessage(9009, "hook: ping", { afterId: sent.message_id });

    // getUpdates is refused while a webhook is set, as on Telegram.
    const error = await apiError(bot.api.getUpdates());
    expect(error.error_code).toBe(409);
    expect(emulator.stats().webhookDeliveries).toBe(1);

    await bot.api.deleteWebhook();
    emulator.sendText(9009, "queued");
    expect((await bot.api.getUpdates()).map((u) => u.message?.text)).toEqual(["queued"]);
  });

  it("retries a delivery answered with an error and records the failure", async () => {
    const { emulator, apiRoot } = await startEmulator({ webhook: { retryDelaysMs: [5, 5] } });
    const attempts: { path: string; secret: string | undefined; updateId: number }[] = [];
    const hooks = new Hono();
    hooks.post("/:mode", async (c) => {
      const update = await c.req.json<Update>();
      attempts.push({
        path: c.req.param("mode"),
        secret: c.req.header("x-telegram-bot-api-secret-token"),
        updateId: update.update_id,
      });
      const flaky = c.req.param("mode") === "flaky" && attempts.length === 1;
      return c.req.param("mode") === "down" || flaky ? c.text("oops", 500) : c.json({});
    });
    const base = await serveApp(hooks);
    const api = newBot(apiRoot).api;

    await api.setWebhook(`${base}/flaky`, { secret_token: "abc" });
    const first = emulator.sendText(9109, "first");
    await emulator.waitFor(() => emulator.stats().webhookDeliveries === 1);
    expect(attempts).toEqual([
      { path: "flaky", secret: "abc", updateId: first.update_id },
      { path: "flaky", secret: "abc", updateId: first.update_id },
    ]);

    await api.setWebhook(`${base}/down`);
    const second = emulator.sendText(9109, "second");
    await emulator.waitFor(() => emulator.stats().webhookFailures === 1);
    expect(attempts.slice(2)).toEqual([
      { path: "down", secret: undefined, updateId: second.update_id },
      { path: "down", secret: undefined, updateId: second.update_id },
      { path: "down", secret: undefined, updateId: second.update_id },
    ]);
    const info = emulator.webhookInfo();
    expect(info.last_error_message).toBe(
      "Wrong response from the webhook: 500 Internal Server Error",
    );
    expect(info.pending_update_count).toBe(0);
  });
});

describe("Telegram's errors", () => {
  it("answers 'message is not modified' to an identical edit", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    emulator.sendText(1101, "hi");
    const keyboard = new InlineKeyboard().text("Refresh", "refresh");
    const message = await api.sendMessage(1101, "Status: processing", { reply_markup: keyboard });

    const sameText = await apiError(
      api.editMessageText(1101, message.message_id, "Status: processing", {
        reply_markup: keyboard,
      }),
    );
    expect(sameText.error_code).toBe(400);
    expect(sameText.description).toMatch(/^Bad Request: message is not modified/);
    const sameMarkup = await apiError(
      api.editMessageReplyMarkup(1101, message.message_id, { reply_markup: keyboard }),
    );
    expect(sameMarkup.description).toMatch(/^Bad Request: message is not modified/);

    const edited = await api.editMessageText(1101, message.message_id, "Status: success");
    expect(edited).toMatchObject({ message_id: message.message_id, text: "Status: success" });
    expect(emulator.lastBotMessage(1101)).toMatchObject({ text: "Status: success", edited: true });
    expect(emulator.stats().edits).toBe(1);
  });

  it("refuses a user who blocked the bot with 403", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    emulator.sendText(1201, "hi");
    const receipt = await api.sendMessage(1201, "Receipt");
    emulator.users.block(1201);

    const send = await apiError(api.sendMessage(1201, "Update"));
    expect([send.error_code, send.description]).toEqual([
      403,
      "Forbidden: bot was blocked by the user",
    ]);
    const edit = await apiError(api.editMessageText(1201, receipt.message_id, "Done"));
    expect(edit.error_code).toBe(403);
    expect(() => emulator.sendText(1201, "let me in")).toThrow(/blocked/);

    emulator.users.block(1201, false);
    await api.sendMessage(1201, "Welcome back");
    expect(emulator.chat(1201).map((entry) => entry.text)).toEqual([
      "hi",
      "Receipt",
      "Welcome back",
    ]);
  });

  it("answers chat not found, empty text, missing message and wrong tokens like Telegram", async () => {
    const { emulator, apiRoot } = await startEmulator();
    emulator.sendText(1301, "hi");

    expect(await rawCall(apiRoot, "sendMessage", { chat_id: 999_999, text: "x" })).toEqual({
      status: 400,
      body: { ok: false, error_code: 400, description: "Bad Request: chat not found" },
    });
    expect((await rawCall(apiRoot, "sendMessage", { chat_id: 1301 })).body.description).toBe(
      "Bad Request: message text is empty",
    );
    expect((await rawCall(apiRoot, "sendMessage", { text: "x" })).body.description).toBe(
      "Bad Request: chat_id is empty",
    );
    expect(
      (await rawCall(apiRoot, "editMessageText", { chat_id: 1301, message_id: 77, text: "x" })).body
        .description,
    ).toBe("Bad Request: message to edit not found");
    expect(
      (await rawCall(apiRoot, "editMessageText", { chat_id: 1301, message_id: 1, text: "x" })).body
        .description,
    ).toBe("Bad Request: message can't be edited");
    expect(
      (await rawCall(apiRoot, "answerCallbackQuery", { callback_query_id: "nope" })).body
        .description,
    ).toBe("Bad Request: query is too old and response timeout expired or query ID is invalid");

    const wrongToken = await apiError(newBot(apiRoot, "999:wrong").init());
    expect([wrongToken.error_code, wrongToken.description]).toEqual([401, "Unauthorized"]);
    expect(emulator.stats().errors).toEqual({ "400": 6, "401": 1 });
    expect(emulator.chat(1301)).toHaveLength(1);
  });

  it("rejects keyboards Telegram rejects", async () => {
    const { emulator, apiRoot } = await startEmulator();
    emulator.sendText(1401, "hi");
    const api = newBot(apiRoot).api;

    const longData = await apiError(
      api.sendMessage(1401, "x", {
        reply_markup: new InlineKeyboard().text("Too long", "d".repeat(65)),
      }),
    );
    expect(longData.description).toBe("Bad Request: BUTTON_DATA_INVALID");
    const plain = await apiError(
      api.sendMessage(1401, "x", {
        reply_markup: { inline_keyboard: [[{ text: "bare" } as never]] },
      }),
    );
    expect(plain.description).toBe(
      "Bad Request: text buttons are unallowed in the inline keyboard",
    );
    expect(emulator.chat(1401)).toHaveLength(1);
  });
});

describe("flood limits", () => {
  it("answers 429 with retry_after beyond about one message per second in a chat", async () => {
    let clock = 1_700_000_000_000;
    const { emulator, apiRoot } = await startEmulator({ limits: {}, now: () => clock });
    emulator.sendText(1601, "hi");

    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await rawCall(apiRoot, "sendMessage", { chat_id: 1601, text: `push ${i}` }));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[3]?.body).toEqual({
      ok: false,
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
    expect(emulator.stats()).toMatchObject({ tooManyRequests: 2, messagesByChat: { "1601": 3 } });

    clock += 1_000;
    expect((await rawCall(apiRoot, "sendMessage", { chat_id: 1601, text: "later" })).status).toBe(
      200,
    );
    expect(emulator.chat(1601).map((entry) => entry.text)).toEqual([
      "hi",
      "push 0",
      "push 1",
      "push 2",
      "later",
    ]);
  });

  it("answers 429 beyond about 30 messages per second overall", async () => {
    const clock = 1_700_000_000_000;
    const { emulator, apiRoot } = await startEmulator({ limits: {}, now: () => clock });
    const api = newBot(apiRoot).api;
    for (let user = 1; user <= 35; user++)
      emulator.users.upsert(20_000 + user, { first_name: `U${user}` });

    const outcomes: (number | "ok")[] = [];
    for (let user = 1; user <= 35; user++) {
      outcomes.push(
        await api.sendMessage(20_000 + user, "Status: success").then(
          () => "ok" as const,
          (error: GrammyError) => error.parameters.retry_after ?? -1,
        ),
      );
    }
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(30);
    expect(outcomes.slice(30)).toEqual([1, 1, 1, 1, 1]);
    expect(emulator.stats().tooManyRequests).toBe(5);
  });
});

describe("other Bot API methods", () => {
  it("stores commands per scope and language", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    const english = [
      { command: "start", description: "Start" },
      { command: "recharge", description: "Top up a number" },
    ];
    await api.setMyCommands(english);
    await api.setMyCommands([{ command: "start", description: "सुरु" }], { language_code: "ne" });
    emulator.sendText(1701, "hi");
    await api.setMyCommands([...english, { command: "balance", description: "Wallet" }], {
      scope: { type: "chat", chat_id: 1701 },
    });

    expect(emulator.commands()).toEqual(english);
    expect(emulator.commands({ language_code: "ne" })).toEqual([
      { command: "start", description: "सुरु" },
    ]);
    expect(emulator.commands({ scope: { type: "chat", chat_id: 1701 } })).toHaveLength(3);
    expect(Object.keys(emulator.allCommands()).sort()).toEqual([
      "chat:1701",
      "default",
      "default|ne",
    ]);

    const invalid = await apiError(api.setMyCommands([{ command: "Start", description: "x" }]));
    expect(invalid.description).toBe("Bad Request: BOT_COMMAND_INVALID");
    // An empty list removes the commands of that scope and language, as on Telegram.
    await api.setMyCommands([], { language_code: "ne" });
    expect(emulator.commands({ language_code: "ne" })).toBeUndefined();
  });

  it("answers 404 to methods the bot does not use, as Telegram answers an unknown method", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;

    const unknown = await apiError(api.setMyName("Recharge in Nepal"));
    expect([unknown.error_code, unknown.description]).toEqual([404, "Not Found"]);
    // A GET with the parameters in the query string works like a JSON POST.
    const me = await fetch(`${apiRoot}/bot${TOKEN}/getMe`);
    expect(await me.json()).toMatchObject({
      ok: true,
      result: { id: 123456, is_bot: true, username: "recharge_assistant_bot" },
    });
    expect(emulator.stats().unknownMethods).toEqual({ setMyName: 1 });
    expect(emulator.stats().methodCalls).toEqual({ setMyName: 1, getMe: 1 });
  });

  it("refuses formatted text, which the bot never sends and the emulator does not parse", async () => {
    const { emulator, apiRoot } = await startEmulator();
    emulator.sendText(1501, "hi");
    const api = newBot(apiRoot).api;

    const html = await apiError(api.sendMessage(1501, "<b>Rs 100</b>", { parse_mode: "HTML" }));
    expect([html.error_code, html.description]).toEqual([
      400,
      "Bad Request: invalid parse_mode: formatted text (parse_mode) is not emulated",
    ]);
    const sent = await api.sendMessage(1501, "<b>Rs 100</b> to 98&lt;41&gt;");
    // Plain text stays exactly as sent, tags and all, as Telegram shows it.
    expect(sent.text).toBe("<b>Rs 100</b> to 98&lt;41&gt;");
    expect(sent.entities).toBeUndefined();
    expect(emulator.chat(1501).map((entry) => entry.text)).toEqual([
      "hi",
      "<b>Rs 100</b> to 98&lt;41&gt;",
    ]);
  });

  it("deletes messages and hides them from the transcript", async () => {
    const { emulator, apiRoot } = await startEmulator();
    const api = newBot(apiRoot).api;
    emulator.sendText(1901, "hi");
    const message = await api.sendMessage(1901, "temporary");

    await api.deleteMessage(1901, message.message_id);
    expect(emulator.chat(1901).map((entry) => entry.text)).toEqual(["hi"]);
    const again = await apiError(api.deleteMessage(1901, message.message_id));
    expect(again.description).toBe("Bad Request: message to delete not found");
  });
});
