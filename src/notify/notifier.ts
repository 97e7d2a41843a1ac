import type { InlineKeyboardMarkup } from "grammy/types";
import type { Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import { createMoneyPathMetrics, type MoneyPathMetrics } from "../orders/metrics.ts";
import {
  isFinal,
  type Notification,
  notificationKey,
  type Order,
  RECEIPT_RANK,
} from "../orders/model.ts";
import { type ApiSignal, mayHaveArrived, sendOnceSignal } from "../telegram/api.ts";
import { createPushMetrics } from "./metrics.ts";
import { createSendPacer, type SendPacer } from "./pacer.ts";
import type { Delivery, NotificationQueue, QueueConsumer } from "./queue.ts";
import { createReceiptEditLane, type ReceiptEdit } from "./receipt-edits.ts";
import { booksAlertText, defaultRender, type Render } from "./render.ts";

/**
 * The notifier: drains the notification queue into chats.
 *
 *  - Shown once where Telegram lets us know, counted where it does not: right before sending a new
 *    message (final push, admin alert) it takes a short sending lock, which also checks the
 *    (order, status) "sent" marker, sends, writes the marker (WAITed for under Sentinel), then
 *    acknowledges. A push is sent once (sendOnceSignal: no blind resend after a lost answer). When
 *    Telegram's answer was lost, an order with a receipt is not pushed again: the receipt edit
 *    shows the outcome. A push without a receipt (API orders, admin alerts), and any push whose
 *    sender died between its lock and its marker (the lock left behind says so), is sent again,
 *    since a lost result is worse than a duplicate, and counted
 *    (notify_push_possible_duplicates_total). Receipt edits for intermediate statuses need
 *    neither: repeating an edit changes nothing.
 *  - A status change edits the order's receipt message in place ("message is not modified" is
 *    fine); a final outcome also sends a NEW message so the phone buzzes. An intermediate status
 *    already overtaken by a later one is skipped, so a late retry cannot edit the receipt backwards.
 *  - Pushes first: a final outcome's push is sent at once, its receipt edit afterwards. Edits go
 *    through the receipt edit lane (receipt-edits.ts): they take what the pushes leave of the
 *    budget, only the newest text per receipt is sent, and the queue entry is acknowledged only
 *    once the receipt shows it, so an edit is never lost (a redelivered final whose push went out
 *    edits the receipt again instead of pushing again).
 *  - Every send and edit first takes a slot from the pacer (pacer.ts): about 30 messages per second
 *    for the bot and 1 per second per chat, so Telegram has no reason to answer 429. By default the
 *    buckets are in this process's memory; give a pacer over redisPaceStore to share one budget
 *    between processes.
 *  - 403 (the user blocked the bot): the chat is marked inactive and the notification dropped.
 *    429 anyway (another sender used the budget; the retry policy gave up): the worker pauses for
 *    retry_after, the entry is retried.
 *    Other failures are retried (entry left pending, reclaimed after claimIdleMs) up to maxAttempts,
 *    then dead-lettered for an admin.
 */

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

/** The notifier's sendMessage: at most once per call (see sendOnceSignal). */
type Push = (
  chatId: number,
  text: string,
  other: { reply_markup?: InlineKeyboardMarkup } | undefined,
  /** The order has a receipt in this chat that the delivery edits to the same outcome. */
  receipt: boolean,
) => Promise<void>;

/** A push found its key sent or held by another consumer when it came to send. */
class PushSettled extends Error {
  constructor(readonly outcome: "duplicate" | "retry") {
    super(outcome);
  }
}

export interface NotifierOptions {
  queue: NotificationQueue;
  /** Reads the order being notified about (the order store or the orders service). */
  orders: { get(reference: string): Promise<Order | null> };
  api: NotifierApi;
  render?: Render;
  /**
   * Called before a success push is sent (again on a retried delivery, so it must be idempotent):
   * the chat saves the number (src/bot/saved.ts) and may put buttons under the push ("Save as…").
   */
  onSuccess?: (order: Order) => Promise<InlineKeyboardMarkup | undefined>;
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
  /** Attempts before a notification is dead-lettered. Default 8. */
  maxAttempts?: number;
  /** Longest pause honoured for a 429's retry_after. Default 60 s. */
  maxPauseMs?: number;
  /** Chats served in parallel (one chat's messages stay in order). Default 16. */
  concurrency?: number;
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

export type DeliveryOutcome = "sent" | "duplicate" | "dropped" | "retry" | "dead";

/** What a Bot API failure means for us. grammY's GrammyError carries error_code and description. */
export function classifyApiError(err: unknown): {
  code: number | undefined;
  description: string;
  retryAfterMs: number | undefined;
} {
  const e = err as {
    error_code?: unknown;
    description?: unknown;
    message?: unknown;
    parameters?: { retry_after?: unknown };
  };
  const code = typeof e?.error_code === "number" ? e.error_code : undefined;
  const description =
    typeof e?.description === "string"
      ? e.description
      : typeof e?.message === "string"
        ? e.message
        : String(err);
  const ra = e?.parameters?.retry_after;
  return {
    code,
    description,
    retryAfterMs: typeof ra === "number" && ra >= 0 ? ra * 1000 : undefined,
  };
}

/** A chat that placed an order this long ago counts as active (the queue remembers one as long). */
const ACTIVE_MS = 60_000;

/** An order read this long ago is still current enough to render (the receipt lane's freshMs). */
const FRESH_MS = 100;

const NOT_MODIFIED = /message is not modified/i;
const CANNOT_EDIT = /message to edit not found|message can't be edited|MESSAGE_ID_INVALID/i;
const GONE_CHAT =
  /chat not found|user is deactivated|bot was kicked|bot was blocked|PEER_ID_INVALID/i;

export function createNotifier(opts: NotifierOptions) {
  const { queue, api } = opts;
  const render = opts.render ?? defaultRender;
  const log = opts.logger;
  const now = opts.now ?? Date.now;
  const metrics = opts.metrics ?? createMoneyPathMetrics(opts.registry);
  const pushMetrics = createPushMetrics(opts.registry);
  const sendOnce = sendOnceSignal();
  const batchSize = opts.batchSize ?? 50;
  const blockMs = opts.blockMs ?? 2_000;
  const claimIdleMs = opts.claimIdleMs ?? 30_000;
  const lockMs = opts.lockMs ?? 60_000;
  if (opts.minLockMs !== undefined && lockMs < opts.minLockMs) {
    throw new Error(
      `notifier send lock ${lockMs} ms is shorter than its Bot API calls can take (${opts.minLockMs} ms)`,
    );
  }
  const maxAttempts = opts.maxAttempts ?? 8;
  const maxPauseMs = opts.maxPauseMs ?? 60_000;
  const concurrency = Math.max(1, opts.concurrency ?? 16);
  const pacer =
    opts.pacer === false
      ? undefined
      : (opts.pacer ?? createSendPacer({ now, ...(opts.sleep ? { sleep: opts.sleep } : {}) }));
  const pace = async (chatId: number) => {
    await pacer?.acquire(chatId);
  };
  const edits = createReceiptEditLane({
    api,
    pacer,
    queue,
    orders: opts.orders,
    classify: classifyApiError,
    isSettled: ({ code, description }) =>
      code === 400 && (NOT_MODIFIED.test(description) || CANNOT_EDIT.test(description)),
    isGone: ({ code, description }) =>
      code === 403 || (code === 400 && GONE_CHAT.test(description)),
    onRateLimited: (ms) => {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
    metrics,
    logger: log,
    now,
    sleep: opts.sleep,
    maxAttempts,
    maxPauseMs,
    // Well inside the claim idle time, so no other consumer takes an entry still waiting here.
    keepEveryMs: claimIdleMs / 3,
  });

  let consumer: QueueConsumer | undefined;
  let pausedUntil = 0;
  let stopped = true;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  const getConsumer = () => {
    consumer ??= queue.consumer(opts.consumerName);
    return consumer;
  };

  /** Waits `ms` (through opts.sleep when given), or less when stop() wakes it. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(t);
        wake = undefined;
        resolve();
      };
      const t = opts.sleep ? undefined : setTimeout(finish, ms);
      if (opts.sleep) void opts.sleep(ms).then(finish, finish);
      wake = finish;
    });

  /** Writes a delivery's record (marker, lock release) through a Redis restart or failover. */
  const persist = async (write: () => Promise<void>) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (err) {
        if (stopped || attempt >= 40) throw err;
        await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 2_000)));
      }
    }
  };

  /** The receipt edit to hand to the lane once the delivery is through (none without a receipt). */
  function editReceipt(
    later: ReceiptEdit[],
    order: Order,
    status: Order["status"],
    text: string,
    readAt: number,
  ) {
    if (order.receiptMessageId === undefined) return;
    const { chatId, receiptMessageId: messageId, reference } = order;
    later.push({ chatId, messageId, reference, status, text, readAt });
  }

  /**
   * The order to render: the one the entry carries when it was written at most freshMs ago (as
   * good as a read; with clocks more than that apart, or an older entry, the order is read).
   */
  const orderOf = async (
    reference: string,
    written: Delivery["written"],
  ): Promise<{ order: Order | null; readAt: number }> => {
    const t = now();
    if (written && written.order.reference === reference && Math.abs(t - written.at) <= FRESH_MS)
      return { order: written.order, readAt: Math.min(t, written.at) };
    return { order: await opts.orders.get(reference), readAt: t };
  };

  /**
   * The chat placed this order (tapped Confirm) within the last ACTIVE_MS: it is as active as the
   * queue's "found active" memory says a chat is for that long, so the look at the inactive set
   * is not made (one command per order). Known from the order the entry carries.
   */
  const orderedLately = (n: Notification, written: Delivery["written"]): boolean =>
    n.kind === "status" &&
    written !== undefined &&
    written.order.reference === n.reference &&
    written.order.chatId === n.chatId &&
    Math.abs(now() - written.order.createdAt) <= ACTIVE_MS;

  /** `push` undefined: a redelivered final whose push went out; only its receipt edit is made again. */
  async function deliver(
    n: Notification,
    later: ReceiptEdit[],
    push: Push | undefined,
    written?: Delivery["written"],
  ): Promise<"sent" | "dropped"> {
    if (!orderedLately(n, written) && (await queue.isChatInactive(n.chatId))) return "dropped";
    if (n.kind === "admin_alert" && n.topic) {
      // The books' alerts are about the merchant's money, not one order: their own text.
      await push?.(n.chatId, booksAlertText(n), undefined, false);
      return "sent";
    }
    if (n.reference === undefined) return "dropped";
    // What the order was when written counts as a read at that time: the receipt lane re-reads
    // an intermediate status whose text is older than its freshMs before it edits.
    const { order, readAt } = await orderOf(n.reference, written);
    if (!order) return "dropped";
    // A prepaid receipt's "balance after" is on the order (balanceAfterPaisa, recorded when its
    // money moved), never read now: a late push must not show later movements.
    const { text, receiptText = text } = render(n, order);
    if (n.kind === "admin_alert") {
      await push?.(n.chatId, text, undefined, false);
      return "sent";
    }
    if (!isFinal(n.status)) {
      // Overtaken by a later state the receipt words differently: that one's notification shows
      // it. A later status the receipt words alike (queued -> pending) has none: this edit shows it.
      if (RECEIPT_RANK[order.status] > RECEIPT_RANK[n.status]) return "dropped";
      if (order.receiptMessageId === undefined) return "dropped";
      editReceipt(later, order, n.status, receiptText, readAt);
      return "sent";
    }
    if (push) {
      const markup = n.status === "success" ? await opts.onSuccess?.(order) : undefined;
      const receipt = order.receiptMessageId !== undefined && order.chatId === n.chatId;
      await push(n.chatId, text, markup ? { reply_markup: markup } : undefined, receipt);
    }
    editReceipt(later, order, n.status, receiptText, readAt);
    return "sent";
  }

  /**
   * The push of one notification key: the sending lock is taken right before the Bot API call, so
   * the lock left behind by an attempt that never finished marks exactly the sends that may have
   * reached the chat.
   */
  const pushFor =
    (key: string, kind: string, state: { sending: boolean }): Push =>
    async (chatId, text, other, receipt) => {
      await pace(chatId);
      const lock = await queue.lockSending(key, lockMs);
      if (lock === "held") throw new PushSettled("retry");
      if (lock === "sent") throw new PushSettled("duplicate");
      if (lock === "unanswered" && receipt) {
        // Its answer was lost and the marker not written: the receipt edit shows the outcome.
        pushMetrics.outcomeUnknown(kind, "receipt");
        return;
      }
      if (lock === "unanswered" || lock === "abandoned") {
        // The chat may have it. A push whose sender died is sent again even with a receipt: the
        // death may have come before the request left, and a lost result is worse than a repeat.
        pushMetrics.outcomeUnknown(kind, "sent_again");
        pushMetrics.possibleDuplicate(kind);
        log?.warn({ key, lock }, "push sent again after an attempt with an unknown outcome");
      }
      state.sending = true;
      try {
        await api.sendMessage(chatId, text, other, sendOnce);
      } catch (err) {
        if (!mayHaveArrived(err)) {
          state.sending = false; // not in the chat: the lock goes
          throw err;
        }
        // Telegram may have shown it: never sent blindly again. The lock stays as the record.
        await persist(() => queue.markUncertain(key)).catch(() => undefined);
        log?.warn(
          { key, receipt, err: err instanceof Error ? err.message.slice(0, 200) : String(err) },
          receipt
            ? "push answer lost; the receipt edit shows the outcome instead of a second push"
            : "push answer lost; it will be sent again (possible duplicate)",
        );
        if (!receipt) throw err;
        pushMetrics.outcomeUnknown(kind, "receipt");
      }
    };

  async function handle(c: QueueConsumer, d: Delivery): Promise<DeliveryOutcome> {
    const key = notificationKey(d.notification);
    // Editing the receipt to an intermediate status can be repeated harmlessly (the same text again
    // is "message is not modified"), so it needs neither the sent marker nor the sending lock that
    // keep a NEW message (a final push, an admin alert) from reaching the chat twice.
    const once = d.notification.kind === "admin_alert" || isFinal(d.notification.status);
    const counted = d.reclaimed === true;
    const ack = () => c.ack(d.id, counted);
    /** The push went out before: the receipt edit may not have, so it is made again (no push). */
    const duplicate = async (): Promise<"duplicate"> => {
      const later: ReceiptEdit[] = [];
      if (d.notification.kind === "status")
        await deliver(d.notification, later, undefined, d.written);
      await handOver(later);
      return "duplicate";
    };
    /** Acknowledged now, or by the edit lane once the receipt shows the edit. */
    const handOver = async (later: ReceiptEdit[]) => {
      const [edit] = later;
      if (edit) edits.add(edit, d, c);
      else await ack();
    };
    // A first delivery of an entry is almost never a duplicate: its only look at the marker is the
    // one the sending lock takes. A reclaimed one may well be, and is settled without the lock.
    if (once && counted && (await queue.isSent(key))) return duplicate();
    const attempts = counted ? 1 + (await c.noteAttempt(d.id)) : 1;
    if (attempts > maxAttempts) {
      await queue.deadLetter(d, "too many attempts");
      await ack();
      metrics.notificationsFailed.inc({ reason: "dead_letter" });
      log?.error({ reference: d.notification.reference, key }, "notification dead-lettered");
      return "dead";
    }
    // The marker replaces the lock (one key): nothing to release once it is written. Once a send
    // may have reached the chat the lock is not released either: it stays as the record of it.
    let marked = false;
    const state = { sending: false };
    try {
      const later: ReceiptEdit[] = [];
      const push = once ? pushFor(key, d.notification.kind, state) : undefined;
      const outcome = await deliver(d.notification, later, push, d.written);
      if (outcome === "sent") {
        // The chat has the message now. If the marker cannot be written (Redis restarting, or
        // not yet on a replica under Sentinel), keep trying while the sending lock is held:
        // giving up here is what sends it a second time.
        if (once) {
          await persist(() => queue.markSent(key));
          marked = true;
        }
        // An intermediate status is counted by the lane, once its edit is made.
        if (once) metrics.notificationsSent.inc({ kind: d.notification.kind });
      }
      await handOver(outcome === "sent" ? later : []);
      return outcome;
    } catch (err) {
      if (err instanceof PushSettled) {
        return err.outcome === "duplicate" ? duplicate() : "retry";
      }
      const { code, description, retryAfterMs } = classifyApiError(err);
      if (code === 403 || (code === 400 && GONE_CHAT.test(description))) {
        await queue.markChatInactive(d.notification.chatId);
        await ack();
        metrics.notificationsFailed.inc({ reason: "blocked" });
        log?.info({ chatId: d.notification.chatId, code }, "chat unreachable; marked inactive");
        return "dropped";
      }
      if (code === 400) {
        await queue.deadLetter(d, `bad request: ${description.slice(0, 200)}`);
        await ack();
        metrics.notificationsFailed.inc({ reason: "bad_request" });
        log?.error({ reference: d.notification.reference, description }, "notification refused");
        return "dead";
      }
      if (code === 429) {
        pausedUntil = Math.max(pausedUntil, now() + Math.min(retryAfterMs ?? 1_000, maxPauseMs));
        metrics.notificationsFailed.inc({ reason: "rate_limited" });
      } else {
        metrics.notificationsFailed.inc({ reason: "transient" });
      }
      log?.warn(
        { reference: d.notification.reference, key, code, description: description.slice(0, 200) },
        "notification failed; will retry",
      );
      return "retry";
    } finally {
      // Released only when nothing reached the chat; a release that cannot be written (Redis
      // away) would leave the lock to say "abandoned" and have the push counted as a duplicate.
      if (once && !marked && !state.sending)
        await persist(() => queue.unlockSending(key)).catch(() => undefined);
    }
  }

  // Deliveries are dispatched as they are read, not batch by batch: a push read while an earlier
  // one waits for its slot (or for Telegram) is prepared meanwhile instead of waiting for the whole
  // batch, which under load turned arrivals into bursts. One chat's deliveries still run in order.
  const chatTails = new Map<number, Promise<unknown>>();
  const inFlight = new Set<Promise<unknown>>();
  let handling = 0;
  const permitWaiters: Array<() => void> = [];
  let roomMade: (() => void) | undefined;

  /** At most `concurrency` deliveries are handled at once (each chat's one after another). */
  async function withPermit<T>(f: () => Promise<T>): Promise<T> {
    if (handling >= concurrency) await new Promise<void>((r) => permitWaiters.push(r));
    else handling++;
    try {
      return await f();
    } finally {
      const next = permitWaiters.shift();
      if (next) next();
      else handling--;
    }
  }

  /** Starts one delivery after its chat's previous one. */
  function dispatch(c: QueueConsumer, d: Delivery): Promise<DeliveryOutcome> {
    const chatId = d.notification.chatId;
    const run = (chatTails.get(chatId) ?? Promise.resolve()).then(() =>
      pausedUntil > now() ? ("retry" as const) : withPermit(() => handle(c, d)),
    );
    const tail = run.catch(() => undefined);
    chatTails.set(chatId, tail);
    inFlight.add(tail);
    void tail.then(() => {
      if (chatTails.get(chatId) === tail) chatTails.delete(chatId);
      inFlight.delete(tail);
      roomMade?.();
    });
    return run;
  }

  /** One read: stale entries (when `claim`), then new ones; dispatched, not awaited. */
  async function readAndDispatch(waitMs: number, claim: boolean) {
    const c = getConsumer();
    // Entries waiting in the edit lane are ours already (claimIdleMs 0 takes them back at once).
    const stale = claim
      ? (await c.claimStale(claimIdleMs, batchSize)).filter((d) => !edits.holds(d.id))
      : [];
    const room = batchSize - inFlight.size - stale.length;
    const fresh = room > 0 ? await c.read(room, stale.length ? 0 : waitMs) : [];
    return [...stale, ...fresh].map((d) => dispatch(c, d));
  }

  /** One pass: take over stale entries, read new ones (waiting up to waitMs), deliver them. */
  async function runOnce(waitMs = 0): Promise<DeliveryOutcome[]> {
    return Promise.all(await readAndDispatch(waitMs, true));
  }

  /** Resolves when a delivery finished (or stop() was called). */
  const room = () =>
    new Promise<void>((resolve) => {
      roomMade = () => {
        roomMade = undefined;
        resolve();
      };
      wake = roomMade;
    });

  async function run(): Promise<void> {
    let failures = 0;
    let lastClaim = Number.NEGATIVE_INFINITY;
    while (!stopped) {
      try {
        const pause = pausedUntil - now();
        if (pause > 0) await sleep(pause);
        if (stopped) break;
        if (inFlight.size >= batchSize) {
          await room();
          continue;
        }
        // Stale entries only appear after claimIdleMs: looking a few times per idle time is enough.
        const claim = now() - lastClaim >= Math.min(claimIdleMs / 4, 1_000);
        if (claim) lastClaim = now();
        const started = await readAndDispatch(blockMs, claim);
        for (const p of started)
          p.catch((err) =>
            log?.warn(
              { err: err instanceof Error ? err.message : String(err) },
              "notification failed; the queue will redeliver it",
            ),
          );
        failures = 0;
      } catch (err) {
        if (stopped) break;
        failures++;
        log?.warn(
          { err: err instanceof Error ? err.message : String(err), failures },
          "notifier loop error; backing off",
        );
        await sleep(Math.min(200 * 2 ** Math.min(failures, 6), 10_000));
      }
    }
    await Promise.all([...inFlight]);
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    /** Stops after the deliveries in flight; unacknowledged entries stay for the next consumer. */
    async stop() {
      stopped = true;
      wake?.();
      await consumer?.close();
      await loop;
      await edits.stop();
      consumer = undefined;
      loop = undefined;
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
