import { setMaxListeners } from "node:events";
import { STATUS_RANK } from "../orders/model.ts";
import type { Delivery, QueueConsumer } from "./queue.ts";
import { keepClaimed } from "./receipt-entries.ts";
import {
  type Job,
  keyOf,
  type Lane,
  message,
  type ReceiptEdit,
  type ReceiptEditLaneOptions,
  type Waiting,
} from "./receipt-lane.ts";
import { editRound } from "./receipt-round.ts";

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
 *
 * Its parts: what they share (receipt-lane.ts), one round on a receipt (receipt-round.ts) and what
 * becomes of the entries waiting on it (receipt-entries.ts).
 */

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
