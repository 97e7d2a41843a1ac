// The emulator's state: users, chats with their messages, the update queue, webhook delivery,
// flood buckets, stored commands, statistics and the event hub. Both the Bot API handlers and
// the control side change it only through this class, so every change emits its event and
// wakes the waiters of `waitFor`.
import type {
  BotCommand,
  Chat,
  InlineKeyboardButton,
  Message,
  MessageEntity,
  Update,
  User,
} from "grammy/types";
import { FloodControl, type FloodLimitsInput } from "./flood.ts";
import type {
  BotUser,
  CallbackAnswer,
  EmulatorEvent,
  EmulatorEventType,
  EmulatorStats,
  EmulatorUser,
  InlineButtonView,
  MessageKind,
  RecordedCall,
  TranscriptEntry,
  TypingState,
  UserInput,
} from "./types.ts";
import { UpdateQueue } from "./updates.ts";
import { WebhookDeliverer } from "./webhook.ts";

export interface CoreOptions {
  token: string | undefined;
  botUser: BotUser;
  now: () => number;
  limits: FloodLimitsInput | false;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  callLogLimit: number;
  updateHistoryLimit: number;
}

export interface StoredMessage {
  id: number;
  chatId: number;
  from: "bot" | "user";
  /** The user who wrote it (user messages only). */
  userId?: number;
  kind: MessageKind;
  text: string;
  /** The bot_command entity Telegram marks in a user's command. */
  entities?: MessageEntity[];
  inlineMarkup?: InlineKeyboardButton[][];
  replyKeyboard?: string[][];
  /** Labels of its request_contact buttons. */
  contactLabels?: string[];
  /** The reply keyboard hides after the user's next message. */
  oneTimeKeyboard?: true;
  removeKeyboard?: true;
  /** Telegram's media field of a user's photo or sticker, as it appears in a Message. */
  media?: Record<string, unknown>;
  emoji?: string;
  /** A document the bot sent. */
  document?: { fileName: string; bytes: Uint8Array };
  date: number;
  editedAt?: number;
  deleted: boolean;
}

export interface ChatRecord {
  id: number;
  type: "private" | "group";
  title?: string;
  nextMessageId: number;
  messages: StoredMessage[];
  byId: Map<number, StoredMessage>;
  replyKeyboard?: { rows: string[][]; oneTime: boolean; contact: string[] };
  typing?: TypingState;
  chatInstance: string;
}

interface PendingCallback {
  chatId: number;
  messageId: number;
  data: string;
  answered: boolean;
}

interface Waiter {
  chatId: number | undefined;
  check: () => boolean;
}

/** Telegram shows a chat action for five seconds or until the next message. */
const TYPING_MS = 5_000;
/**
 * Update ids start from the clock (10 ms steps) rather than a constant: a restarted emulator must
 * not reuse ids an earlier process already handled, or the bot's redelivery guard drops them.
 */
const firstUpdateId = (now: number) => Math.floor(now / 10);

/**
 * How an answer is lost: the call carried out, then the connection reset ("reset") or no answer
 * at all ("hang"); or the request lost on its way, never carried out, the connection reset ("drop").
 */
export type LostAnswer = "reset" | "hang" | "drop";

export class EmulatorCore {
  readonly users = new Map<number, EmulatorUser>();
  readonly chats = new Map<number, ChatRecord>();
  readonly queue: UpdateQueue;
  readonly webhook: WebhookDeliverer;
  flood: FloodControl | undefined;
  readonly commands = new Map<string, BotCommand[]>();
  /** The bot's description and short description by key ("description|ne"): bot-profile.ts. */
  readonly profileTexts = new Map<string, string>();
  /** The bytes of photos the bot uploaded, by "chatId:messageId" (bot-media.ts). */
  readonly photoBytes = new Map<string, Uint8Array>();
  readonly callbackQueries = new Map<string, PendingCallback>();
  readonly callbackAnswers: CallbackAnswer[] = [];
  private readonly callLog: RecordedCall[] = [];
  readonly stats: EmulatorStats = emptyStats();
  private readonly listeners = new Map<EmulatorEventType, Set<(event: EmulatorEvent) => void>>();
  private readonly waiters = new Set<Waiter>();
  private callbackSeq = 0;
  private fileSeq = 0;
  /** Fault knob: answers still to lose, by lower-case method name (see loseAnswers). */
  private readonly answersToLose = new Map<string, { count: number; how: LostAnswer }>();
  private readonly held = new Map<string, () => Promise<void>>();
  /** Answers lost so far (the call was carried out, its answer never reached the bot). */
  answersLost = 0;

  constructor(readonly options: CoreOptions) {
    this.queue = new UpdateQueue({
      historyLimit: options.updateHistoryLimit,
      firstUpdateId: firstUpdateId(options.now()),
    });
    this.webhook = new WebhookDeliverer(this.queue, {
      retryDelaysMs: options.webhookRetryDelaysMs,
      timeoutMs: options.webhookTimeoutMs,
      now: options.now,
      onDelivered: () => {
        this.stats.webhookDeliveries++;
        this.changed(undefined);
      },
      onFailed: () => {
        this.stats.webhookFailures++;
        this.changed(undefined);
      },
    });
    this.queue.onAvailable = () => this.webhook.pump();
    this.setLimits(options.limits);
  }

  get now(): number {
    return this.options.now();
  }

  /**
   * Fault knob (tests): the next `count` successful calls of `method` are carried out (a message
   * sent is in the chat) but their answers are lost: the connection is reset ("reset") or never
   * answered ("hang", until the client gives up). Telegram accepting a send whose answer a network
   * fault then loses looks exactly like this to the bot. "drop": the next `count` requests are lost
   * before Telegram carries them out (the connection reset): the same failure, nothing sent.
   */
  loseAnswers(method: string, count: number, how: LostAnswer = "reset"): void {
    if (count > 0) this.answersToLose.set(method.toLowerCase(), { count, how });
    else this.answersToLose.delete(method.toLowerCase());
  }

  /**
   * Fault knob (tests): the next call of `method` waits, before it is carried out, until
   * `release` is called; `reached` resolves when it has arrived. A bot caught mid-update.
   */
  holdNext(method: string): { reached: Promise<void>; release: () => void } {
    let arrived: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.held.set(method.toLowerCase(), () => {
      arrived();
      return released;
    });
    return { reached, release };
  }

  /** Waits while a call of `method` is held (holdNext); at once otherwise. */
  async passHold(method: string): Promise<void> {
    const hold = this.held.get(method.toLowerCase());
    if (!hold) return;
    this.held.delete(method.toLowerCase());
    await hold();
  }

  /**
   * Whether this call of `method` is to be lost, and how (counts it down). Asked before the call
   * is carried out (`before`: only "drop" is taken then) and after a successful one (the others).
   */
  takeLostAnswer(method: string, before = false): LostAnswer | undefined {
    const name = method.toLowerCase();
    const fault = this.answersToLose.get(name);
    if (!fault || before !== (fault.how === "drop")) return undefined;
    if (--fault.count <= 0) this.answersToLose.delete(name);
    this.answersLost++;
    return fault.how;
  }

  get botUser(): BotUser {
    return this.options.botUser;
  }

  setLimits(limits: FloodLimitsInput | false): void {
    this.flood = limits === false ? undefined : new FloodControl(limits, this.options.now);
  }

  // ------------------------------------------------------------ users and chats

  upsertUser(id: number, input: Partial<UserInput>): EmulatorUser {
    const existing = this.users.get(id);
    const user: EmulatorUser = {
      id,
      first_name: input.first_name ?? existing?.first_name ?? `User ${id}`,
      last_name: input.last_name ?? existing?.last_name,
      username: input.username ?? existing?.username,
      language_code: input.language_code ?? existing?.language_code ?? "en",
      blocked: input.blocked ?? existing?.blocked ?? false,
      started: input.started ?? existing?.started ?? true,
    };
    if (user.last_name === undefined) delete user.last_name;
    if (user.username === undefined) delete user.username;
    this.users.set(id, user);
    const chat = this.privateChat(user);
    if (existing && existing.blocked !== user.blocked) this.announceBlock(user, chat);
    this.changed(id);
    return user;
  }

  /** The user, created with defaults when unknown. */
  ensureUser(id: number): EmulatorUser {
    return this.users.get(id) ?? this.upsertUser(id, {});
  }

  privateChat(user: EmulatorUser): ChatRecord {
    return this.chats.get(user.id) ?? this.addChat(user.id, "private");
  }

  groupChat(groupId: number, title?: string): ChatRecord {
    const chat = this.chats.get(groupId) ?? this.addChat(groupId, "group");
    if (title !== undefined || chat.title === undefined) chat.title = title ?? `Group ${-groupId}`;
    return chat;
  }

  /** By numeric id; "@username" names only public channels on Telegram, which are not emulated. */
  resolveChat(chatId: number | string): ChatRecord | undefined {
    return typeof chatId === "number" ? this.chats.get(chatId) : undefined;
  }

  private addChat(id: number, type: ChatRecord["type"]): ChatRecord {
    const chat: ChatRecord = {
      id,
      type,
      nextMessageId: 1,
      messages: [],
      byId: new Map(),
      chatInstance: String(-7_000_000_000_000_000 - id),
    };
    this.chats.set(id, chat);
    return chat;
  }

  private announceBlock(user: EmulatorUser, chat: ChatRecord): void {
    const member = (status: "member" | "kicked") =>
      status === "kicked"
        ? { user: this.botUser, status, until_date: 0 }
        : { user: this.botUser, status };
    this.queue.create({
      my_chat_member: {
        chat: this.chatAsTelegram(chat) as Chat.PrivateChat,
        from: this.userAsTelegram(user),
        date: Math.floor(this.now / 1000),
        old_chat_member: member(user.blocked ? "member" : "kicked"),
        new_chat_member: member(user.blocked ? "kicked" : "member"),
      },
    } as Omit<Update, "update_id">);
    this.stats.updatesCreated++;
  }

  // ------------------------------------------------------------ messages

  addMessage(
    chat: ChatRecord,
    fields: Omit<StoredMessage, "id" | "chatId" | "date" | "deleted">,
  ): StoredMessage {
    const message: StoredMessage = {
      ...fields,
      id: chat.nextMessageId++,
      chatId: chat.id,
      date: this.now,
      deleted: false,
    };
    chat.messages.push(message);
    chat.byId.set(message.id, message);
    if (message.from === "bot") {
      chat.typing = undefined;
      if (message.replyKeyboard) {
        chat.replyKeyboard = {
          contact: message.contactLabels ?? [],
          rows: message.replyKeyboard,
          oneTime: message.oneTimeKeyboard === true,
        };
      } else if (message.removeKeyboard) chat.replyKeyboard = undefined;
      this.stats.messagesSent++;
      const key = String(chat.id);
      this.stats.messagesByChat[key] = (this.stats.messagesByChat[key] ?? 0) + 1;
    } else if (chat.replyKeyboard?.oneTime) chat.replyKeyboard = undefined;
    this.emitMessage("message", message);
    return message;
  }

  markEdited(message: StoredMessage): void {
    message.editedAt = this.now;
    this.stats.edits++;
    this.emitMessage("edit", message);
  }

  markDeleted(message: StoredMessage): void {
    message.deleted = true;
    this.emit({ type: "delete", chatId: message.chatId, messageId: message.id });
  }

  setTyping(chat: ChatRecord, action: string): void {
    chat.typing = { action, at: this.now };
    this.emit({ type: "typing", chatId: chat.id, action, at: chat.typing.at });
  }

  typing(chatId: number): TypingState | undefined {
    const typing = this.chats.get(chatId)?.typing;
    return typing && this.now - typing.at < TYPING_MS ? typing : undefined;
  }

  nextFileId(prefix: string): { file_id: string; file_unique_id: string } {
    const n = ++this.fileSeq;
    return { file_id: `${prefix}${String(n).padStart(12, "0")}`, file_unique_id: `U${prefix}${n}` };
  }

  /** Files the bot uploaded, by the file_id Telegram gave them (sent again by id). */
  private readonly files = new Map<string, { filename: string; bytes: Uint8Array }>();

  keepFile(file: { filename: string; bytes: Uint8Array }): string {
    const { file_id } = this.nextFileId("BQAC");
    this.files.set(file_id, file);
    return file_id;
  }

  fileById(fileId: string): { filename: string; bytes: Uint8Array } | undefined {
    return this.files.get(fileId);
  }

  // ------------------------------------------------------------ updates from users

  userMessage(
    user: EmulatorUser,
    chat: ChatRecord,
    fields: Omit<StoredMessage, "id" | "chatId" | "date" | "deleted" | "from" | "userId">,
  ): { update: Update; message: StoredMessage } {
    if (user.blocked) throw new Error(`user ${user.id} has blocked the bot; unblock them first`);
    if (chat.type === "private" && !user.started) user.started = true;
    const message = this.addMessage(chat, { ...fields, from: "user", userId: user.id });
    const update = this.queue.create({
      message: this.messageAsTelegram(message) as NonNullable<Update["message"]>,
    });
    this.stats.updatesCreated++;
    this.changed(chat.id);
    return { update, message };
  }

  callbackQuery(
    user: EmulatorUser,
    message: StoredMessage,
    data: string,
  ): { update: Update; callbackQueryId: string } {
    if (user.blocked) throw new Error(`user ${user.id} has blocked the bot; unblock them first`);
    const id = String(4_000_000_000_000_000 + ++this.callbackSeq);
    const chat = this.chats.get(message.chatId)!;
    this.callbackQueries.set(id, {
      chatId: message.chatId,
      messageId: message.id,
      data,
      answered: false,
    });
    const update = this.queue.create({
      callback_query: {
        id,
        from: this.userAsTelegram(user),
        message: this.messageAsTelegram(message),
        chat_instance: chat.chatInstance,
        data,
      },
    });
    this.stats.updatesCreated++;
    this.changed(chat.id);
    return { update, callbackQueryId: id };
  }

  // ------------------------------------------------------------ Telegram shapes

  userAsTelegram(user: EmulatorUser): User {
    const result: User = { id: user.id, is_bot: false, first_name: user.first_name };
    if (user.last_name) result.last_name = user.last_name;
    if (user.username) result.username = user.username;
    if (user.language_code) result.language_code = user.language_code;
    return result;
  }

  chatAsTelegram(chat: ChatRecord): Chat {
    if (chat.type === "group") return { id: chat.id, type: "group", title: chat.title ?? "" };
    const user = this.users.get(chat.id);
    const result: Chat.PrivateChat = {
      id: chat.id,
      type: "private",
      first_name: user?.first_name ?? "",
    };
    if (user?.last_name) result.last_name = user.last_name;
    if (user?.username) result.username = user.username;
    return result;
  }

  messageAsTelegram(message: StoredMessage): Message {
    const chat = this.chats.get(message.chatId)!;
    const author = this.users.get(message.userId ?? 0);
    const result: Record<string, unknown> = {
      message_id: message.id,
      from:
        message.from === "bot"
          ? this.botUser
          : author
            ? this.userAsTelegram(author)
            : { id: message.userId, is_bot: false, first_name: "" },
      chat: this.chatAsTelegram(chat),
      date: Math.floor(message.date / 1000),
    };
    if (message.editedAt !== undefined) result.edit_date = Math.floor(message.editedAt / 1000);
    const entitiesField = message.kind === "text" ? "entities" : "caption_entities";
    if (message.kind === "text") result.text = message.text;
    else {
      Object.assign(result, message.media);
      if (message.text) result.caption = message.text;
    }
    if (message.entities?.length) result[entitiesField] = message.entities;
    // Telegram echoes only inline keyboards in Message.reply_markup.
    if (message.inlineMarkup) result.reply_markup = { inline_keyboard: message.inlineMarkup };
    return result as unknown as Message;
  }

  // ------------------------------------------------------------ calls and statistics

  /** Counts a call as it starts, so a held long poll shows up in the statistics at once. */
  beginCall(method: string, known: boolean): void {
    this.stats.methodCalls[method] = (this.stats.methodCalls[method] ?? 0) + 1;
    if (!known) this.stats.unknownMethods[method] = (this.stats.unknownMethods[method] ?? 0) + 1;
    this.changed(undefined);
  }

  /** Records how a call ended: its error code, and the call itself in the call log. */
  endCall(call: RecordedCall): void {
    if (!call.ok && call.error_code !== undefined) {
      const code = String(call.error_code);
      this.stats.errors[code] = (this.stats.errors[code] ?? 0) + 1;
      if (call.error_code === 429) this.stats.tooManyRequests++;
    }
    if (call.method === "getUpdates") return; // long polls would crowd out everything else
    this.callLog.push(call);
    // Trimmed in chunks so a full log does not cost a copy per call.
    const limit = this.options.callLogLimit;
    if (this.callLog.length >= limit + Math.max(1, limit >> 2)) {
      this.callLog.splice(0, this.callLog.length - limit);
    }
    this.changed(undefined);
  }

  recordCall(call: RecordedCall, known: boolean): void {
    this.beginCall(call.method, known);
    this.endCall(call);
  }

  // ------------------------------------------------------------ events and waiting

  on(type: EmulatorEventType, listener: (event: EmulatorEvent) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** The transcript entry is built only when someone listens. */
  private emitMessage(type: "message" | "edit", message: StoredMessage): void {
    if (this.listeners.get(type)?.size) {
      this.emit({ type, chatId: message.chatId, message: transcriptEntry(message) });
    } else this.changed(message.chatId);
  }

  /** Recorded calls, oldest first, at most `callLogLimit`. */
  recentCalls(): RecordedCall[] {
    return this.callLog.slice(-this.options.callLogLimit);
  }

  emit(event: EmulatorEvent): void {
    for (const listener of this.listeners.get(event.type) ?? []) {
      try {
        listener(event);
      } catch {
        // A faulty listener must not break the Bot API answer.
      }
    }
    this.changed(event.chatId);
  }

  /**
   * Re-checks waiters. Those bound to a chat watch only that chat's messages, so they are
   * skipped for changes elsewhere and for chat-less changes (statistics, calls, webhook).
   */
  changed(chatId: number | undefined): void {
    for (const waiter of this.waiters) {
      if (waiter.chatId !== undefined && waiter.chatId !== chatId) continue;
      if (waiter.check()) this.waiters.delete(waiter);
    }
  }

  waitFor<T>(
    predicate: () => T | undefined | null | false,
    timeoutMs: number,
    chatId: number | undefined,
    describe: () => string,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const attempt = (): boolean => {
        let value: T | undefined | null | false;
        try {
          value = predicate();
        } catch (error) {
          clearTimeout(timer);
          reject(error);
          return true;
        }
        if (value === undefined || value === null || value === false) return false;
        clearTimeout(timer);
        resolve(value);
        return true;
      };
      const waiter: Waiter = { chatId, check: attempt };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`waitFor timed out after ${timeoutMs} ms: ${describe()}`));
      }, timeoutMs);
      if (!attempt()) this.waiters.add(waiter);
    });
  }
}

export function transcriptEntry(message: StoredMessage): TranscriptEntry {
  const entry: TranscriptEntry = {
    id: message.id,
    from: message.from,
    kind: message.kind,
    text: message.text,
    edited: message.editedAt !== undefined,
    date: message.date,
  };
  if (message.entities?.length) entry.entities = message.entities;
  if (message.inlineMarkup) entry.inlineKeyboard = inlineView(message.inlineMarkup);
  if (message.replyKeyboard) entry.replyKeyboard = message.replyKeyboard;
  if (message.removeKeyboard) entry.removeKeyboard = true;
  if (message.emoji) entry.emoji = message.emoji;
  if (message.document) entry.document = message.document;
  if (message.editedAt !== undefined) entry.editedAt = message.editedAt;
  if (message.deleted) entry.deleted = true;
  return entry;
}

function inlineView(rows: InlineKeyboardButton[][]): InlineButtonView[][] {
  return rows.map((row) =>
    row.map((button) => {
      const view: InlineButtonView = { text: button.text };
      if ("callback_data" in button && button.callback_data !== undefined) {
        view.callback_data = button.callback_data;
      }
      if ("url" in button && button.url !== undefined) view.url = button.url;
      return view;
    }),
  );
}

function emptyStats(): EmulatorStats {
  return {
    messagesSent: 0,
    messagesByChat: {},
    edits: 0,
    tooManyRequests: 0,
    methodCalls: {},
    unknownMethods: {},
    errors: {},
    updatesCreated: 0,
    updatesReturned: 0,
    webhookDeliveries: 0,
    webhookFailures: 0,
  };
}
