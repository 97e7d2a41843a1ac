import type { Logger } from "../logger.ts";
import type { MoneyPathMetrics } from "../orders/metrics.ts";
import type { Order } from "../orders/model.ts";
import type { ApiFailure } from "./api-errors.ts";
import type { Channel } from "./channel.ts";
import type { SendPacer } from "./pacer.ts";
import type { Delivery, NotificationQueue, QueueConsumer } from "./queue.ts";

/**
 * What the receipt edit lane's parts share (receipt-edits.ts): an edit, the lane's options, the
 * receipts waiting and the queue entries each stands for, and the lane's stoppable wait.
 */

/** A receipt to edit and what to show on it. */
export interface ReceiptEdit {
  chatId: number;
  messageId: number;
  reference: string;
  /** The status the text shows. */
  status: Order["status"];
  text: string;
  /** When the order the text was rendered from was read (the notifier's clock). */
  readAt: number;
}

export interface ReceiptEditLaneOptions {
  api: { editMessageText(chatId: number, messageId: number, text: string): Promise<unknown> };
  /** Telegram's pacer: asked for a slot before an edit in a Telegram chat (none: not paced). */
  pacer: SendPacer | undefined;
  /** The channel of a chat (channel.ts): its pause is the one an edit there waits for. */
  channelOf: (chatId: number) => Channel;
  queue: NotificationQueue;
  orders: { get(reference: string): Promise<Order | null> };
  classify: (err: unknown) => ApiFailure;
  /** "message is not modified" or a message that cannot be edited: nothing more to do. */
  isSettled: (e: ApiFailure) => boolean;
  /**
   * Of those, a message that cannot be edited (deleted, too old): the chat was not told, so an
   * edit carrying a push's outcome hands it back to the queue to be pushed anew.
   */
  isUneditable: (e: ApiFailure) => boolean;
  /** The chat is gone (403, chat not found): mark it inactive. */
  isGone: (e: ApiFailure) => boolean;
  /** Nothing was sent (api-errors.ts `sentNothing`): waited out, no try used up. */
  sentNothing: (e: ApiFailure) => boolean;
  /** How long (from when its entry was queued) an edit that keeps sending nothing is tried. */
  retryForMs: number;
  /** A 429 (or the pacer's SendsHeld): the notifier pauses that channel's pushes too (RunState). */
  onRateLimited: (channel: Channel, e: ApiFailure) => void;
  /** The notifier's pause of a channel left (ms): an edit's 429 is waited out until it ends. */
  pauseLeft: (channel: Channel) => number;
  metrics: MoneyPathMetrics;
  logger: Logger | undefined;
  now: () => number;
  sleep: ((ms: number) => Promise<void>) | undefined;
  /** Tries of one edit that fails for a passing reason, before it is dead-lettered. */
  maxAttempts: number;
  /** The longest one sleep of a 429's pause (a longer pause is slept a piece at a time). */
  maxPauseMs: number;
  /** How often (real ms) the entries waiting here are kept claimed; under the claim idle time. */
  keepEveryMs: number;
  /** A text older than this re-reads the order before it is sent. Default 100 ms. */
  freshMs?: number;
}

export interface Waiting {
  delivery: Delivery;
  consumer: QueueConsumer;
  /** The status its notification was about; it is acknowledged once the receipt shows this or newer. */
  rank: number;
  /** The key of the push whose outcome this edit carries (its answer was lost): marked sent once shown. */
  carries: string | undefined;
}

export interface Job {
  edit: ReceiptEdit;
  waiting: Waiting[];
}

export const keyOf = (e: { chatId: number; messageId: number }) => `${e.chatId}:${e.messageId}`;

export const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What the lane's rounds share: its options, the receipts waiting and the entries they hold. */
export interface Lane {
  opts: ReceiptEditLaneOptions;
  freshMs: number;
  jobs: Map<string, Job>;
  /** Entry ids waiting here, so the notifier does not handle a reclaimed one again meanwhile. */
  held: Set<string>;
}

/** Waits `ms` (through opts.sleep when given), or less when the lane is stopped. */
export const pause = (lane: Lane, ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const sleep = lane.opts.sleep;
    const t = sleep ? undefined : setTimeout(done, ms);
    if (sleep) void sleep(ms).then(done, done);
    signal.addEventListener("abort", done, { once: true });
  });
