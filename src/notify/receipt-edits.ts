import { setMaxListeners } from "node:events";
import type { Logger } from "../logger.ts";
import type { MoneyPathMetrics } from "../orders/metrics.ts";
import { isFinal, type Order, RECEIPT_RANK, STATUS_RANK } from "../orders/model.ts";
import type { ApiFailure } from "./api-errors.ts";
import type { Channel } from "./channel.ts";
import { type SendPacer, SendsHeld } from "./pacer.ts";
import { type Delivery, type NotificationQueue, type QueueConsumer, queuedAt } from "./queue.ts";

/**
 * The receipt edits' lane: bringing a receipt up to date waits for what the final pushes leave of
 * Telegram's budget, so a push never queues behind an edit (pacer.ts, kind "edit").
 *
 *  - Coalesced: one edit per receipt is waiting at a time; a newer status replaces the text it will
 *    send, so under load only the newest state is sent, once.
 *  - Never lost: the queue entries an edit stands for are acknowledged only after the receipt shows
 *    it (or a newer state). Until then they stay in the queue's pending list and this lane keeps
 *    them claimed; if the process dies they are reclaimed by another consumer, whose notifier
 *    edits again (the same text is "message is not modified", which is fine).
 *  - Never backwards: an edit whose text is older than `freshMs` re-reads the order first and is
 *    dropped when the order has moved on to a state the receipt words differently (that state has
 *    a notification of its own; one worded alike, RECEIPT_RANK, has none and shows the same).
 *  - Never the only carrier given up on: an edit standing in for a push whose answer was lost
 *    (`carries`) is the one way the chat learns the outcome. Its sent marker is written once the
 *    receipt shows it; after maxAttempts passing failures its entries are not dead-lettered but
 *    left pending, so the queue retries them under the push's own bounds (handle.ts).
 *  - Never told by a receipt that is not there: "message to edit not found" (or can't be edited)
 *    shows the chat nothing, so an edit carrying a push's outcome marks the push's record
 *    "receipt gone" and lets its entries go unacknowledged: the queue reclaims them and the push
 *    is sent as a new message, under its sending lock and sent marker (push.ts). "Message is not
 *    modified" means the receipt shows the text already: told.
 *  - Not worn out by what sent nothing: an answer that says nothing went out (`sentNothing`: the
 *    WhatsApp router's 503 while its sends are held after Meta's rate limit, for a minute or more)
 *    uses up none of the edit's tries; the edit waits (1 s doubling to 30 s) and is made once the
 *    hold ends, given up only when its oldest entry is retryForMs old, as a push is (handle.ts).
 *    Telegram's edits are not paused for it (no onRateLimited).
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

interface Waiting {
  delivery: Delivery;
  consumer: QueueConsumer;
  /** The status its notification was about; it is acknowledged once the receipt shows this or newer. */
  rank: number;
  /** The key of the push whose outcome this edit carries (its answer was lost): marked sent once shown. */
  carries: string | undefined;
}

interface Job {
  edit: ReceiptEdit;
  waiting: Waiting[];
}

const keyOf = (e: { chatId: number; messageId: number }) => `${e.chatId}:${e.messageId}`;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What the lane's rounds share: its options, the receipts waiting and the entries they hold. */
interface Lane {
  opts: ReceiptEditLaneOptions;
  freshMs: number;
  jobs: Map<string, Job>;
  /** Entry ids waiting here, so the notifier does not handle a reclaimed one again meanwhile. */
  held: Set<string>;
}

/** Waits `ms` (through opts.sleep when given), or less when the lane is stopped. */
const pause = (lane: Lane, ms: number, signal: AbortSignal) =>
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

/** Keeps every entry waiting here claimed, one command per consumer. */
async function keepClaimed(lane: Lane): Promise<void> {
  const byConsumer = new Map<QueueConsumer, string[]>();
  for (const job of lane.jobs.values()) {
    for (const w of job.waiting) {
      const ids = byConsumer.get(w.consumer) ?? [];
      ids.push(w.delivery.id);
      byConsumer.set(w.consumer, ids);
    }
  }
  for (const [consumer, ids] of byConsumer) {
    await consumer
      .keep(ids)
      .catch((err: unknown) =>
        lane.opts.logger?.warn(
          { err: message(err) },
          "could not keep waiting receipt edits claimed",
        ),
      );
  }
}

/** Acknowledges what the receipt now shows; the rest waits for the job's next round. */
async function settle(
  lane: Lane,
  job: Job,
  shownRank: number,
  kind: "shown" | "overtaken",
): Promise<void> {
  const done = job.waiting.filter((w) => w.rank <= shownRank);
  for (const w of done) {
    // The chat is told now: the marker says so before the entry goes (a redelivery edits only).
    if (w.carries !== undefined && kind === "shown") await lane.opts.queue.markSent(w.carries);
    await w.consumer.ack(w.delivery.id, w.delivery.reclaimed === true);
    lane.held.delete(w.delivery.id);
    job.waiting.splice(job.waiting.indexOf(w), 1);
    // A final push was counted when it was sent; an intermediate status is this edit.
    const n = w.delivery.notification;
    if (kind === "shown" && n.kind === "status" && (!isFinal(n.status) || w.carries !== undefined))
      lane.opts.metrics.notificationsSent.inc({ kind: n.kind });
  }
}

/** Gives up on a receipt: its entries are acknowledged (and dead-lettered when refused). */
async function drop(lane: Lane, job: Job, reason: "blocked" | "dead", why: string): Promise<void> {
  for (const w of job.waiting) {
    if (reason === "dead") await lane.opts.queue.deadLetter(w.delivery, why);
    await w.consumer.ack(w.delivery.id, w.delivery.reclaimed === true);
    lane.held.delete(w.delivery.id);
  }
  job.waiting.length = 0;
  lane.opts.metrics.notificationsFailed.inc({
    reason: reason === "dead" ? "bad_request" : "blocked",
  });
}

/**
 * The edit failed for a passing reason too often: entries whose edit carries a push's outcome are
 * let go unacknowledged (the queue reclaims them after its claim idle time and retries them as
 * long as a push: handle.ts), the others are dead-lettered. Returns how many were let go.
 */
async function giveUp(lane: Lane, job: Job, why: string): Promise<number> {
  const carrying = job.waiting.filter((w) => w.carries !== undefined);
  for (const w of carrying) {
    lane.held.delete(w.delivery.id);
    job.waiting.splice(job.waiting.indexOf(w), 1);
  }
  if (job.waiting.length > 0) await drop(lane, job, "dead", why);
  return carrying.length;
}

/**
 * The receipt cannot be edited: the entries whose edit carried a push's outcome are let go
 * unacknowledged, their push's record marked "receipt gone" first, so the queue's reclaim pushes
 * the outcome as a new message. Marking fails (Redis away, or the record locked by another claim
 * just then): the error goes up and the entries stay pending; the lane's next try (or their
 * redelivery) edits again and finds the receipt gone again.
 */
async function handBackCarried(lane: Lane, job: Job, edit: ReceiptEdit): Promise<void> {
  const carrying = job.waiting.filter((w) => w.carries !== undefined);
  for (const w of carrying) {
    // A lock held on the key now (another claim) keeps the mark off: the error goes up and the
    // edit is tried again in this lane (the failure counted), the entry kept meanwhile; let go
    // unmarked, its reclaim would edit the gone receipt again, every claim idle time.
    if (w.carries !== undefined && !(await lane.opts.queue.markReceiptGone(w.carries)))
      throw new Error(`receipt gone, but its push's record is locked now (${w.carries})`);
    lane.held.delete(w.delivery.id);
    job.waiting.splice(job.waiting.indexOf(w), 1);
  }
  if (carrying.length > 0)
    lane.opts.logger?.warn(
      { reference: edit.reference, chatId: edit.chatId, entries: carrying.length },
      "receipt gone before it showed the outcome of a push whose answer was lost; pushed anew",
    );
}

/**
 * One edit of the receipt to the job's newest text, unless the order moved on meanwhile.
 * Returns whether the receipt was edited (false: overtaken, nothing sent).
 */
async function editOnce(lane: Lane, job: Job, edit: ReceiptEdit): Promise<boolean> {
  const { opts } = lane;
  const rank = STATUS_RANK[edit.status];
  if (!isFinal(edit.status) && opts.now() - edit.readAt > lane.freshMs) {
    const order = await opts.orders.get(edit.reference);
    if (order && RECEIPT_RANK[order.status] > RECEIPT_RANK[edit.status]) {
      // Overtaken while it waited: the newer state's own notification edits the receipt
      // (a later status the receipt words alike, queued -> pending, has none: edited here).
      if (job.edit === edit) await settle(lane, job, rank, "overtaken");
      return false;
    }
  }
  try {
    await opts.api.editMessageText(edit.chatId, edit.messageId, edit.text);
  } catch (err) {
    const e = opts.classify(err);
    if (!opts.isSettled(e)) throw err;
    if (opts.isUneditable(e)) await handBackCarried(lane, job, edit);
  }
  await settle(lane, job, rank, "shown");
  return true;
}

/**
 * What a failed edit means: the receipt given up on ("stop": chat gone, refused, too many tries),
 * or the failures so far, after the pause a 429 or the back-off asks for.
 */
async function afterFailure(
  lane: Lane,
  job: Job,
  edit: ReceiptEdit,
  err: unknown,
  failures: number,
  signal: AbortSignal,
): Promise<number | "stop"> {
  const { opts } = lane;
  const log = opts.logger;
  const e = opts.classify(err);
  if (opts.isGone(e)) {
    await opts.queue.markChatInactive(edit.chatId).catch(() => undefined);
    await drop(lane, job, "blocked", "chat gone");
    log?.info({ chatId: edit.chatId, code: e.code }, "chat unreachable; marked inactive");
    return "stop";
  }
  if (e.code === 400) {
    await drop(lane, job, "dead", `bad request: ${e.description.slice(0, 200)}`);
    log?.error({ reference: edit.reference, description: e.description }, "edit refused");
    return "stop";
  }
  if (e.code === 429) {
    const channel = opts.channelOf(edit.chatId);
    opts.onRateLimited(channel, e); // waited out in full: an edit inside the flood wait prolongs it
    opts.metrics.notificationsFailed.inc({ reason: "rate_limited" });
    const left = () => opts.pauseLeft(channel);
    for (let ms = left(); ms > 0 && !signal.aborted; ms = left())
      await pause(lane, Math.min(ms, opts.maxPauseMs), signal);
    return failures;
  }
  const failed = failures + 1;
  opts.metrics.notificationsFailed.inc({ reason: "transient" });
  log?.warn(
    { reference: edit.reference, code: e.code, description: e.description.slice(0, 200) },
    "receipt edit failed; will retry",
  );
  if (failed >= opts.maxAttempts) {
    const why = `edit failed ${failed} times: ${e.description.slice(0, 200)}`;
    const left = await giveUp(lane, job, why);
    if (left > 0)
      log?.warn(
        { reference: edit.reference, entries: left },
        "receipt edit carrying a push's outcome keeps failing; left to the queue to retry",
      );
    return "stop";
  }
  await pause(lane, Math.min(200 * 2 ** failed, 10_000), signal);
  return failed;
}

/** The longest wait between tries of an edit that sent nothing (a rate hold lasts a minute or more). */
const MAX_IDLE_WAIT_MS = 30_000;

/**
 * An edit that sent nothing (a rate hold, Meta away): no try used up; it waits (longer each time,
 * `waits` so far) and is tried again, unless its oldest entry is retryForMs old ("stop": given up
 * as after too many tries, so an edit carrying a push's outcome goes back to the queue).
 */
async function waitSentNothing(
  lane: Lane,
  job: Job,
  e: ApiFailure,
  waits: number,
  signal: AbortSignal,
): Promise<"stop" | "wait"> {
  const { opts } = lane;
  const oldest = Math.min(...job.waiting.map((w) => queuedAt(w.delivery)));
  const age = opts.now() - oldest;
  opts.metrics.notificationsFailed.inc({ reason: "transient" });
  if (!(age < opts.retryForMs)) {
    const minutes = Math.round(age / 60_000);
    await giveUp(lane, job, `edit sent nothing for ${minutes} min: ${e.description.slice(0, 200)}`);
    return "stop";
  }
  await pause(lane, Math.min(1_000 * 2 ** waits, MAX_IDLE_WAIT_MS), signal);
  return "wait";
}

/**
 * One round on a receipt: a slot from the pacer, then the edit of its newest text. "stop": the
 * lane gave up on the receipt (chat gone, refused, too many tries) or was stopped.
 */
async function editRound(
  lane: Lane,
  job: Job,
  signal: AbortSignal,
  failures: { count: number; waits: number },
): Promise<"next" | "stop"> {
  try {
    const { chatId } = job.edit;
    if (lane.opts.channelOf(chatId) === "telegram")
      await lane.opts.pacer?.acquire(chatId, { kind: "edit", signal });
  } catch (err) {
    // Held (a 429's wait, maybe another instance's): waited out as a 429, nothing sent.
    if (err instanceof SendsHeld && !signal.aborted)
      await afterFailure(lane, job, job.edit, err, failures.count, signal);
    return signal.aborted ? "stop" : "next"; // stopped: the entries stay pending
  }
  if (signal.aborted) return "stop";
  const edit = job.edit;
  try {
    if (await editOnce(lane, job, edit)) {
      failures.count = 0;
      failures.waits = 0;
    }
  } catch (err) {
    const e = lane.opts.classify(err);
    if (lane.opts.sentNothing(e))
      return (await waitSentNothing(lane, job, e, failures.waits++, signal)) === "stop"
        ? "stop"
        : "next";
    const next = await afterFailure(lane, job, edit, err, failures.count, signal);
    if (next === "stop") return "stop";
    failures.count = next;
  }
  return "next";
}

export function createReceiptEditLane(opts: ReceiptEditLaneOptions) {
  const lane: Lane = { opts, freshMs: opts.freshMs ?? 100, jobs: new Map(), held: new Set() };
  const { jobs, held } = lane;
  const running = new Set<Promise<void>>();
  /** Every waiting edit listens on it (a lane may hold thousands under a long peak). */
  const controller = () => {
    const c = new AbortController();
    setMaxListeners(0, c.signal);
    return c;
  };
  let abort = controller();
  let keeper: ReturnType<typeof setInterval> | undefined;

  const startKeeper = () => {
    if (keeper) return;
    keeper = setInterval(() => void keepClaimed(lane), Math.max(50, opts.keepEveryMs));
    keeper.unref?.();
  };
  const stopKeeperIfIdle = () => {
    if (jobs.size > 0 || !keeper) return;
    clearInterval(keeper);
    keeper = undefined;
  };

  /**
   * Edits one receipt until every entry waiting on it is acknowledged, or the lane is stopped.
   * The last look at `job.waiting` and the job's removal below run with no await between them:
   * an entry added meanwhile would otherwise join a job that is ending and never be edited.
   */
  async function run(key: string, job: Job, signal: AbortSignal): Promise<void> {
    const failures = { count: 0, waits: 0 };
    try {
      while (job.waiting.length > 0 && !signal.aborted) {
        if ((await editRound(lane, job, signal, failures)) === "stop") return;
      }
    } catch (err) {
      // Acknowledging failed (Redis away): the entries stay pending and are reclaimed later.
      opts.logger?.warn(
        { err: message(err) },
        "receipt edit lane could not finish; the queue will redeliver",
      );
    } finally {
      for (const w of job.waiting) held.delete(w.delivery.id);
      if (jobs.get(key) === job) jobs.delete(key);
      stopKeeperIfIdle();
    }
  }

  return {
    /**
     * The receipt should show `edit`; `delivery` is acknowledged once it does (or shows newer).
     * A delivery without an edit to make is acknowledged by the caller, not here. `carries`: the
     * key of the push whose outcome only this edit tells (its answer was lost).
     */
    add(edit: ReceiptEdit, delivery: Delivery, consumer: QueueConsumer, carries?: string) {
      const waiting: Waiting = { delivery, consumer, rank: STATUS_RANK[edit.status], carries };
      held.add(delivery.id);
      const key = keyOf(edit);
      const job = jobs.get(key);
      if (job) {
        if (STATUS_RANK[edit.status] >= STATUS_RANK[job.edit.status]) job.edit = edit;
        job.waiting.push(waiting);
        return;
      }
      const fresh: Job = { edit, waiting: [waiting] };
      jobs.set(key, fresh);
      startKeeper();
      const task = run(key, fresh, abort.signal);
      running.add(task);
      void task.finally(() => running.delete(task));
    },
    /** The entry is waiting here (its edit not made yet). */
    holds(id: string): boolean {
      return held.has(id);
    },
    /** Receipts waiting for an edit. */
    size(): number {
      return jobs.size;
    },
    /** Stops waiting; edits in flight finish. What was not edited stays pending in the queue. */
    async stop(): Promise<void> {
      abort.abort(new Error("notifier stopped"));
      await Promise.all([...running]);
      abort = controller();
      if (keeper) clearInterval(keeper);
      keeper = undefined;
    },
  };
}

export type ReceiptEditLane = ReturnType<typeof createReceiptEditLane>;
