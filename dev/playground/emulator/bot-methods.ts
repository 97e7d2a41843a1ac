// The Bot API methods the bot, grammY and the notifier call, answering as Telegram does,
// including the errors a bot must cope with on the real API: "message is not modified", "chat
// not found", "bot was blocked by the user", flood 429s with retry_after, malformed keyboards.
// Any other method answers 404, as Telegram answers a method it does not know.
import type { BotCommand, InlineKeyboardButton } from "grammy/types";
import {
  BotApiError,
  type BotApiResponse,
  badRequest,
  commandScopeKey,
  Described,
  type Handler,
  type Markup,
  type Params,
  parse,
  readMarkup,
  requireChatId,
  sameJson,
  schemas,
  takeFloodSlot,
  targetChat,
} from "./bot-checks.ts";
import { mediaHandlers } from "./bot-media.ts";
import { profileHandlers } from "./bot-profile.ts";
import type { EmulatorCore, StoredMessage } from "./core.ts";

// ---------------------------------------------------------------- messages

function sendMessage(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.sendMessage, params);
  requireChatId(p.chat_id);
  const text = p.text ?? "";
  if (text.trim() === "") throw badRequest("message text is empty");
  const chat = targetChat(core, p.chat_id);
  if (text.length > 4096) throw badRequest("message is too long");
  const markup = readMarkup(p.reply_markup);
  takeFloodSlot(core, chat);
  const message = core.addMessage(chat, { from: "bot", kind: "text", text, ...markup });
  return core.messageAsTelegram(message);
}

/** Telegram's limit for a file a bot uploads (50 MB), and a caption's (1024 characters). */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** A document the bot uploads: kept with the message, so a test reads what the customer got. */
function sendDocument(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.sendDocument, params);
  requireChatId(p.chat_id);
  const chat = targetChat(core, p.chat_id);
  if (p.document === undefined) throw badRequest("there is no document in the request");
  const file =
    typeof p.document === "string" ? core.fileById(p.document) : (p.document ?? undefined);
  if (!file) throw badRequest("wrong file identifier/HTTP URL specified");
  if (file.bytes.length === 0) throw badRequest("file must be non-empty");
  if (file.bytes.length > MAX_UPLOAD_BYTES) throw badRequest("file is too big");
  const caption = p.caption ?? "";
  if (caption.length > 1024) throw badRequest("message caption is too long");
  const markup = readMarkup(p.reply_markup);
  takeFloodSlot(core, chat);
  const fileId = core.keepFile(file);
  const message = core.addMessage(chat, {
    from: "bot",
    kind: "document",
    text: caption,
    document: { fileName: file.filename, bytes: file.bytes },
    media: {
      document: {
        file_id: fileId,
        file_unique_id: fileId.slice(-16),
        file_name: file.filename,
        mime_type: mimeOf(file.filename),
        file_size: file.bytes.length,
      },
    },
    ...markup,
  });
  return core.messageAsTelegram(message);
}

const mimeOf = (name: string) =>
  name.endsWith(".pdf")
    ? "application/pdf"
    : name.endsWith(".png")
      ? "image/png"
      : "application/octet-stream";

/** The message an edit aims at, refusing what Telegram refuses. */
function editTarget(
  core: EmulatorCore,
  p: { chat_id?: number | string; message_id?: number; inline_message_id?: string },
): StoredMessage {
  // Inline mode is not emulated, so no inline message can exist.
  if (p.inline_message_id !== undefined) throw badRequest("message to edit not found");
  requireChatId(p.chat_id);
  if (p.message_id === undefined) throw badRequest("message identifier is not specified");
  const chat = targetChat(core, p.chat_id);
  const message = chat.byId.get(p.message_id);
  if (!message || message.deleted) throw badRequest("message to edit not found");
  if (message.from !== "bot") throw badRequest("message can't be edited");
  return message;
}

function inlineOnly(markup: Markup): InlineKeyboardButton[][] | undefined {
  if (markup.replyKeyboard || markup.removeKeyboard) throw badRequest("inline keyboard expected");
  return markup.inlineMarkup;
}

const notModified = () =>
  badRequest(
    "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
  );

function editMessageText(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.editText, params);
  const text = p.text ?? "";
  if (text.trim() === "") throw badRequest("message text is empty");
  const message = editTarget(core, p);
  if (text.length > 4096) throw badRequest("message is too long");
  // Without reply_markup Telegram removes the message's inline keyboard.
  const inline = inlineOnly(readMarkup(p.reply_markup));
  if (text === message.text && sameJson(inline, message.inlineMarkup)) throw notModified();
  takeFloodSlot(core, core.chats.get(message.chatId)!);
  message.text = text;
  message.inlineMarkup = inline;
  core.markEdited(message);
  return core.messageAsTelegram(message);
}

function editMessageReplyMarkup(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.editText, params);
  const message = editTarget(core, p);
  const inline = inlineOnly(readMarkup(p.reply_markup));
  if (sameJson(inline, message.inlineMarkup)) throw notModified();
  takeFloodSlot(core, core.chats.get(message.chatId)!);
  message.inlineMarkup = inline;
  core.markEdited(message);
  return core.messageAsTelegram(message);
}

function deleteMessage(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.messageRef, params);
  requireChatId(p.chat_id);
  if (p.message_id === undefined) throw badRequest("message identifier is not specified");
  const chat = targetChat(core, p.chat_id);
  const message = chat.byId.get(p.message_id);
  if (!message || message.deleted) throw badRequest("message to delete not found");
  // Without admin rights a bot may delete only its own messages in a group.
  if (chat.type === "group" && message.from !== "bot") throw badRequest("message can't be deleted");
  core.markDeleted(message);
  return true;
}

// ---------------------------------------------------------------- other methods

function answerCallbackQuery(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.answerCallbackQuery, params);
  const id = p.callback_query_id;
  const pending = id === undefined ? undefined : core.callbackQueries.get(id);
  if (id === undefined || !pending || pending.answered) {
    throw badRequest("query is too old and response timeout expired or query ID is invalid");
  }
  if (p.text !== undefined && p.text.length > 200) throw badRequest("MESSAGE_TOO_LONG");
  pending.answered = true;
  const answer = {
    callback_query_id: id,
    chat_id: pending.chatId,
    message_id: pending.messageId,
    data: pending.data,
    show_alert: p.show_alert ?? false,
    at: core.now,
    ...(p.text !== undefined && { text: p.text }),
    ...(p.url !== undefined && { url: p.url }),
  };
  core.callbackAnswers.push(answer);
  core.emit({ type: "callback_answer", chatId: pending.chatId, answer });
  return true;
}

const chatActions = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

function sendChatAction(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.sendChatAction, params);
  requireChatId(p.chat_id);
  if (p.action === undefined || !chatActions.has(p.action)) {
    throw badRequest("wrong parameter action in request");
  }
  core.setTyping(targetChat(core, p.chat_id), p.action);
  return true;
}

function setMyCommands(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.commandScope, params);
  if (p.commands === undefined) throw badRequest('parameter "commands" is required');
  if (p.commands.length > 100) throw badRequest("too many commands");
  const commands: BotCommand[] = p.commands.map(({ command, description }) => {
    if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest("BOT_COMMAND_INVALID");
    if (description.trim().length < 1 || description.length > 256) {
      throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
    }
    return { command, description };
  });
  const key = commandScopeKey(p.scope, p.language_code);
  if (commands.length === 0) core.commands.delete(key);
  else core.commands.set(key, commands);
  core.changed(undefined);
  return true;
}

// ---------------------------------------------------------------- updates and webhook

async function getUpdates(core: EmulatorCore, params: Params, signal?: AbortSignal) {
  const p = parse(schemas.getUpdates, params);
  if (core.webhook.active) {
    throw new BotApiError(
      409,
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
  }
  const limit = Math.min(100, Math.max(1, p.limit ?? 100));
  const timeout = Math.min(60, Math.max(0, p.timeout ?? 0));
  const outcome = await core.queue.poll(p.offset, limit, timeout, signal);
  if ("conflict" in outcome) {
    throw new BotApiError(
      409,
      "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    );
  }
  core.stats.updatesReturned += outcome.updates.length;
  return outcome.updates;
}

function setWebhook(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.setWebhook, params);
  if (p.drop_pending_updates) core.queue.dropPending();
  const url = p.url ?? "";
  if (url === "") {
    const had = core.webhook.active;
    core.webhook.unset();
    return new Described(true, had ? "Webhook was deleted" : "Webhook is already deleted");
  }
  // Telegram insists on HTTPS; the emulator serves loopback, so plain HTTP is allowed too.
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw badRequest("bad webhook: invalid webhook URL specified");
  }
  if (p.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(p.secret_token)) {
    throw badRequest("secret token contains unallowed characters");
  }
  const maxConnections = p.max_connections ?? 40;
  if (maxConnections < 1 || maxConnections > 100) {
    throw badRequest("bad webhook: max_connections must be between 1 and 100");
  }
  core.queue.releasePoller();
  core.webhook.set({
    url,
    maxConnections,
    ...(p.secret_token !== undefined && { secretToken: p.secret_token }),
  });
  return new Described(true, "Webhook was set");
}

function deleteWebhook(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.deleteWebhook, params);
  if (p.drop_pending_updates) core.queue.dropPending();
  const had = core.webhook.active;
  core.webhook.unset();
  return new Described(true, had ? "Webhook was deleted" : "Webhook is already deleted");
}

// ---------------------------------------------------------------- dispatch

const handlers: Record<string, Handler> = {
  getMe: (core) => core.botUser,
  getUpdates,
  setWebhook,
  deleteWebhook,
  sendMessage,
  sendDocument,
  editMessageText,
  editMessageReplyMarkup,
  deleteMessage,
  answerCallbackQuery,
  sendChatAction,
  setMyCommands,
  ...profileHandlers,
  ...mediaHandlers,
};

// Telegram matches method names case-insensitively.
const handlersByLowerName = new Map(
  Object.entries(handlers).map(([name, handler]) => [name.toLowerCase(), { name, handler }]),
);

/** Runs one Bot API call and answers with Telegram's envelope and HTTP status. */
export async function dispatch(
  core: EmulatorCore,
  method: string,
  params: Params,
  signal?: AbortSignal,
): Promise<{ status: number; body: BotApiResponse }> {
  const found = handlersByLowerName.get(method.toLowerCase());
  const name = found?.name ?? method;
  const at = core.now;
  core.beginCall(name, found !== undefined);
  let outcome: { status: number; body: BotApiResponse };
  try {
    // Telegram's answer to a method it does not know; here also to one the bot does not use.
    if (!found) throw new BotApiError(404, "Not Found");
    const result = await found.handler(core, params, signal);
    outcome = {
      status: 200,
      body:
        result instanceof Described
          ? { ok: true, result: result.result, description: result.description }
          : { ok: true, result },
    };
  } catch (error) {
    const apiError =
      error instanceof BotApiError ? error : new BotApiError(500, "Internal Server Error");
    outcome = {
      status: apiError.code,
      body: {
        ok: false,
        error_code: apiError.code,
        description: apiError.description,
        ...(apiError.parameters && { parameters: apiError.parameters }),
      },
    };
  }
  const body = outcome.body;
  core.endCall(
    body.ok
      ? { method: name, params, at, ok: true }
      : {
          method: name,
          params,
          at,
          ok: false,
          error_code: body.error_code,
          description: body.description,
        },
  );
  return outcome;
}
