import type { Logger } from "../logger.ts";
import type { MoneyPathMetrics } from "../orders/metrics.ts";
import { isFinal } from "../orders/model.ts";
import { classifyApiError, isGoneChat } from "./api-errors.ts";
import { channelOf } from "./channel.ts";
import { type Deliver, INACTIVE_CHAT } from "./deliver.ts";
import type { DeliveryOutcome, NotifierOrders } from "./options.ts";
import { type PushFor, PushSettled, type SendingState } from "./push.ts";
import { type Delivery, type NotificationQueue, type QueueConsumer, queuedAt } from "./queue.ts";
import type { ReceiptEditLane } from "./receipt-edits.ts";
import type { ReceiptEdit } from "./receipt-lane.ts";
import { backingOff, isPassing } from "./retry-bound.ts";
import { persist, type RunState } from "./run-state.ts";
import { sendKeyOf } from "./send-key.ts";

/**
 * One queue entry from read to acknowledgement: the sent marker and the sending lock around a
 * push (a final outcome, an admin alert), the attempts of a redelivered entry, and what a failure
 * means (chat gone, bad request, 429, passing). Receipt edits are handed to the edit lane, which
 * acknowledges the entry once the receipt shows them.
 *
 * How long an entry is retried depends on what its failures say. One that says nothing about the
 * message (network, timeout, 5xx, 429, Redis: retry-bound.ts) is retried until the entry is
 * `retryForMs` old (hours: a Telegram outage of minutes loses nothing) and at least maxAttempts
 * tries were made; one about the message itself (a refusal, a bug its data triggers) is
 * dead-lettered after maxAttempts tries (a 400 at once). A push that may have arrived (its answer
 * lost) is sent again at most until maxAttempts such sends are on the sending lock's record, then
 * dead-lettered (push.ts): hours of resends would be hundreds of copies. Those sends back off
 * (resendDelayMs): a reclaim before the record's retry time sends nothing ("retry"), and the age
 * bound waits for a resend the record still owes. Dead letters can be
 * replayed (replay-dead.ts): the sent marker and the sending lock's record keep a replay from
 * pushing twice.
 */

export interface HandleDeps {
  queue: NotificationQueue;
  deliver: Deliver;
  pushFor: PushFor;
  orders: NotifierOrders;
  edits: ReceiptEditLane;
  metrics: MoneyPathMetrics;
  logger: Logger | undefined;
  state: RunState;
  maxAttempts: number;
  /** A passing failure is retried until the entry is this old (and maxAttempts were made). */
  retryForMs: number;
  now: () => number;
}

export type Handle = (c: QueueConsumer, d: Delivery) => Promise<DeliveryOutcome>;

/**
 * Whether the store still holds the final status an entry announces, asked once its push holds
 * the sending lock. Without a reconnect since the entry was read, it does (no read). After one, a
 * Redis restart may have lost the order's last write, or a failover the writes the promoted
 * replica never had: the order is read. Pushed anyway, the chat would be told an outcome the books
 * no longer hold, and then, once the order is settled again, perhaps the other one.
 */
function stillAnnounced(deps: HandleDeps, d: Delivery): (() => Promise<boolean>) | undefined {
  const { notification: n } = d;
  const reference = n.reference;
  if (n.kind !== "status" || reference === undefined) return undefined;
  return async () =>
    deps.queue.unbroken(d) || (await deps.orders.get(reference))?.status === n.status;
}

/** Gives an entry up: dead-lettered (an admin can replay it) and acknowledged. */
async function giveUp(
  deps: HandleDeps,
  d: Delivery,
  key: string,
  reason: string,
  ack: () => Promise<void>,
): Promise<"dead"> {
  await deps.queue.deadLetter(d, reason);
  await ack();
  deps.metrics.notificationsFailed.inc({ reason: "dead_letter" });
  deps.logger?.error(
    { reference: d.notification.reference, key, reason },
    "notification dead-lettered",
  );
  return "dead";
}

/**
 * A delivery whose send failed: dropped (chat gone), dead-lettered (refused, or failing for its
 * own reasons too often) or left to retry. `attempts`: this one included.
 */
async function settleFailure(
  deps: HandleDeps,
  d: Delivery,
  key: string,
  err: unknown,
  attempts: number,
  ack: () => Promise<void>,
): Promise<DeliveryOutcome> {
  const { queue, metrics } = deps;
  const log = deps.logger;
  const failure = classifyApiError(err);
  const { code, description, retryAfterMs } = failure;
  if (isGoneChat(failure)) {
    await queue.markChatInactive(d.notification.chatId);
    await ack();
    metrics.notificationsFailed.inc({ reason: "blocked" });
    log?.info({ chatId: d.notification.chatId, code }, "chat unreachable; marked inactive");
    const n = d.notification;
    // An admin who hears of no new complaint (never started the bot, blocked it) must be found
    // out (review s33-rvcomp 3); the other admins' alerts are entries of their own.
    if (n.kind === "complaint" && n.status === "raised")
      log?.warn(
        { complaint: n.complaint, admin: n.chatId, err: description.slice(0, 200) },
        "complaint alert not sent to an admin",
      );
    return "dropped";
  }
  if (code === 400) {
    await queue.deadLetter(d, `bad request: ${description.slice(0, 200)}`);
    await ack();
    metrics.notificationsFailed.inc({ reason: "bad_request" });
    log?.error({ reference: d.notification.reference, description }, "notification refused");
    return "dead";
  }
  if (!isPassing(err, failure) && attempts >= deps.maxAttempts)
    return giveUp(deps, d, key, `failed ${attempts} times: ${description.slice(0, 200)}`, ack);
  if (code === 429) {
    // Its channel's hold only: Telegram's flood wait does not stop WhatsApp's pushes.
    deps.state.rateLimited(channelOf(d.notification.chatId), retryAfterMs, failure.heldUntil);
    metrics.notificationsFailed.inc({ reason: "rate_limited" });
  } else {
    metrics.notificationsFailed.inc({ reason: "transient" });
  }
  log?.warn(
    { reference: d.notification.reference, key, code, description: description.slice(0, 200) },
    "notification failed; will retry",
  );
  return "retry";
}

/**
 * What a delivery comes to before any send: given up on at the age bound, or left to back off.
 * `reclaimedPush`: a push (sent once) that was reclaimed, the only kind with a record to read.
 */
async function beforeSend(
  deps: HandleDeps,
  d: Delivery,
  key: string,
  reclaimedPush: boolean,
  attempts: number,
  ack: () => Promise<void>,
): Promise<"dead" | "retry" | undefined> {
  // Failures about the message itself were given up on when they happened (settleFailure):
  // what comes back here failed for passing reasons, or its consumer died.
  const age = deps.now() - queuedAt(d);
  // A reclaimed push whose send may have arrived: its record says whether a resend is owed, and
  // when. Read before the pacer's slot and the lock, which a push backing off must not take.
  const record = reclaimedPush ? await deps.queue.unansweredRecord(key) : undefined;
  // Past the age bound, a push whose record still owes a resend (a retry time on it) is not
  // given up on: the back-off's wait (up to an hour) may end after the bound, and Telegram may
  // be back by then. The resend is made when due; it ends in a sent push, a new retry time (the
  // 8-send bound ends those), or a failure that sent nothing and clears the time (push.ts).
  const owed = record?.retryAt !== undefined;
  if (attempts > deps.maxAttempts && !(age < deps.retryForMs) && !owed) {
    const minutes = Math.round(age / 60_000);
    return giveUp(deps, d, key, `still failing after ${minutes} min (${attempts - 1} tries)`, ack);
  }
  // Backing off: nothing to send before the record's retry time, so no slot, lock or order read
  // (every claim idle time for up to hours). One whose sends are spent goes on to be given up.
  const waits = record !== undefined && record.uncertain < deps.maxAttempts;
  return waits && backingOff(record.retryAt, deps.now()) ? "retry" : undefined;
}

export function createHandle(deps: HandleDeps): Handle {
  const { queue, deliver, edits, metrics, state } = deps;
  return async (c, d) => {
    const key = sendKeyOf(d.notification);
    // Editing the receipt to an intermediate status can be repeated harmlessly (the same text again
    // is "message is not modified"), so it needs neither the sent marker nor the sending lock that
    // keep a NEW message (a final push, an admin alert, a complaint's notice) from reaching the
    // chat twice.
    const n = d.notification;
    const once = n.kind !== "status" || isFinal(n.status);
    const counted = d.reclaimed === true;
    const ack = () => c.ack(d.id, counted);
    /**
     * Acknowledged now, or by the edit lane once the receipt shows the edit. `carries`: the edit
     * is the only carrier of this push's outcome (its answer was lost).
     */
    const handOver = async (later: ReceiptEdit[], carries?: string) => {
      const [edit] = later;
      if (edit) edits.add(edit, d, c, carries);
      else await ack();
    };
    /** The push went out before: the receipt edit may not have, so it is made again (no push). */
    const duplicate = async (): Promise<"duplicate"> => {
      const later: ReceiptEdit[] = [];
      if (d.notification.kind === "status")
        await deliver(d.notification, later, undefined, d.written);
      await handOver(later);
      return "duplicate";
    };
    // A first delivery of an entry is almost never a duplicate: its only look at the marker is the
    // one the sending lock takes. A reclaimed one may well be, and is settled without the lock.
    if (once && counted && (await queue.isSent(key))) return duplicate();
    const attempts = counted ? 1 + (await c.noteAttempt(d.id)) : 1;
    const early = await beforeSend(deps, d, key, once && counted, attempts, ack);
    if (early !== undefined) return early;
    // The marker replaces the lock (one key): nothing to release once it is written. Once a send
    // may have reached the chat the lock is not released either: it stays as the record of it.
    let marked = false;
    const sending: SendingState = { sending: false };
    try {
      const later: ReceiptEdit[] = [];
      const push = once
        ? deps.pushFor(key, d.notification.kind, sending, stillAnnounced(deps, d))
        : undefined;
      const outcome = await deliver(d.notification, later, push, d.written);
      if (outcome === "undelivered") return giveUp(deps, d, key, INACTIVE_CHAT, ack);
      if (outcome === "sent" && once && sending.carried) {
        // The push's answer was lost: the chat is told once the receipt edit shows the outcome.
        // The lane writes the marker then and counts it; until then the lock's record stays.
        await handOver(later, key);
        return outcome;
      }
      if (outcome === "sent" && once) {
        // The chat has the message now. If the marker cannot be written (Redis restarting, or
        // not yet on a replica under Sentinel), keep trying while the sending lock is held:
        // giving up here is what sends it a second time.
        await persist(state, () => queue.markSent(key));
        marked = true;
        // An intermediate status is counted by the lane, once its edit is made.
        metrics.notificationsSent.inc({ kind: d.notification.kind });
      }
      await handOver(outcome === "sent" ? later : []);
      return outcome;
    } catch (err) {
      if (err instanceof PushSettled) {
        if (err.outcome === "duplicate") return duplicate();
        if (err.outcome === "retry") return "retry";
        if (err.outcome === "spent")
          return giveUp(deps, d, key, `sent ${err.uncertain} times without an answer`, ack);
        // Withheld: the order's next final status has an entry of its own.
        await ack();
        return "dropped";
      }
      return settleFailure(deps, d, key, err, attempts, ack);
    } finally {
      // Released only when nothing reached the chat; a release that cannot be written (Redis
      // away) would leave the lock to say "abandoned" and have the push counted as a duplicate.
      if (once && !marked && !sending.sending)
        await persist(state, () =>
          queue.unlockSending(key, sending.resent ? { resent: true } : undefined),
        ).catch(() => undefined);
    }
  };
}
