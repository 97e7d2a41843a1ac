// A Telegram Bot API emulator that a real grammY bot talks to through `client.apiRoot`, and
// that tests, the web playground and the benchmarks drive as the bot's users: type text, press
// buttons, read what each chat shows. This object is the only way to drive it; over HTTP the
// playground's JSON API (../web/api.ts) does the same for the page and for scripts.
import type { BotCommand, MessageEntity } from "grammy/types";
import type { Hono } from "hono";
import { createBotApiRoutes } from "./bot-api.ts";
import { commandScopeKey } from "./bot-checks.ts";
import { type ProfileText, profileKey } from "./bot-profile.ts";
import {
  type ChatRecord,
  EmulatorCore,
  type LostAnswer,
  type StoredMessage,
  transcriptEntry,
} from "./core.ts";
import type { FloodLimitsInput } from "./flood.ts";
import {
  type BotUser,
  type CallbackAnswer,
  type CommandsByScope,
  EmulatorError,
  type EmulatorEventOf,
  type EmulatorEventType,
  type EmulatorStats,
  type EmulatorUser,
  type RecordedCall,
  type TranscriptEntry,
  type TypingState,
  type UserInput,
  userInputSchema,
} from "./types.ts";

export interface BotApiEmulatorOptions {
  /** When set, calls with another token answer 401 Unauthorized; otherwise any token works. */
  token?: string;
  /** Telegram's flood limits (`{}` for the documented defaults); off (false) by default. */
  limits?: FloodLimitsInput | false;
  /** The clock, in milliseconds: message dates, typing expiry and flood buckets use it. */
  now?: () => number;
  webhook?: {
    /** Waits before each retry of a failed delivery; default [200, 1000, 3000]. */
    retryDelaysMs?: number[];
    /** How long one delivery may take; default 30 s. */
    timeoutMs?: number;
  };
  /** Bot API calls kept for `calls()` (getUpdates is never kept); default 10,000. */
  callLogLimit?: number;
  /** Updates kept for `redeliver`; default 10,000. */
  updateHistoryLimit?: number;
}

/** What a simulated user action created. */
export interface SentUpdate {
  update_id: number;
  message_id: number;
}

export interface SentCallback {
  update_id: number;
  callback_query_id: string;
  message_id: number;
}

export type MessageMatch = string | RegExp | ((entry: TranscriptEntry) => boolean);

export interface UserDirectory {
  /** Creates or updates a user (validated by userInputSchema). */
  upsert(id: number, fields?: Partial<UserInput>): EmulatorUser;
  get(id: number): EmulatorUser | undefined;
  /** The user blocks (or unblocks) the bot; the bot receives a my_chat_member update. */
  block(id: number, blocked?: boolean): EmulatorUser;
}

export interface BotApiEmulator {
  /** The Bot API routes (`/bot<token>/<method>`), to serve alone or mount under a path. */
  readonly app: Hono;
  readonly botUser: BotUser;
  readonly users: UserDirectory;

  /** The user writes `text` in their private chat with the bot. */
  sendText(userId: number, text: string): SentUpdate;
  sendSticker(userId: number, opts?: { emoji?: string }): SentUpdate;
  sendPhoto(userId: number, opts?: { caption?: string }): SentUpdate;
  /**
   * The user shares a contact: their own by default (what Telegram's request_contact button
   * sends, `user_id` the sender's), or someone else's card (`userId` another id, or null: none).
   */
  sendContact(
    userId: number,
    contact: { phoneNumber: string; firstName?: string; userId?: number | null },
  ): SentUpdate;
  /** The user writes `text` in group `groupId` (negative), which is created on first use. */
  sendGroupText(
    userId: number,
    groupId: number,
    text: string,
    opts?: { title?: string },
  ): SentUpdate;
  /**
   * The user presses the inline button carrying `data` on bot message `messageId` in their
   * private chat. Throws unless such a button is there now, or `force` is set (a forged or
   * stale callback).
   */
  pressButton(
    userId: number,
    messageId: number,
    data: string,
    opts?: { force?: boolean },
  ): SentCallback;
  /** Presses the callback button labelled `label` on the newest bot message that has one. */
  clickButton(userId: number, label: string, opts?: { messageId?: number }): SentCallback;
  /** Delivers an existing update once more, with the same update_id. */
  redeliver(updateId: number): { update_id: number };

  /** What the chat shows now (a user's private chat has the user's id), oldest first. */
  /** Deleted messages are left out, as the chat no longer shows them. */
  chat(chatId: number): TranscriptEntry[];
  lastBotMessage(chatId: number): TranscriptEntry | undefined;
  /** The chat action shown now ("typing" ...), if any. */
  typing(chatId: number): TypingState | undefined;
  /** The reply keyboard the user's input area shows now. */
  replyKeyboard(chatId: number): string[][] | undefined;
  /** Labels of the reply keyboard's request_contact buttons shown now (none: []). */
  contactButtons(chatId: number): string[];
  callbackAnswers(): CallbackAnswer[];
  /** Commands stored by setMyCommands for a scope and language (exactly; no fallback). */
  commands(opts?: {
    scope?: { type: string; chat_id?: number | string; user_id?: number };
    language_code?: string;
  }): BotCommand[] | undefined;
  /** Every stored command list by key: "default", "chat:42", "all_private_chats|ne", ... */
  allCommands(): CommandsByScope;
  /** The bot's description or short description set for a language (exactly; none: the default). */
  profileText(field: ProfileText, languageCode?: string): string | undefined;
  /** The bytes of a photo the bot uploaded (sendPhoto with a file), if any. */
  photoBytes(chatId: number, messageId: number): Uint8Array | undefined;
  /** Recorded Bot API calls (except getUpdates), optionally of one method. */
  calls(method?: string): RecordedCall[];
  webhookInfo(): Record<string, unknown>;

  on<T extends EmulatorEventType>(
    type: T,
    listener: (event: EmulatorEventOf<T>) => void,
  ): () => void;
  /** Resolves with the predicate's first truthy value, re-checked on every change. */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  /** Waits for a bot message (new or edited) in the chat that matches, newer than `afterId`. */
  waitForBotMessage(
    chatId: number,
    match?: MessageMatch,
    opts?: { afterId?: number; timeoutMs?: number },
  ): Promise<TranscriptEntry>;

  stats(): EmulatorStats;
  /** Switches Telegram's flood limits on (`{}` for the defaults) or off (false). */
  setLimits(limits: FloodLimitsInput | false): void;
  /**
   * Fault knob: the next `count` successful calls of `method` are carried out but their answers
   * lost (connection reset, or no answer: "hang"), or ("drop") the next `count` requests are lost
   * before they are carried out. `answersLost()` counts them.
   */
  loseAnswers(method: string, count: number, how?: LostAnswer): void;
  /** The next call of `method` waits until released (a bot caught mid-update); see core.ts. */
  holdNext(method: string): { reached: Promise<void>; release: () => void };
  answersLost(): number;
  /** Ends held long polls and stops webhook deliveries. */
  close(): void;
}

const DEFAULT_WAIT_MS = 5_000;

export function createBotApiEmulator(options: BotApiEmulatorOptions = {}): BotApiEmulator {
  const tokenId = Number(/^(\d+):/.exec(options.token ?? "")?.[1]);
  const botUser: BotUser = {
    id: Number.isSafeInteger(tokenId) && tokenId > 0 ? tokenId : 7_000_000_001,
    first_name: "Recharge Assistant",
    username: "recharge_assistant_bot",
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
    has_topics_enabled: false,
    allows_users_to_create_topics: false,
    can_manage_bots: false,
    supports_join_request_queries: false,
    is_bot: true,
  };
  const core = new EmulatorCore({
    token: options.token,
    botUser,
    now: options.now ?? Date.now,
    limits: options.limits ?? false,
    webhookRetryDelaysMs: options.webhook?.retryDelaysMs ?? [200, 1_000, 3_000],
    webhookTimeoutMs: options.webhook?.timeoutMs ?? 30_000,
    callLogLimit: options.callLogLimit ?? 10_000,
    updateHistoryLimit: options.updateHistoryLimit ?? 10_000,
  });

  const requireMessage = (chatId: number, messageId: number): StoredMessage => {
    const message = core.chats.get(chatId)?.byId.get(messageId);
    if (!message || message.deleted) {
      throw new EmulatorError(`chat ${chatId} has no message ${messageId}`);
    }
    return message;
  };

  const userSends = (
    userId: number,
    chat: ChatRecord,
    fields: Parameters<EmulatorCore["userMessage"]>[2],
  ): SentUpdate => {
    const user = core.ensureUser(userId);
    if (user.blocked) throw new EmulatorError(`user ${userId} has blocked the bot`);
    const { update, message } = core.userMessage(user, chat, fields);
    return { update_id: update.update_id, message_id: message.id };
  };

  const press = (userId: number, message: StoredMessage, data: string): SentCallback => {
    const user = core.ensureUser(userId);
    if (user.blocked) throw new EmulatorError(`user ${userId} has blocked the bot`);
    const { update, callbackQueryId } = core.callbackQuery(user, message, data);
    return {
      update_id: update.update_id,
      callback_query_id: callbackQueryId,
      message_id: message.id,
    };
  };

  const chat = (chatId: number): TranscriptEntry[] =>
    (core.chats.get(chatId)?.messages ?? [])
      .filter((message) => !message.deleted)
      .map(transcriptEntry);

  return {
    app: createBotApiRoutes(core),
    botUser,
    users: {
      upsert: (id, fields = {}) => core.upsertUser(id, userInputSchema.partial().parse(fields)),
      get: (id) => {
        const user = core.users.get(id);
        return user && { ...user };
      },
      block: (id, blocked = true) => core.upsertUser(id, { blocked }),
    },

    sendText(userId, text) {
      if (text.trim() === "") throw new EmulatorError("a message needs some text");
      const user = core.ensureUser(userId);
      const entities = commandEntities(text);
      return userSends(userId, core.privateChat(user), {
        kind: "text",
        text,
        ...(entities && { entities }),
      });
    },

    sendSticker(userId, opts) {
      const emoji = opts?.emoji ?? "👍";
      return userSends(userId, core.privateChat(core.ensureUser(userId)), {
        kind: "sticker",
        text: "",
        emoji,
        media: stickerShape(core.nextFileId("CAAC"), emoji),
      });
    },

    sendPhoto(userId, opts) {
      return userSends(userId, core.privateChat(core.ensureUser(userId)), {
        kind: "photo",
        text: opts?.caption ?? "",
        media: photoShape(core.nextFileId("AgAC")),
      });
    },

    sendContact(userId, contact) {
      const user = core.ensureUser(userId);
      const owner = contact.userId === undefined ? userId : contact.userId;
      return userSends(userId, core.privateChat(user), {
        kind: "contact",
        text: "",
        media: {
          contact: {
            phone_number: contact.phoneNumber,
            first_name: contact.firstName ?? user.first_name,
            ...(owner === null ? {} : { user_id: owner }),
          },
        },
      });
    },

    sendGroupText(userId, groupId, text, opts) {
      if (!Number.isSafeInteger(groupId) || groupId >= 0) {
        throw new EmulatorError("a group id is a negative integer");
      }
      if (text.trim() === "") throw new EmulatorError("a message needs some text");
      core.ensureUser(userId);
      const entities = commandEntities(text);
      return userSends(userId, core.groupChat(groupId, opts?.title), {
        kind: "text",
        text,
        ...(entities && { entities }),
      });
    },

    pressButton(userId, messageId, data, opts) {
      const message = requireMessage(userId, messageId);
      if (message.from !== "bot") {
        throw new EmulatorError(`message ${messageId} is the user's own, it has no buttons`);
      }
      const offered = callbackButtons(message);
      if (!opts?.force && !offered.some((button) => button.data === data)) {
        throw new EmulatorError(
          `message ${messageId} has no button with callback_data ${JSON.stringify(data)}; it offers ${describeButtons(offered)}`,
        );
      }
      return press(userId, message, data);
    },

    clickButton(userId, label, opts) {
      const record = core.chats.get(userId);
      const candidates = (record?.messages ?? []).filter(
        (message) =>
          message.from === "bot" &&
          !message.deleted &&
          (opts?.messageId === undefined || message.id === opts.messageId),
      );
      for (let i = candidates.length - 1; i >= 0; i--) {
        const message = candidates[i]!;
        const button = callbackButtons(message).find((b) => b.text === label);
        if (button) return press(userId, message, button.data);
      }
      const latest = candidates.at(-1);
      throw new EmulatorError(
        `no bot message in chat ${userId} has a button labelled ${JSON.stringify(label)}` +
          (latest ? `; the latest offers ${describeButtons(callbackButtons(latest))}` : ""),
      );
    },

    redeliver(updateId) {
      try {
        return { update_id: core.queue.redeliver(updateId).update_id };
      } catch (error) {
        throw new EmulatorError(error instanceof Error ? error.message : String(error));
      }
    },

    chat,
    lastBotMessage: (chatId) => chat(chatId).findLast((entry) => entry.from === "bot"),
    typing: (chatId) => core.typing(chatId),
    replyKeyboard: (chatId) => core.chats.get(chatId)?.replyKeyboard?.rows,
    contactButtons: (chatId) => [...(core.chats.get(chatId)?.replyKeyboard?.contact ?? [])],
    callbackAnswers: () => [...core.callbackAnswers],
    commands(opts) {
      return core.commands.get(commandScopeKey(opts?.scope, opts?.language_code));
    },
    allCommands: () => Object.fromEntries(core.commands),
    profileText: (field, languageCode) => core.profileTexts.get(profileKey(field, languageCode)),
    photoBytes: (chatId, messageId) => core.photoBytes.get(`${chatId}:${messageId}`),
    calls: (method) =>
      method === undefined
        ? core.recentCalls()
        : core.recentCalls().filter((call) => call.method === method),
    webhookInfo() {
      const status = core.webhook.status();
      return {
        url: status.config?.url ?? "",
        pending_update_count: core.queue.pendingCount,
        ...(status.config?.secretToken !== undefined && { has_secret_token: true }),
        ...(status.lastErrorMessage !== undefined && {
          last_error_date: status.lastErrorDate,
          last_error_message: status.lastErrorMessage,
        }),
      };
    },

    on(type, listener) {
      return core.on(type, listener as Parameters<EmulatorCore["on"]>[1]);
    },

    waitFor(predicate, timeoutMs = DEFAULT_WAIT_MS) {
      return core.waitFor(predicate, timeoutMs, undefined, () => "condition never became true");
    },

    waitForBotMessage(chatId, match, opts) {
      const afterId = opts?.afterId ?? 0;
      const matches = toMatcher(match);
      const find = () => {
        const record = core.chats.get(chatId);
        if (!record) return undefined;
        for (let i = record.messages.length - 1; i >= 0; i--) {
          const message = record.messages[i]!;
          if (message.id <= afterId) break;
          if (message.from !== "bot" || message.deleted) continue;
          const entry = transcriptEntry(message);
          if (matches(entry)) return entry;
        }
        return undefined;
      };
      return core.waitFor(find, opts?.timeoutMs ?? DEFAULT_WAIT_MS, chatId, () => {
        const shown = chat(chatId)
          .slice(-5)
          .map((entry) => `  #${entry.id} ${entry.from}: ${entry.text.slice(0, 120)}`)
          .join("\n");
        return `no bot message matching ${String(match ?? "anything")} after #${afterId} in chat ${chatId}; the chat ends with:\n${shown || "  (empty)"}`;
      });
    },

    stats: () => structuredClone(core.stats),
    setLimits: (limits) => core.setLimits(limits),
    loseAnswers: (method, count, how) => core.loseAnswers(method, count, how),
    holdNext: (method) => core.holdNext(method),
    answersLost: () => core.answersLost,
    close() {
      core.queue.releasePoller();
      core.webhook.unset();
    },
  };
}

/** The shapes Telegram gives a user's photo (two sizes) and sticker. */
function photoShape(ids: { file_id: string; file_unique_id: string }): Record<string, unknown> {
  return {
    photo: [
      { ...ids, file_id: `${ids.file_id}s`, width: 90, height: 90, file_size: 1_200 },
      { ...ids, width: 800, height: 800, file_size: 48_000 },
    ],
  };
}

function stickerShape(
  ids: { file_id: string; file_unique_id: string },
  emoji: string,
): Record<string, unknown> {
  return {
    sticker: {
      ...ids,
      type: "regular",
      width: 512,
      height: 512,
      is_animated: false,
      is_video: false,
      emoji,
    },
  };
}

/** Telegram marks a leading "/command" (optionally "@botname") as a bot_command entity. */
function commandEntities(text: string): MessageEntity[] | undefined {
  const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]{3,32})?(?![A-Za-z0-9_@])/.exec(text);
  return command ? [{ type: "bot_command", offset: 0, length: command[0].length }] : undefined;
}

function callbackButtons(message: StoredMessage): { text: string; data: string }[] {
  const buttons: { text: string; data: string }[] = [];
  for (const row of message.inlineMarkup ?? []) {
    for (const button of row) {
      if ("callback_data" in button && typeof button.callback_data === "string") {
        buttons.push({ text: button.text, data: button.callback_data });
      }
    }
  }
  return buttons;
}

function describeButtons(buttons: { text: string; data: string }[]): string {
  return buttons.length === 0
    ? "no callback buttons"
    : buttons.map((b) => `${JSON.stringify(b.text)} (${JSON.stringify(b.data)})`).join(", ");
}

function toMatcher(match: MessageMatch | undefined): (entry: TranscriptEntry) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === "string") return (entry) => entry.text.includes(match);
  if (match instanceof RegExp) return (entry) => match.test(entry.text);
  return match;
}
