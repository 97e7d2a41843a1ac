// What every Bot API method shares: Telegram's error envelope, lenient parameter schemas
// (query strings carry strings, JSON bodies numbers), and the checks Telegram makes before it
// accepts a message: the chat exists and has not blocked the bot, the keyboard is valid, the
// flood limits allow it.
import type { InlineKeyboardButton } from "grammy/types";
import { z } from "zod";
import type { ChatRecord, EmulatorCore } from "./core.ts";

export class BotApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number },
  ) {
    super(description);
  }
}

/** A successful answer that also carries Telegram's `description` (setWebhook does). */
export class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

export type BotApiResponse =
  | { ok: true; result: unknown; description?: string }
  | {
      ok: false;
      error_code: number;
      description: string;
      parameters?: { retry_after?: number };
    };

export type Params = Record<string, unknown>;
export type Handler = (core: EmulatorCore, params: Params, signal?: AbortSignal) => unknown;

export const badRequest = (what: string) => new BotApiError(400, `Bad Request: ${what}`);
const forbidden = (what: string) => new BotApiError(403, `Forbidden: ${what}`);

// ---------------------------------------------------------------- parameter schemas
// A query string carries every value as a string, a JSON body numbers and booleans: accept both,
// as Telegram does.

const int = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);
const bool = z.union([
  z.boolean(),
  z
    .enum(["true", "false", "1", "0", "True", "False"])
    .transform((v) => v.toLowerCase() === "true" || v === "1"),
]);
const chatIdParam = z.union([int, z.string().regex(/^@\w+$/)]);
const text = z.union([z.string(), z.number().transform(String)]);

const inlineButtonSchema = z.looseObject({ text: z.string() });
const replyMarkupSchema = z.union([
  z.looseObject({ inline_keyboard: z.array(z.array(inlineButtonSchema)) }),
  z.looseObject({
    keyboard: z.array(z.array(z.union([z.string(), z.looseObject({ text: z.string() })]))),
    one_time_keyboard: bool.optional(),
  }),
  z.looseObject({ remove_keyboard: z.literal(true) }),
  z.looseObject({ force_reply: z.literal(true) }),
]);
// The bot sends plain text; formatted text (parse_mode, entities) is refused rather than shown
// wrong, so a bot that starts formatting notices at once that the emulator does not parse it.
const plainText = {
  parse_mode: z.undefined("formatted text (parse_mode) is not emulated").optional(),
  entities: z.undefined("formatted text (entities) is not emulated").optional(),
};

export const schemas = {
  sendMessage: z.looseObject({
    chat_id: chatIdParam.optional(),
    text: text.optional(),
    reply_markup: replyMarkupSchema.optional(),
    ...plainText,
  }),
  sendDocument: z.looseObject({
    chat_id: chatIdParam.optional(),
    /** An uploaded file (multipart), or a file_id sent before. */
    document: z
      .union([z.object({ filename: z.string(), bytes: z.instanceof(Uint8Array) }), z.string()])
      .optional(),
    caption: text.optional(),
    reply_markup: replyMarkupSchema.optional(),
    ...plainText,
  }),
  editText: z.looseObject({
    chat_id: chatIdParam.optional(),
    message_id: int.optional(),
    inline_message_id: z.string().optional(),
    text: text.optional(),
    reply_markup: replyMarkupSchema.optional(),
    ...plainText,
  }),
  messageRef: z.looseObject({
    chat_id: chatIdParam.optional(),
    message_id: int.optional(),
  }),
  answerCallbackQuery: z.looseObject({
    callback_query_id: text.optional(),
    text: z.string().optional(),
    show_alert: bool.optional(),
    url: z.string().optional(),
  }),
  sendChatAction: z.looseObject({ chat_id: chatIdParam.optional(), action: z.string().optional() }),
  commandScope: z.looseObject({
    scope: z
      .looseObject({
        type: z.string(),
        chat_id: chatIdParam.optional(),
        user_id: int.optional(),
      })
      .optional(),
    language_code: z.string().optional(),
    commands: z.array(z.looseObject({ command: z.string(), description: z.string() })).optional(),
  }),
  getUpdates: z.looseObject({
    offset: int.optional(),
    limit: int.optional(),
    timeout: int.optional(),
  }),
  setWebhook: z.looseObject({
    url: z.string().optional(),
    secret_token: z.string().optional(),
    max_connections: int.optional(),
    drop_pending_updates: bool.optional(),
  }),
  deleteWebhook: z.looseObject({ drop_pending_updates: bool.optional() }),
};

export function parse<S extends z.ZodType>(schema: S, params: Params): z.output<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".") || "parameters";
  throw badRequest(`invalid ${field}: ${issue?.message ?? "malformed"}`);
}

// ---------------------------------------------------------------- shared checks

export function requireChatId(chatId: number | string | undefined): number | string {
  if (chatId === undefined || chatId === "") throw badRequest("chat_id is empty");
  return chatId;
}

/** The chat a call aims at, refusing what Telegram refuses. */
export function targetChat(core: EmulatorCore, chatId: number | string | undefined): ChatRecord {
  const chat = core.resolveChat(requireChatId(chatId));
  if (!chat) throw badRequest("chat not found");
  if (chat.type === "private") {
    const user = core.users.get(chat.id);
    if (user?.blocked) throw forbidden("bot was blocked by the user");
    if (user && !user.started) throw forbidden("bot can't initiate conversation with a user");
  }
  return chat;
}

export interface Markup {
  inlineMarkup?: InlineKeyboardButton[][];
  replyKeyboard?: string[][];
  /** Labels of the reply keyboard's request_contact buttons (they share the user's contact). */
  contactLabels?: string[];
  oneTimeKeyboard?: true;
  removeKeyboard?: true;
}

const inlineActions = [
  "callback_data",
  "url",
  "web_app",
  "login_url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "callback_game",
  "pay",
];

export function readMarkup(markup: z.output<typeof replyMarkupSchema> | undefined): Markup {
  if (!markup) return {};
  if ("inline_keyboard" in markup) {
    const rows = markup.inline_keyboard as Record<string, unknown>[][];
    for (const row of rows) {
      for (const button of row) checkInlineButton(button);
    }
    return { inlineMarkup: rows as unknown as InlineKeyboardButton[][] };
  }
  if ("keyboard" in markup) {
    const keyboard = markup.keyboard as (string | { text: string; request_contact?: unknown })[][];
    const rows = keyboard.map((row) =>
      row.map((button) => (typeof button === "string" ? button : button.text)),
    );
    const contactLabels = keyboard
      .flat()
      .filter((b) => typeof b !== "string" && b.request_contact === true)
      .map((b) => (typeof b === "string" ? b : b.text));
    return {
      replyKeyboard: rows,
      ...(contactLabels.length ? { contactLabels } : {}),
      ...(markup.one_time_keyboard ? { oneTimeKeyboard: true as const } : {}),
    };
  }
  if ("remove_keyboard" in markup) return { removeKeyboard: true };
  return {};
}

function checkInlineButton(button: Record<string, unknown>): void {
  if (typeof button.text !== "string" || button.text.trim() === "") {
    throw badRequest("BUTTON_TEXT_INVALID");
  }
  const actions = inlineActions.filter((key) => button[key] !== undefined);
  if (actions.length === 0) throw badRequest("text buttons are unallowed in the inline keyboard");
  const data = button.callback_data;
  if (data !== undefined) {
    const bytes = typeof data === "string" ? Buffer.byteLength(data) : 0;
    if (bytes < 1 || bytes > 64) throw badRequest("BUTTON_DATA_INVALID");
  }
  const url = button.url;
  if (url !== undefined && (typeof url !== "string" || !/^(https?|tg):\/\/\S+$/i.test(url))) {
    throw badRequest(`inline keyboard button URL '${String(url)}' is invalid: Wrong HTTP URL`);
  }
}

/** Flood limits apply to everything that puts or changes a message in a chat. */
export function takeFloodSlot(core: EmulatorCore, chat: ChatRecord): void {
  const retryAfter = core.flood?.take(chat.id, chat.type === "group");
  if (retryAfter !== undefined) {
    throw new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, {
      retry_after: retryAfter,
    });
  }
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export function commandScopeKey(
  scope: z.output<typeof schemas.commandScope>["scope"],
  languageCode: string | undefined,
): string {
  const type = scope?.type ?? "default";
  const allowed = [
    "default",
    "all_private_chats",
    "all_group_chats",
    "all_chat_administrators",
    "chat",
    "chat_administrators",
    "chat_member",
  ];
  if (!allowed.includes(type)) throw badRequest("wrong scope type specified");
  let key = type;
  if (type === "chat" || type === "chat_administrators" || type === "chat_member") {
    if (scope?.chat_id === undefined) throw badRequest("chat_id is empty");
    key += `:${scope.chat_id}`;
  }
  if (type === "chat_member") {
    if (scope?.user_id === undefined) throw badRequest("user_id is empty");
    key += `:${scope.user_id}`;
  }
  if (languageCode) {
    if (!/^[a-z]{2}$/.test(languageCode)) throw badRequest("invalid language code specified");
    key += `|${languageCode}`;
  }
  return key;
}
