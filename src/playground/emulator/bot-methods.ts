// The Bot API methods the emulator implements, answering as Telegram does, including the
// errors a bot must cope with on the real API: "message is not modified", "chat not found",
// "bot was blocked by the user", flood 429s with retry_after, malformed markup and keyboards.
// Methods it does not implement answer `true` and are counted as unknown in the statistics.
import type { BotCommand, InlineKeyboardButton, MessageEntity } from "grammy/types";
import {
  BotApiError,
  type BotApiResponse,
  badRequest,
  commandScopeKey,
  Described,
  format,
  type Handler,
  type Markup,
  type Params,
  parse,
  readMarkup,
  replyTarget,
  requireChatId,
  sameJson,
  schemas,
  takeFloodSlot,
  targetChat,
} from "./bot-checks.ts";
import type { EmulatorCore, StoredMessage } from "./core.ts";
import type { MessageKind } from "./types.ts";

// ---------------------------------------------------------------- messages

const mediaFields: Record<string, { kind: MessageKind; missing: string }> = {
  sendPhoto: { kind: "photo", missing: "there is no photo in the request" },
  sendDocument: { kind: "document", missing: "there is no document in the request" },
  sendSticker: { kind: "sticker", missing: "there is no sticker in the request" },
};

function sendMessage(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.sendMessage, params);
  requireChatId(p.chat_id);
  const raw = p.text ?? "";
  if (raw.trim() === "") throw badRequest("message text is empty");
  const chat = targetChat(core, p.chat_id);
  const formatted = format(raw, p.parse_mode, p.entities as MessageEntity[] | undefined);
  if (formatted.text.trim() === "") throw badRequest("message text is empty");
  if (formatted.text.length > 4096) throw badRequest("message is too long");
  const markup = readMarkup(p.reply_markup);
  const replyTo = replyTarget(chat, p);
  takeFloodSlot(core, chat);
  const message = core.addMessage(chat, {
    from: "bot",
    kind: "text",
    ...formatted,
    ...markup,
    ...(replyTo !== undefined && { replyTo }),
  });
  return core.messageAsTelegram(message);
}

function sendMedia(method: keyof typeof mediaFields): Handler {
  const { kind, missing } = mediaFields[method]!;
  return (core, params) => {
    const p = parse(schemas.sendMedia, params);
    requireChatId(p.chat_id);
    const input = params[kind];
    if (input === undefined || input === "") throw badRequest(missing);
    const chat = targetChat(core, p.chat_id);
    const formatted = format(
      p.caption ?? "",
      p.parse_mode,
      p.caption_entities as MessageEntity[] | undefined,
    );
    if (formatted.text.length > 1024) throw badRequest("message caption is too long");
    const markup = readMarkup(p.reply_markup);
    const replyTo = replyTarget(chat, p);
    takeFloodSlot(core, chat);
    const ids =
      typeof input === "string" && !/^https?:\/\//.test(input)
        ? { file_id: input, file_unique_id: `U${input.slice(0, 16)}` }
        : core.nextFileId(kind === "photo" ? "AgAC" : kind === "sticker" ? "CAAC" : "BQAC");
    const emoji = kind === "sticker" ? (p.emoji ?? "👍") : undefined;
    const message = core.addMessage(chat, {
      from: "bot",
      kind,
      ...formatted,
      ...markup,
      media: mediaShape(kind, ids, input, emoji),
      ...(emoji !== undefined && { emoji }),
      ...(replyTo !== undefined && { replyTo }),
    });
    return core.messageAsTelegram(message);
  };
}

/** Minimal valid Telegram shapes for the media a message may carry. */
export function mediaShape(
  kind: MessageKind,
  ids: { file_id: string; file_unique_id: string },
  input?: unknown,
  emoji?: string,
): Record<string, unknown> {
  switch (kind) {
    case "photo":
      return {
        photo: [
          { ...ids, file_id: `${ids.file_id}s`, width: 90, height: 90, file_size: 1_200 },
          { ...ids, width: 800, height: 800, file_size: 48_000 },
        ],
      };
    case "sticker":
      return {
        sticker: {
          ...ids,
          type: "regular",
          width: 512,
          height: 512,
          is_animated: false,
          is_video: false,
          emoji: emoji ?? "👍",
        },
      };
    case "document": {
      const name =
        typeof input === "object" && input !== null && "filename" in input
          ? String(input.filename)
          : "file.dat";
      return { document: { ...ids, file_name: name } };
    }
    default:
      return {};
  }
}

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

function editMessageContent(field: "text" | "caption"): Handler {
  return (core, params) => {
    const p = parse(schemas.editText, params);
    const raw = (field === "text" ? p.text : p.caption) ?? "";
    if (field === "text" && raw.trim() === "") throw badRequest("message text is empty");
    const message = editTarget(core, p);
    if (field === "text" && message.kind !== "text") {
      throw badRequest("there is no text in the message to edit");
    }
    if (field === "caption" && message.kind === "text") {
      throw badRequest("there is no caption in the message to edit");
    }
    const entities = (field === "text" ? p.entities : p.caption_entities) as
      | MessageEntity[]
      | undefined;
    const formatted = format(raw, p.parse_mode, entities);
    if (formatted.text.length > (field === "text" ? 4096 : 1024)) {
      throw badRequest(field === "text" ? "message is too long" : "message caption is too long");
    }
    // Without reply_markup Telegram removes the message's inline keyboard.
    const inline = inlineOnly(readMarkup(p.reply_markup));
    if (
      formatted.text === message.text &&
      sameJson(
        formatted.entities?.length ? formatted.entities : undefined,
        message.entities?.length ? message.entities : undefined,
      ) &&
      sameJson(inline, message.inlineMarkup)
    ) {
      throw notModified();
    }
    takeFloodSlot(core, core.chats.get(message.chatId)!);
    message.text = formatted.text;
    message.entities = formatted.entities;
    message.parseMode = formatted.parseMode;
    message.inlineMarkup = inline;
    core.markEdited(message);
    return core.messageAsTelegram(message);
  };
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

function deleteMessages(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.messageRef, params);
  const chat = targetChat(core, p.chat_id);
  const ids = p.message_ids ?? [];
  if (ids.length < 1 || ids.length > 100) throw badRequest("message_ids must contain 1-100 ids");
  for (const id of ids) {
    const message = chat.byId.get(id);
    if (message && !message.deleted && (chat.type === "private" || message.from === "bot")) {
      core.markDeleted(message);
    }
  }
  return true;
}

// ---------------------------------------------------------------- other chat methods

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

function getChat(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.chat, params);
  const chat = core.resolveChat(requireChatId(p.chat_id));
  if (!chat) throw badRequest("chat not found");
  return {
    ...core.chatAsTelegram(chat),
    accent_color_id: 0,
    max_reaction_count: 11,
    accepted_gift_types: {
      unlimited_gifts: false,
      limited_gifts: false,
      unique_gifts: false,
      premium_subscription: false,
      gifts_from_channels: false,
    },
  };
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

function getMyCommands(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.commandScope, params);
  return core.commands.get(commandScopeKey(p.scope, p.language_code)) ?? [];
}

function deleteMyCommands(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.commandScope, params);
  core.commands.delete(commandScopeKey(p.scope, p.language_code));
  core.changed(undefined);
  return true;
}

function setChatMenuButton(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.menuButton, params);
  const button = p.menu_button ?? { type: "default" };
  if (!["commands", "web_app", "default"].includes(button.type)) {
    throw badRequest("unsupported menu button type");
  }
  if (p.chat_id !== undefined && !core.chats.has(p.chat_id)) throw badRequest("chat not found");
  core.menuButtons.set(p.chat_id === undefined ? "default" : String(p.chat_id), button);
  return true;
}

function getChatMenuButton(core: EmulatorCore, params: Params): unknown {
  const p = parse(schemas.menuButton, params);
  const key = p.chat_id === undefined ? "default" : String(p.chat_id);
  return core.menuButtons.get(key) ?? core.menuButtons.get("default") ?? { type: "commands" };
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

function getWebhookInfo(core: EmulatorCore): unknown {
  const status = core.webhook.status();
  return {
    url: status.config?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: core.queue.pendingCount,
    ...(status.config && { max_connections: status.config.maxConnections }),
    ...(status.lastErrorDate !== undefined && { last_error_date: status.lastErrorDate }),
    ...(status.lastErrorMessage !== undefined && { last_error_message: status.lastErrorMessage }),
  };
}

// ---------------------------------------------------------------- dispatch

const handlers: Record<string, Handler> = {
  getMe: (core) => core.botUser,
  logOut: () => true,
  close: () => true,
  getUpdates,
  setWebhook,
  deleteWebhook,
  getWebhookInfo,
  sendMessage,
  sendPhoto: sendMedia("sendPhoto"),
  sendDocument: sendMedia("sendDocument"),
  sendSticker: sendMedia("sendSticker"),
  editMessageText: editMessageContent("text"),
  editMessageCaption: editMessageContent("caption"),
  editMessageReplyMarkup,
  deleteMessage,
  deleteMessages,
  answerCallbackQuery,
  sendChatAction,
  getChat,
  setMyCommands,
  getMyCommands,
  deleteMyCommands,
  setChatMenuButton,
  getChatMenuButton,
};

// Telegram matches method names case-insensitively.
const handlersByLowerName = new Map(
  Object.entries(handlers).map(([name, handler]) => [name.toLowerCase(), { name, handler }]),
);

export const implementedMethods: readonly string[] = Object.keys(handlers);

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
    const result = found ? await found.handler(core, params, signal) : true;
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
