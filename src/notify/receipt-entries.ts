import { isFinal } from "../orders/model.ts";
import type { QueueConsumer } from "./queue.ts";
import { type Job, type Lane, message, type ReceiptEdit } from "./receipt-lane.ts";

/**
 * What becomes of the queue entries waiting on a receipt (receipt-edits.ts): kept claimed while
 * they wait, acknowledged once the receipt shows them, dropped or dead-lettered when the lane gives
 * up, and handed back to the queue when only a push can tell the chat.
 */

/** Keeps every entry waiting here claimed, one command per consumer. */
export async function keepClaimed(lane: Lane): Promise<void> {
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
export async function settle(
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
export async function drop(
  lane: Lane,
  job: Job,
  reason: "blocked" | "dead",
  why: string,
): Promise<void> {
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
export async function giveUp(lane: Lane, job: Job, why: string): Promise<number> {
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
export async function handBackCarried(lane: Lane, job: Job, edit: ReceiptEdit): Promise<void> {
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
