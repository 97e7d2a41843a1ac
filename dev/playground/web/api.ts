/*
 * The playground's JSON API, mounted at /playground/api: the one HTTP control API of the Bot API
 * emulator (in process, tests drive the emulator object itself). The chat page uses it, and so can
 * tests and scripts: every request is plain JSON over HTTP. Errors answer `{ "error": "...",
 * "issues"?: [...] }` with 400 (malformed or impossible request: bad JSON, wrong fields, a button
 * the message does not have) or 404 (no such endpoint); a malformed request never gets a 5xx.
 *
 *   GET  /users                        -> {bot: {name, username}, users: [{id, name, role, label,
 *                                         commands: [{command, description}]}]}
 *   GET  /users/:userId/messages       -> {user, messages: MessageView[], typing: string | null,
 *                                         reply_keyboard: string[][] | null}
 *   POST /users/:userId/messages       {text}               -> {message_id, update_id}
 *   POST /users/:userId/contact        {phone_number?}      -> {message_id, update_id}: the user
 *                                         shares their own contact (a request_contact button);
 *                                         the phone defaults to the demo one (+977 98000 and the id)
 *   POST /users/:userId/callbacks      {message_id, data}   -> {message_id, update_id,
 *                                         callback_query_id}; 400 unless that bot message now has
 *                                         an inline button carrying `data`
 *   GET  /events[?user_id=N]           server-sent events: `ready` once, then `message`
 *                                         {user_id, message, reply_keyboard}, `edit`
 *                                         {user_id, message}, `delete` {user_id, message_id},
 *                                         `typing` {user_id, action}, `callback_answer`
 *                                         {user_id, message_id, text, show_alert}
 *   /whatsapp/...                      the WhatsApp customers, played through the stand-in:
 *                                         ./whatsapp.ts lists its routes
 *   GET  /sandbox                      -> {enabled: false} | {enabled: true, balance_paisa, balance,
 *                                         deliveries: DeliveryView[] (newest first)}
 *   GET  /books                        -> {enabled: false} | {enabled: true, users: [{id, name, role,
 *                                         phone, available_paisa, available, held}], journal:
 *                                         [{time, id, kind, debit, credit, amount, reason}] (newest
 *                                         first)}: the merchant's books of the running product
 *
 * Every route checks Host and Origin, and a POST wants Content-Type: application/json (403 and 415
 * otherwise; ./guard.ts says why).
 *
 * A MessageView is {id, from: "bot"|"user", kind, text, entities?, inline_keyboard: [[{text,
 * callback_data?, url?}]] | null, reply_keyboard?, remove_keyboard?, emoji?, edited, time (ISO),
 * edited_time?}. A DeliveryView is {id, kind, time, order_id, transaction_id, status, state,
 * http_status, error, attempts, duplicate}.
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { streamSSE } from "hono/streaming";
import type { SandboxControl } from "../../sandbox/index.ts";
import type { WhatsAppStandIn } from "../../whatsapp/index.ts";
import { type BotApiEmulator, EmulatorError, type EmulatorEventType } from "../emulator/index.ts";
import { type PlaygroundGuardOptions, playgroundGuard } from "./guard.ts";
import { BadRequest, jsonBody, parse } from "./http.ts";
import {
  type BooksSource,
  booksView,
  type CommandView,
  liveEvent,
  messageView,
  type PlaygroundUser,
  playgroundPhone,
  pressCallbackBody,
  sandboxView,
  sendMessageBody,
  shareContactBody,
  userIdParam,
} from "./views.ts";
import { mountWhatsApp } from "./whatsapp.ts";

export interface PlaygroundApiOptions {
  emulator: BotApiEmulator;
  sandbox: SandboxControl | undefined;
  sandboxToken: string;
  users: PlaygroundUser[];
  deliveriesShown: number;
  /** The product's books, once the product is wired (absent before, and in tests without). */
  books?: () => BooksSource | undefined;
  /** Which Host values beside the own loopback ones are accepted (./guard.ts). */
  guard?: PlaygroundGuardOptions;
  /** The WhatsApp Cloud API stand-in whose customers the page plays (./whatsapp.ts). */
  whatsapp?: WhatsAppStandIn | undefined;
}

const EVENT_TYPES: EmulatorEventType[] = ["message", "edit", "delete", "typing", "callback_answer"];
const KEEP_ALIVE_MS = 15_000;

export function createPlaygroundApi(opts: PlaygroundApiOptions): Hono {
  const { emulator } = opts;
  const demo = new Map(opts.users.map((u) => [u.id, u]));

  /** Demo users get their names before they first write (the bot greets them by name). */
  function ensureUser(userId: number): void {
    const known = demo.get(userId);
    if (known && !emulator.users.get(userId)) {
      emulator.users.upsert(userId, { first_name: known.name, language_code: "en" });
    }
  }
  for (const u of opts.users) ensureUser(u.id);

  function describeUser(userId: number): PlaygroundUser {
    const known = demo.get(userId);
    if (known) return known;
    const name = emulator.users.get(userId)?.first_name ?? `User ${userId}`;
    return { id: userId, name, role: "customer", label: "Customer" };
  }

  /** The command menu this user's chat shows: their chat scope first, then the defaults. */
  function commandsFor(userId: number): CommandView[] {
    const list =
      emulator.commands({ scope: { type: "chat", chat_id: userId } }) ??
      emulator.commands({ scope: { type: "all_private_chats" } }) ??
      emulator.commands() ??
      [];
    return list.map((c) => ({ command: c.command, description: c.description }));
  }

  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof BadRequest) {
      return c.json(
        { error: error.message, ...(error.issues ? { issues: error.issues } : {}) },
        400,
      );
    }
    if (error instanceof EmulatorError) return c.json({ error: error.message }, 400);
    throw error;
  });

  app.use("*", playgroundGuard(opts.guard));
  app.use(
    "*",
    bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json({ error: "body too large" }, 413) }),
  );

  app.get("/users", (c) =>
    c.json({
      bot: { name: emulator.botUser.first_name, username: emulator.botUser.username },
      users: opts.users.map((u) => ({ ...u, commands: commandsFor(u.id) })),
    }),
  );

  app.get("/users/:userId/messages", (c) => {
    const userId = userIdOf(c);
    return c.json({
      user: describeUser(userId),
      messages: emulator.chat(userId).map(messageView),
      typing: emulator.typing(userId)?.action ?? null,
      reply_keyboard: emulator.replyKeyboard(userId) ?? null,
      contact_buttons: emulator.contactButtons(userId),
    });
  });

  app.post("/users/:userId/messages", async (c) => {
    const userId = userIdOf(c);
    const body = await jsonBody(c, sendMessageBody);
    ensureUser(userId);
    const sent = emulator.sendText(userId, body.text);
    return c.json({ message_id: sent.message_id, update_id: sent.update_id });
  });

  app.post("/users/:userId/contact", async (c) => {
    const userId = userIdOf(c);
    const body = await jsonBody(c, shareContactBody);
    ensureUser(userId);
    const phone = body.phone_number ?? `+${playgroundPhone(userId)}`;
    const sent = emulator.sendContact(userId, { phoneNumber: phone });
    return c.json({ message_id: sent.message_id, update_id: sent.update_id });
  });

  app.post("/users/:userId/callbacks", async (c) => {
    const userId = userIdOf(c);
    const body = await jsonBody(c, pressCallbackBody);
    ensureUser(userId);
    const sent = emulator.pressButton(userId, body.message_id, body.data);
    return c.json({
      message_id: sent.message_id,
      update_id: sent.update_id,
      callback_query_id: sent.callback_query_id,
    });
  });

  mountWhatsApp(app, opts.whatsapp);

  app.get("/sandbox", (c) => {
    const { sandbox } = opts;
    if (!sandbox?.tokens().includes(opts.sandboxToken)) return c.json({ enabled: false });
    return c.json(
      sandboxView(
        sandbox.balance(opts.sandboxToken),
        sandbox.deliveries(opts.sandboxToken),
        opts.deliveriesShown,
      ),
    );
  });

  app.get("/books", async (c) => {
    const source = opts.books?.();
    if (!source) return c.json({ enabled: false });
    return c.json(await booksView(source, opts.users, 12));
  });

  app.get("/events", (c) => {
    const raw = c.req.query("user_id");
    const only = raw === undefined ? undefined : parse(userIdParam, raw, "invalid user_id");
    return streamSSE(c, async (stream) => {
      const queue: { type: string; data: Record<string, unknown> }[] = [];
      let wake: (() => void) | undefined;
      let open = true;
      const unsubscribe = EVENT_TYPES.map((type) =>
        emulator.on(type, (event) => {
          if (only !== undefined && event.chatId !== only) return;
          const live = liveEvent(
            event,
            (id) => emulator.replyKeyboard(id),
            (id) => emulator.contactButtons(id),
          );
          if (!live) return;
          queue.push(live);
          wake?.();
        }),
      );
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: "ready", data: JSON.stringify({ user_id: only ?? null }) });
        while (open) {
          const next = queue.shift();
          if (next) {
            await stream.writeSSE({ event: next.type, data: JSON.stringify(next.data) });
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, KEEP_ALIVE_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
          // A comment now and then keeps proxies from closing an idle stream.
          if (open && queue.length === 0) await stream.write(": keep-alive\n\n");
        }
      } finally {
        for (const off of unsubscribe) off();
      }
    });
  });

  app.all("*", (c) => c.json({ error: "no such playground endpoint" }, 404));
  return app;
}

function userIdOf(c: Context): number {
  return parse(userIdParam, c.req.param("userId"), "invalid user id");
}
