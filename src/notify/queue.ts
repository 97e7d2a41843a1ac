import type { Notification, Order } from "../orders/model.ts";

/**
 * The durable notification queue port (Redis Streams + consumer group in production, memory in the
 * embedded mode). The order store appends to it atomically with each status change (the outbox);
 * the notifier consumes it. Delivery is at least once; the "sent" markers below turn that into
 * "the user sees each (order, status) once".
 */

export interface Delivery {
  /**
   * Queue entry id: "<ms>-<seq>", a stream id for Redis (the memory queue's alike), whose time is
   * when the entry was queued (queuedAt).
   */
  id: string;
  notification: Notification;
  /**
   * Taken over by claimStale: an earlier attempt failed or its consumer died. Only such entries
   * have their attempts counted; a first delivery is attempt 1 and costs no bookkeeping.
   */
  reclaimed?: true;
  /**
   * The order as the change that queued this entry wrote it (the Redis outbox carries it), and
   * when (the entry's time, the queue's clock): the notifier's read of the order, while fresh.
   */
  written?: { order: Order; at: number };
  /**
   * The queue's connect count before this entry was read (Redis: connectCount). A (re)connect
   * since then may mean a restart or failover that lost what the entry announces: see `unbroken`.
   */
  connects?: number;
}

/** When an entry was queued, from its id (NaN for an id of another form). */
export function queuedAt(d: Pick<Delivery, "id">): number {
  const dash = d.id.indexOf("-");
  return dash > 0 ? Number(d.id.slice(0, dash)) : Number.NaN;
}

export interface QueueConsumer {
  readonly name: string;
  /** New entries for this consumer; waits up to blockMs when there are none. */
  read(count: number, blockMs: number): Promise<Delivery[]>;
  /** Entries delivered (to any consumer) but unacknowledged for at least minIdleMs, now ours. */
  claimStale(minIdleMs: number, count: number): Promise<Delivery[]>;
  /**
   * Done with an entry (sent, dropped or dead-lettered). `counted`: noteAttempt was called for it,
   * so its count is removed too.
   */
  ack(id: string, counted?: boolean): Promise<void>;
  /**
   * Still working on these entries (receipt edits waiting for a slot): resets their idle time, so
   * no claimStale takes them while this consumer lives. Ids already acknowledged are ignored.
   */
  keep(ids: readonly string[]): Promise<void>;
  /** Counts one more retry of a reclaimed entry; returns how many retries so far. */
  noteAttempt(id: string): Promise<number>;
  /** Stops reading (a blocked read returns empty). */
  close(): Promise<void>;
}

export interface NotificationQueue {
  /** Appends notifications outside an order change (the store's outbox is the usual producer). */
  enqueue(notifications: readonly Notification[]): Promise<void>;
  /** A consumer in the notifier group; a new name after a crash is fine (claimStale recovers). */
  consumer(name: string): QueueConsumer;

  /** Whether a notification key (order + status) was already delivered. */
  isSent(key: string): Promise<boolean>;
  markSent(key: string): Promise<void>;
  /**
   * A short exclusive claim on sending one key, so two consumers do not send it at once; in the
   * same step it tells a key already sent ("sent") from one another consumer holds ("held"). The
   * claim is also the record that a send was tried: taken right before the Bot API call, it
   * outlives its `ttlMs` (then it no longer excludes anyone), and a later claim on a key whose
   * earlier attempt left it behind is answered (and taken) "abandoned" (that attempt's consumer
   * died mid-send) or "unanswered" (its answer was lost: markUncertain): the chat may have it.
   * The record counts those sends across claims and instances (`uncertain`), which bounds how
   * often a push that may have arrived is sent again.
   */
  lockSending(key: string, ttlMs: number): Promise<SendClaim>;
  /**
   * The record of this key's sends whose answers were lost (what lockSending would answer
   * "unanswered" with), read without taking the lock; undefined when the key has no such record
   * (none, sent, held now, or left by a sender that died). A push backing off is told from it
   * before it takes a slot under Telegram's limits (push.ts), and an entry past its age bound whose
   * resend is still owed is not given up on (handle.ts).
   */
  unansweredRecord(key: string): Promise<UnansweredRecord | undefined>;
  /**
   * This claim's send did not reach the chat (a definite failure, or nothing sent): the claim
   * goes, and the key's record is what it was before it (none, or the earlier sends that may
   * have arrived, with their count). `resent`: the send was the resend the record's retry time
   * asked for (it failed before reaching the chat), so the record goes back without that time:
   * the resend is no longer owed (handle.ts's age bound).
   */
  unlockSending(key: string, opts?: { resent?: boolean }): Promise<void>;
  /**
   * The send's answer was lost: the claim ends now, its record stays (counted by the next claim),
   * with what the next claim answers besides: `retryAt`, when the push may be sent again (the
   * back-off of a push no receipt carries), and `receiptGone`, kept from the record this claim
   * replaced (SendClaim).
   */
  markUncertain(key: string, next?: UncertainNext): Promise<void>;
  /**
   * The receipt edit that was to carry the outcome of this key's push (its answer lost) cannot be
   * made (the message was deleted, or is too old to edit): the record of the lost send says so,
   * and the next claim answers `receiptGone`, so the push is sent as a new message. Only a record
   * whose answer was lost is changed (not a sent marker, nor a lock held now). False: a lock is
   * held on the key now (another claim), so the record could not be marked; the caller tries
   * again (let go unmarked, the entry's reclaim would edit the gone receipt once more, and so on).
   * True otherwise: marked now or before, or nothing left to mark (sent, no record, a lock
   * past its time, which the next claim sends again anyway).
   */
  markReceiptGone(key: string): Promise<boolean>;
  /**
   * The push is given up on (dead-lettered) after too many sends that may have arrived: the claim
   * ends, the record still says the chat may have it, and its count starts again, so that a
   * replay of the dead letter sends it once more (a possible duplicate) instead of giving up at once.
   */
  giveUpSending(key: string): Promise<void>;

  /** Chats that blocked the bot or cannot be reached (403): notifications to them are dropped. */
  markChatInactive(chatId: number): Promise<void>;
  isChatInactive(chatId: number): Promise<boolean>;
  /** When the user talks to the bot again (any update from them: bot/reactivate.ts). */
  reactivateChat(chatId: number): Promise<void>;
  /**
   * A push to the chat was accepted: a mark on it is wrong. Clears a mark known without a read
   * (one this process wrote), so that the normal path costs no command.
   */
  chatReached(chatId: number): Promise<void>;

  /** Notifications given up on after repeated failures, newest first. */
  deadLetter(delivery: Delivery, reason: string): Promise<void>;
  listDead(
    limit: number,
  ): Promise<Array<{ notification: Notification; reason: string; at: number }>>;

  /**
   * No connection to the store was (re)established since `d` was read, so the order change it
   * announces is still stored (a restart or failover closes every connection). False when that
   * cannot be told: the caller reads the order again before telling the chat about it.
   */
  unbroken(d: Delivery): boolean;

  /** Entries not yet acknowledged (new + in flight); for health checks and tests. */
  backlog(): Promise<number>;
}

/**
 * What taking the sending lock found: free ("locked"), sent, held by another consumer now, or
 * tried before with an unknown outcome (the lock is ours now): "abandoned" by a consumer that
 * died mid-send, or "unanswered" (the Bot API's answer was lost).
 */
export type SendLock = "locked" | "sent" | "held" | "abandoned" | "unanswered";

/**
 * A claim on sending one key. `uncertain`: the earlier sends of the key that may have reached
 * the chat (lost answers, senders that died mid-send), 0 unless `lock` is "abandoned" or
 * "unanswered".
 */
export interface SendClaim {
  lock: SendLock;
  uncertain: number;
  /**
   * "unanswered" only, when the lost send asked for it: the push is not sent again before this
   * time (the notifier's clock, ms); the claim is then put back (unlockSending).
   */
  retryAt?: number;
  /** "unanswered" only: the receipt cannot carry the outcome (markReceiptGone); push it anew. */
  receiptGone?: true;
}

/** A lost answer's record, read without a claim (unansweredRecord): its fields as in SendClaim. */
export interface UnansweredRecord {
  /** The sends on the record that may have reached the chat (the next claim's `uncertain`). */
  uncertain: number;
  retryAt?: number;
  receiptGone?: true;
}

/** What the record of a send whose answer was lost tells the next claim (markUncertain). */
export interface UncertainNext {
  retryAt?: number;
  receiptGone?: boolean;
}

/** How long a "sent" marker lives: far longer than any redelivery could take. */
export const SENT_MARKER_TTL_MS = 30 * 24 * 3600 * 1000;
/** How many dead letters are kept. */
export const DEAD_CAP = 1000;
