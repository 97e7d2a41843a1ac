/*
 * Control API of the Bot API emulator: plays the bot's users and shows what their chats show.
 * Served under `/control` of `emulator.app`, or alone as `emulator.controlApp` (paths below are
 * relative to where it is mounted). Bodies are JSON; every error answers JSON
 * `{ "error": "...", "issues"?: [...] }` with status 400 (malformed or impossible request) or
 * 404 (unknown user or endpoint), never 5xx.
 *
 *   PUT  /users/:userId                 {first_name, last_name?, username?, language_code?,
 *                                        blocked?, started?}           -> {user}
 *   GET  /users                                                        -> {users}
 *   GET  /users/:userId                                                -> {user} | 404
 *   POST /users/:userId/messages        {text, reply_to_message_id?}   -> {update_id, message_id}
 *   GET  /users/:userId/messages[?include_deleted=1]
 *                                       -> {messages: TranscriptEntry[], typing?, reply_keyboard?}
 *   POST /users/:userId/callbacks       {message_id, data, force?}     -> {update_id,
 *                                        callback_query_id, message_id}; 400 unless that bot
 *                                        message now has a button with that callback_data
 *   POST /users/:userId/buttons         {text, message_id?}            -> same as callbacks; presses
 *                                        the button labelled `text` on the newest message having it
 *   POST /users/:userId/stickers        {emoji?}                       -> {update_id, message_id}
 *   POST /users/:userId/photos          {caption?}                     -> {update_id, message_id}
 *   POST /groups/:groupId/messages      {user_id, text, title?}        -> {update_id, message_id}
 *   GET  /groups/:groupId/messages                                     -> {messages}
 *   POST /updates/:updateId/redeliver                                  -> {update_id}
 *   GET  /events[?chat_id=N]            server-sent events: `ready` once, then `message`, `edit`,
 *                                       `delete`, `typing`, `callback_answer`, each with the
 *                                       JSON event ({type, chatId, ...}) as data
 *   GET  /stats                                                        -> EmulatorStats
 *   GET  /commands                                                     -> {commands: {scopeKey: [...]}}
 *   GET  /calls[?method=name]                                          -> {calls: RecordedCall[]}
 *   GET  /callback-answers                                             -> {answers}
 *   GET  /webhook                                                      -> webhook status
 *   PUT  /limits                        {limits: {globalPerSecond?, globalBurst?, perChatPerSecond?,
 *                                        perChatBurst?, perGroupPerMinute?} | false} -> {ok: true}
 *   POST /reset                                                        -> {ok: true}
 *
 * A TranscriptEntry is {id, from: "bot"|"user", kind, text, entities?, parseMode?,
 * inlineKeyboard?: {text, callback_data?, url?}[][], replyKeyboard?: string[][], removeKeyboard?,
 * replyTo?, emoji?, edited, date (ms), editedAt?, deleted?}.
 */
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import type { EmulatorCore } from "./core.ts";
import type { BotApiEmulator } from "./emulator.ts";
import { floodLimitsSchema } from "./flood.ts";
import {
  buttonTextBodySchema,
  callbackBodySchema,
  EmulatorError,
  type EmulatorEvent,
  type EmulatorEventType,
  groupIdSchema,
  groupTextBodySchema,
  mediaBodySchema,
  textBodySchema,
  userIdSchema,
  userInputSchema,
} from "./types.ts";

const limitsBodySchema = z.strictObject({
  limits: z.union([z.literal(false), floodLimitsSchema.partial().strict()]),
});

const eventTypes: EmulatorEventType[] = ["message", "edit", "delete", "typing", "callback_answer"];

class HttpProblem extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
    readonly issues?: unknown,
  ) {
    super(message);
  }
}

export function createControlRoutes(
  emulator: BotApiEmulator,
  core: EmulatorCore,
  closers: Set<() => void>,
): Hono {
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof HttpProblem) {
      return c.json(
        { error: error.message, ...(error.issues ? { issues: error.issues } : {}) },
        error.status,
      );
    }
    if (error instanceof EmulatorError) return c.json({ error: error.message }, 400);
    if (error instanceof z.ZodError)
      return c.json({ error: "invalid input", issues: error.issues }, 400);
    return c.json({ error: error instanceof Error ? error.message : String(error) }, 400);
  });

  app.get("/users", (c) => c.json({ users: emulator.users.list() }));

  app.put("/users/:userId", async (c) => {
    const userId = param(c, "userId", userIdSchema);
    const body = await jsonBody(c, userInputSchema);
    return c.json({ user: emulator.users.upsert(userId, body) });
  });

  app.get("/users/:userId", (c) => {
    const user = emulator.users.get(param(c, "userId", userIdSchema));
    if (!user) throw new HttpProblem(404, "unknown user");
    return c.json({ user });
  });

  app.post("/users/:userId/messages", async (c) => {
    const userId = param(c, "userId", userIdSchema);
    const body = await jsonBody(c, textBodySchema);
    const options =
      body.reply_to_message_id === undefined ? {} : { replyTo: body.reply_to_message_id };
    return c.json(emulator.sendText(userId, body.text, options));
  });

  app.get("/users/:userId/messages", (c) => {
    const userId = param(c, "userId", userIdSchema);
    const includeDeleted = ["1", "true"].includes(c.req.query("include_deleted") ?? "");
    const typing = emulator.typing(userId);
    const replyKeyboard = emulator.replyKeyboard(userId);
    return c.json({
      messages: emulator.chat(userId, { includeDeleted }),
      ...(typing && { typing }),
      ...(replyKeyboard && { reply_keyboard: replyKeyboard }),
    });
  });

  app.post("/users/:userId/callbacks", async (c) => {
    const userId = param(c, "userId", userIdSchema);
    const body = await jsonBody(c, callbackBodySchema);
    return c.json(
      emulator.pressButton(userId, body.message_id, body.data, { force: body.force ?? false }),
    );
  });

  app.post("/users/:userId/buttons", async (c) => {
    const userId = param(c, "userId", userIdSchema);
    const body = await jsonBody(c, buttonTextBodySchema);
    const options = body.message_id === undefined ? {} : { messageId: body.message_id };
    return c.json(emulator.clickButton(userId, body.text, options));
  });

  app.post("/users/:userId/stickers", async (c) => {
    const userId = param(c, "userId", userIdSchema);
    const body = await jsonBody(c, mediaBodySchema, true);
    return c.json(
      emulator.sendSticker(userId, body.emoji === undefined ? {} : { emoji: body.emoji }),
    );
  });

  app.post("/users/:userId/photos", async (c) => {
    const userId = param(c, "userId", userIdSchema);
    const body = await jsonBody(c, mediaBodySchema, true);
    return c.json(
      emulator.sendPhoto(userId, body.caption === undefined ? {} : { caption: body.caption }),
    );
  });

  app.post("/groups/:groupId/messages", async (c) => {
    const groupId = param(c, "groupId", groupIdSchema);
    const body = await jsonBody(c, groupTextBodySchema);
    const options = body.title === undefined ? {} : { title: body.title };
    return c.json(emulator.sendGroupText(body.user_id, groupId, body.text, options));
  });

  app.get("/groups/:groupId/messages", (c) =>
    c.json({ messages: emulator.chat(param(c, "groupId", groupIdSchema)) }),
  );

  app.post("/updates/:updateId/redeliver", (c) =>
    c.json(emulator.redeliver(param(c, "updateId", z.coerce.number().int().positive()))),
  );

  app.get("/events", (c) => {
    const chatFilter = c.req.query("chat_id");
    const onlyChat =
      chatFilter === undefined
        ? undefined
        : param(c, "chat_id", z.coerce.number().int(), chatFilter);
    return streamSSE(c, async (stream) => {
      const queue: EmulatorEvent[] = [];
      let wake: (() => void) | undefined;
      let open = true;
      const finish = () => {
        open = false;
        wake?.();
      };
      const unsubscribe = eventTypes.map((type) =>
        emulator.on(type, (event) => {
          if (onlyChat !== undefined && event.chatId !== onlyChat) return;
          queue.push(event);
          wake?.();
        }),
      );
      closers.add(finish);
      stream.onAbort(finish);
      try {
        await stream.writeSSE({
          event: "ready",
          data: JSON.stringify({ chatId: onlyChat ?? null }),
        });
        while (open) {
          const event = queue.shift();
          if (event) {
            await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
            continue;
          }
          // Wait for the next event, with a comment every 15 s to keep proxies from timing out.
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 15_000);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
          if (open && queue.length === 0) await stream.write(": keep-alive\n\n");
        }
      } finally {
        for (const off of unsubscribe) off();
        closers.delete(finish);
      }
    });
  });

  app.get("/stats", (c) => c.json(emulator.stats()));
  app.get("/commands", (c) => c.json({ commands: emulator.allCommands() }));
  app.get("/calls", (c) => c.json({ calls: emulator.calls(c.req.query("method")) }));
  app.get("/callback-answers", (c) => c.json({ answers: emulator.callbackAnswers() }));
  app.get("/webhook", (c) => c.json(emulator.webhookInfo()));

  app.put("/limits", async (c) => {
    const body = await jsonBody(c, limitsBodySchema);
    core.setLimits(body.limits);
    return c.json({ ok: true });
  });

  app.post("/reset", (c) => {
    emulator.reset();
    return c.json({ ok: true });
  });

  app.all("*", (c) => c.json({ error: "no such control endpoint" }, 404));
  return app;
}

function param<S extends z.ZodType>(
  c: Context,
  name: string,
  schema: S,
  raw?: string,
): z.output<S> {
  const result = schema.safeParse(raw ?? c.req.param(name));
  if (!result.success) throw new HttpProblem(400, `invalid ${name}`, result.error.issues);
  return result.data;
}

/** Parses and validates a JSON body; `optional` lets an empty body stand for `{}`. */
async function jsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  optional = false,
): Promise<z.output<S>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== "" || !optional) {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpProblem(400, "body must be valid JSON");
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpProblem(400, "invalid body", result.error.issues);
  return result.data;
}
