// Shapes the emulator shows to its users (tests, the playground page, benchmarks) and the
// zod schemas of what they send it.
import type { BotCommand, MessageEntity } from "grammy/types";
import { z } from "zod";

/** A control action that cannot happen (unknown message, no such button ...). */
export class EmulatorError extends Error {}

// ---------------------------------------------------------------- users

const usernameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{2,31}$/, "3-32 letters, digits or underscores");

/** What `users.upsert` takes. */
export const userInputSchema = z.strictObject({
  first_name: z.string().trim().min(1).max(64),
  last_name: z.string().max(64).optional(),
  username: usernameSchema.optional(),
  language_code: z.string().min(2).max(35).optional(),
  /** The user blocked the bot: every call aimed at their chat answers 403. */
  blocked: z.boolean().optional(),
  /** False until the user wrote to the bot: the bot cannot start a conversation (403). */
  started: z.boolean().optional(),
});
export type UserInput = z.infer<typeof userInputSchema>;

export interface EmulatorUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  blocked: boolean;
  started: boolean;
}

/** The bot as getMe describes it. */
export interface BotUser {
  id: number;
  is_bot: true;
  first_name: string;
  username: string;
  can_join_groups: boolean;
  can_read_all_group_messages: boolean;
  supports_inline_queries: boolean;
  can_connect_to_business: boolean;
  has_main_web_app: boolean;
  has_topics_enabled: boolean;
  allows_users_to_create_topics: boolean;
  can_manage_bots: boolean;
  supports_join_request_queries: boolean;
}

// ---------------------------------------------------------------- transcript

export type MessageKind = "text" | "photo" | "sticker" | "contact" | "document";

export interface InlineButtonView {
  text: string;
  callback_data?: string;
  url?: string;
}

/** One message as the chat shows it now. */
export interface TranscriptEntry {
  /** Telegram's message_id, increasing per chat for both sides. */
  id: number;
  from: "bot" | "user";
  kind: MessageKind;
  /** The text, or the caption of a photo. */
  text: string;
  /** The bot_command entity of a user's command. */
  entities?: MessageEntity[];
  inlineKeyboard?: InlineButtonView[][];
  /** Reply keyboard this message brought up, as button labels. */
  replyKeyboard?: string[][];
  /** This message removed the reply keyboard. */
  removeKeyboard?: true;
  /** Emoji of a sticker. */
  emoji?: string;
  /** A document the bot sent: its file name and bytes (the text is its caption). */
  document?: { fileName: string; bytes: Uint8Array };
  edited: boolean;
  /** Milliseconds since the epoch (the emulator's clock). */
  date: number;
  editedAt?: number;
  deleted?: boolean;
}

export interface TypingState {
  action: string;
  /** Milliseconds since the epoch; Telegram shows an action for 5 s or until a message arrives. */
  at: number;
}

export interface CallbackAnswer {
  callback_query_id: string;
  chat_id: number;
  message_id: number;
  data: string;
  text?: string;
  show_alert: boolean;
  url?: string;
  at: number;
}

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  at: number;
  ok: boolean;
  error_code?: number;
  description?: string;
}

// ---------------------------------------------------------------- events

export type EmulatorEvent =
  | { type: "message"; chatId: number; message: TranscriptEntry }
  | { type: "edit"; chatId: number; message: TranscriptEntry }
  | { type: "delete"; chatId: number; messageId: number }
  | { type: "typing"; chatId: number; action: string; at: number }
  | { type: "callback_answer"; chatId: number; answer: CallbackAnswer };
export type EmulatorEventType = EmulatorEvent["type"];
export type EmulatorEventOf<T extends EmulatorEventType> = Extract<EmulatorEvent, { type: T }>;

// ---------------------------------------------------------------- stats

export interface EmulatorStats {
  /** Bot messages accepted (sendMessage), in total and per chat id. */
  messagesSent: number;
  messagesByChat: Record<string, number>;
  edits: number;
  /** Calls answered 429 by the flood limits. */
  tooManyRequests: number;
  /** Every Bot API call by method name, including failed and unknown ones. */
  methodCalls: Record<string, number>;
  /** Calls of methods the emulator does not implement (answered 404). */
  unknownMethods: Record<string, number>;
  /** Error answers by error_code. */
  errors: Record<string, number>;
  updatesCreated: number;
  /** Updates handed out by getUpdates (a re-fetch of an unconfirmed update counts again). */
  updatesReturned: number;
  webhookDeliveries: number;
  webhookFailures: number;
}

export type CommandsByScope = Record<string, BotCommand[]>;
