// What every Bot API method shares: Telegram's error envelope, lenient parameter schemas
// (form submissions carry strings, JSON bodies numbers), and the checks Telegram makes before
// it accepts a message: the chat exists and has not blocked the bot, the markup parses, the
// keyboard is valid, the reply target exists, the flood limits allow it.
import type { InlineKeyboardButton, MessageEntity } from "grammy/types";
import { z } from "zod";
import type { ChatRecord, EmulatorCore } from "./core.ts";
import { EntityParseError, normaliseParseMode, parseFormattedText } from "./formatting.ts";

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
export const forbidden = (what: string) => new BotApiError(403, `Forbidden: ${what}`);

// ---------------------------------------------------------------- parameter schemas
// Form submissions carry every value as a string, JSON bodies carry numbers and booleans:
// accept both, as Telegram does.

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
const replyParametersSchema = z.looseObject({
  message_id: int,
  allow_sending_without_reply: bool.optional(),
});

const sendCommon = {
  chat_id: chatIdParam.optional(),
  parse_mode: z.string().optional(),
  reply_markup: replyMarkupSchema.optional(),
  reply_parameters: replyParametersSchema.optional(),
  reply_to_message_id: int.optional(),
  allow_sending_without_reply: bool.optional(),
};

export const schemas = {
  sendMessage: z.looseObject({
    ...sendCommon,
    text: text.optional(),
    entities: z.array(z.looseObject({ type: z.string() })).optional(),
  }),
  sendMedia: z.looseObject({
    ...sendCommon,
    caption: text.optional(),
    caption_entities: z.array(z.looseObject({ type: z.string() })).optional(),
    emoji: z.string().optional(),
  }),
  editText: z.looseObject({
    chat_id: chatIdParam.optional(),
    message_id: int.optional(),
    inline_message_id: z.string().optional(),
    text: text.optional(),
    caption: text.optional(),
    parse_mode: z.string().optional(),
    entities: z.array(z.looseObject({ type: z.string() })).optional(),
    caption_entities: z.array(z.looseObject({ type: z.string() })).optional(),
    reply_markup: replyMarkupSchema.optional(),
  }),
  messageRef: z.looseObject({
    chat_id: chatIdParam.optional(),
    message_id: int.optional(),
    message_ids: z.array(int).optional(),
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
  menuButton: z.looseObject({
    chat_id: int.optional(),
    menu_button: z.looseObject({ type: z.string() }).optional(),
  }),
  chat: z.looseObject({ chat_id: chatIdParam.optional() }),
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

export function format(
  raw: string,
  parseMode: string | undefined,
  entities: MessageEntity[] | undefined,
): { text: string; entities?: MessageEntity[]; parseMode?: string } {
  if (parseMode === undefined || parseMode === "") return { text: raw, entities };
  const mode = normaliseParseMode(parseMode);
  if (!mode) throw badRequest("unsupported parse_mode");
  try {
    const parsed = parseFormattedText(raw, mode);
    return { text: parsed.text, entities: parsed.entities, parseMode: mode };
  } catch (error) {
    if (error instanceof EntityParseError) {
      throw badRequest(`can't parse entities: ${error.message}`);
    }
    throw error;
  }
}

export interface Markup {
  inlineMarkup?: InlineKeyboardButton[][];
  replyKeyboard?: string[][];
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
    const keyboard = markup.keyboard as (string | { text: string })[][];
    const rows = keyboard.map((row) =>
      row.map((button) => (typeof button === "string" ? button : button.text)),
    );
    return markup.one_time_keyboard
      ? { replyKeyboard: rows, oneTimeKeyboard: true }
      : { replyKeyboard: rows };
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

export function replyTarget(
  chat: ChatRecord,
  params: {
    reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
    reply_to_message_id?: number;
    allow_sending_without_reply?: boolean;
  },
): number | undefined {
  const id = params.reply_parameters?.message_id ?? params.reply_to_message_id;
  if (id === undefined) return undefined;
  const target = chat.byId.get(id);
  if (target && !target.deleted) return id;
  const allow =
    params.reply_parameters?.allow_sending_without_reply ?? params.allow_sending_without_reply;
  if (allow) return undefined;
  throw badRequest("message to be replied not found");
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

/** The storage key of the commands for a scope and language, as `commands()` reports them. */
export function commandsKey(
  scope: { type: string; chat_id?: number | string; user_id?: number } | undefined,
  languageCode?: string,
): string {
  return commandScopeKey(scope, languageCode);
}
