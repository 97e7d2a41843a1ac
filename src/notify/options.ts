import type { InlineKeyboardMarkup } from "grammy/types";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import type { MoneyPathMetrics } from "../orders/metrics.ts";
import type { Order } from "../orders/model.ts";
import type { ApiSignal } from "../telegram/api.ts";
import { CHANNELS, type Channel } from "./channel.ts";
import type { SendPacer } from "./pacer.ts";
import type { NotificationQueue } from "./queue.ts";
import type { Render, RenderNotice } from "./render.ts";
import type { SentLog } from "./sent-log.ts";

/** The part of grammY's Api the notifier uses (with boundedRetry from src/telegram/api.ts on it). */
export interface NotifierApi {
  sendMessage(
    chatId: number,
    text: string,
    other?: { reply_markup?: InlineKeyboardMarkup },
    /** sendOnceSignal(): the Bot API client must not send it again after a lost answer. */
    signal?: ApiSignal,
  ): Promise<{ message_id: number }>;
  editMessageText(chatId: number, messageId: number, text: string): Promise<unknown>;
}

/** The buttons under an order's final push, from the order and the outcome it reached. */
export type FinalButtons = (
  order: Order,
  status: "success" | "failed",
) => Promise<InlineKeyboardMarkup | undefined>;

/** Reads the order being notified about (the order store or the orders service). */
export interface NotifierOrders {
  get(reference: string): Promise<Order | null>;
}

export interface NotifierOptions {
  queue: NotificationQueue;
  orders: NotifierOrders;
  api: NotifierApi;
  /** The chat's words for a notification (the bot's Fluent bundles: src/bot/notification-render.ts). */
  render: Render;
  /**
   * The words of a complaint's notice (queued with the complaint's change). Without it such an
   * entry fails and is dead-lettered (replayable), never dropped.
   */
  renderNotice?: RenderNotice;
  /**
   * Called right before a final push is sent, once its sending lock says it goes out (not for a
   * push withheld, held by another consumer or already sent; again on a retried delivery, so it
   * must be idempotent): the buttons under the push. On a success the chat saves the number (src/bot/saved.ts) and may
   * offer "Save as…"; on a failure it offers the next step (Try again, Change number, Add money).
   */
  finalButtons?: FinalButtons;
  /**
   * Whether a chat's messages can be edited (default: yes). A channel that cannot (WhatsApp)
   * gets no receipt edits: its receipt would only come again as a new message, and the final
   * push says the outcome; a push whose answer was lost there is then sent again, not left to an edit.
   */
  editsReceipts?: (chatId: number) => boolean;
  /** Where each push of an order is written down for the back office (notify/sent-log.ts). */
  sentLog?: SentLog;
  logger?: Logger;
  /** Unique per process (e.g. hostname-pid); a restarted process may use a new one. */
  consumerName: string;
  batchSize?: number;
  /** How long a read waits for new entries. Default 2 s. */
  blockMs?: number;
  /** Entries unacknowledged this long are taken over (crashed consumer, failed send). Default 30 s. */
  claimIdleMs?: number;
  /** Sending lock per notification. Default 60 s. */
  lockMs?: number;
  /**
   * The longest a delivery's Bot API calls can take (minSendLockMs in src/telegram/api.ts).
   * A lock shorter than this is refused: it could run out while a send is still pending, and
   * another consumer would send the same push again when the network returns.
   */
  minLockMs?: number;
  /**
   * Tries before a notification is dead-lettered when it fails for its own reasons (a refusal
   * other than 400, which is at once; a bug its data triggers), and sends of a push that may
   * have arrived (answer lost) before it is dead-lettered instead of sent once more (those sends
   * back off: resendDelayMs in retry-bound.ts). Default 8.
   */
  maxAttempts?: number;
  /**
   * How long a notification failing for passing reasons (network, timeout, 5xx, 429, Redis) is
   * retried, from when it was queued (and at least maxAttempts tries), before it is dead-lettered;
   * a push whose failures may have reached the chat ends sooner (maxAttempts such sends).
   * Default 6 hours: an outage of Telegram or of the host's network loses no result.
   */
  retryForMs?: number;
  /**
   * The longest one sleep of the reading loop's pause after a 429 (it loops until the pause
   * ends: retry_after is honoured in full, up to an hour). Default 60 s.
   */
  maxPauseMs?: number;
  /** Chats served in parallel (one chat's messages stay in order). Default 16. */
  concurrency?: number;
  /**
   * The channels whose chats this notifier serves (channel.ts). A 429 pauses one channel's
   * sends; the reading of the queue stops only while every channel listed is paused. Default
   * both; a notifier serving Telegram alone lists it, so its backlog waits a flood wait out in
   * the queue, unread, as before.
   */
  channels?: readonly Channel[];
  /**
   * Paces sends and edits under Telegram's limits. Default: createSendPacer() (memory, 30/s
   * overall, 1/s per chat). `false` turns pacing off (429s are then only reacted to).
   */
  pacer?: SendPacer | false;
  /** How to wait (pauses, back-off); a test or benchmark with its own clock passes a matching one. */
  sleep?: (ms: number) => Promise<void>;
  registry?: Registry;
  metrics?: MoneyPathMetrics;
  now?: () => number;
}

/** The notifier's numbers, defaults filled in. */
export interface NotifierSettings {
  batchSize: number;
  blockMs: number;
  claimIdleMs: number;
  lockMs: number;
  maxAttempts: number;
  retryForMs: number;
  maxPauseMs: number;
  concurrency: number;
  channels: readonly Channel[];
}

export function notifierSettings(opts: NotifierOptions): NotifierSettings {
  const lockMs = opts.lockMs ?? 60_000;
  if (opts.minLockMs !== undefined && lockMs < opts.minLockMs) {
    throw new Error(
      `notifier send lock ${lockMs} ms is shorter than its Bot API calls can take (${opts.minLockMs} ms)`,
    );
  }
  return {
    batchSize: opts.batchSize ?? 50,
    blockMs: opts.blockMs ?? 2_000,
    claimIdleMs: opts.claimIdleMs ?? 30_000,
    lockMs,
    maxAttempts: opts.maxAttempts ?? 8,
    retryForMs: opts.retryForMs ?? 6 * 3_600_000,
    maxPauseMs: opts.maxPauseMs ?? 60_000,
    concurrency: Math.max(1, opts.concurrency ?? 16),
    channels: opts.channels?.length ? opts.channels : CHANNELS,
  };
}

export type DeliveryOutcome = "sent" | "duplicate" | "dropped" | "retry" | "dead";
