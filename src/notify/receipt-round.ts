import { isFinal, RECEIPT_RANK, STATUS_RANK } from "../orders/model.ts";
import type { ApiFailure } from "./api-errors.ts";
import { SendsHeld } from "./pace-store.ts";
import { queuedAt } from "./queue.ts";
import { drop, giveUp, handBackCarried, settle } from "./receipt-entries.ts";
import { type Job, type Lane, pause, type ReceiptEdit } from "./receipt-lane.ts";

/**
 * One round of the receipt edit lane on a receipt (receipt-edits.ts): a slot from the pacer, the
 * edit of its newest text (unless the order moved on), and what a failure means: the chat gone, a
 * refusal, a 429's pause, a back-off, or a wait that uses up no try when nothing was sent.
 */

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
export async function editRound(
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
