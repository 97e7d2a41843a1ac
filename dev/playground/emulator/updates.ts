// The update queue behind getUpdates, with Telegram's semantics: updates stay until a later
// call confirms them with `offset` (so a bot that crashes before confirming gets them again),
// a long poll is held until an update arrives or its timeout ends, and a newer getUpdates
// call terminates an older pending one with 409 Conflict.
import type { Update } from "grammy/types";

export type PollOutcome = { updates: Update[] } | { conflict: true };

interface Poller {
  offsetLimit: number;
  finish: (outcome: PollOutcome) => void;
}

export interface UpdateQueueOptions {
  /** Updates kept for `redeliver` after they left the queue. */
  historyLimit: number;
  firstUpdateId: number;
}

export class UpdateQueue {
  /** Unconfirmed updates, ascending update_id. */
  private pending: Update[] = [];
  /** Redeliveries: handed out once, whatever the offset says. */
  private forced: Update[] = [];
  private readonly history = new Map<number, Update>();
  private nextId: number;
  private poller: Poller | undefined;
  private wakeScheduled = false;
  /** Called whenever an update becomes available (the webhook deliverer listens). */
  onAvailable: () => void = () => {};

  constructor(private readonly options: UpdateQueueOptions) {
    this.nextId = options.firstUpdateId;
  }

  get pendingCount(): number {
    return this.pending.length + this.forced.length;
  }

  create(body: Omit<Update, "update_id">): Update {
    const update = { update_id: this.nextId++, ...body } as Update;
    this.pending.push(update);
    this.remember(update);
    this.available();
    return update;
  }

  /** Sends an already created update again, as Telegram does after an unanswered delivery. */
  redeliver(updateId: number): Update {
    const update = this.history.get(updateId);
    if (!update) throw new Error(`update ${updateId} is unknown (or too old to redeliver)`);
    this.forced.push(update);
    this.available();
    return update;
  }

  /** Forgets every update below `offset`; a negative offset keeps only the last -offset ones. */
  confirm(offset: number): void {
    if (offset < 0) {
      this.pending = this.pending.slice(offset);
      return;
    }
    let drop = 0;
    while (drop < this.pending.length && this.pending[drop]!.update_id < offset) drop++;
    if (drop > 0) this.pending = this.pending.slice(drop);
  }

  dropPending(): void {
    this.pending = [];
    this.forced = [];
  }

  /** Oldest first; redeliveries ahead of the rest. */
  peek(limit: number): Update[] {
    const batch = this.forced.slice(0, limit);
    if (batch.length < limit) batch.push(...this.pending.slice(0, limit - batch.length));
    return batch;
  }

  /** Removes one update after a webhook delivered it (or gave up). */
  remove(update: Update): void {
    const forcedIndex = this.forced.indexOf(update);
    if (forcedIndex !== -1) {
      this.forced.splice(forcedIndex, 1);
      return;
    }
    const index = this.pending.indexOf(update);
    if (index !== -1) this.pending.splice(index, 1);
  }

  /** Everything still to deliver, for the webhook deliverer. */
  deliverable(): Update[] {
    return [...this.forced, ...this.pending];
  }

  /**
   * getUpdates: confirms below `offset`, answers at once when something is waiting, else holds
   * until an update arrives, `timeoutSeconds` pass, `signal` aborts or a newer call takes over.
   */
  poll(
    offset: number | undefined,
    limit: number,
    timeoutSeconds: number,
    signal?: AbortSignal,
  ): Promise<PollOutcome> {
    if (offset !== undefined && offset !== 0) this.confirm(offset);
    this.poller?.finish({ conflict: true });
    this.poller = undefined;
    const ready = this.take(limit);
    if (ready.length > 0 || timeoutSeconds <= 0 || signal?.aborted) {
      return Promise.resolve({ updates: ready });
    }
    return new Promise<PollOutcome>((resolve) => {
      const finish = (outcome: PollOutcome) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (this.poller === poller) this.poller = undefined;
        resolve(outcome);
      };
      const onAbort = () => finish({ updates: [] });
      const timer = setTimeout(() => finish({ updates: [] }), timeoutSeconds * 1000);
      const poller: Poller = { offsetLimit: limit, finish };
      this.poller = poller;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Ends a held long poll with an empty answer (shutdown, webhook set). */
  releasePoller(): void {
    this.poller?.finish({ updates: [] });
    this.poller = undefined;
  }

  private take(limit: number): Update[] {
    const batch = this.peek(limit);
    // Redeliveries are one-shot; ordinary updates wait for their confirmation.
    const forcedTaken = Math.min(this.forced.length, batch.length);
    if (forcedTaken > 0) this.forced = this.forced.slice(forcedTaken);
    return batch;
  }

  private available(): void {
    this.onAvailable();
    if (!this.poller || this.wakeScheduled) return;
    // Answer on the next turn so updates created together travel in one batch.
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      const poller = this.poller;
      if (!poller) return;
      const batch = this.take(poller.offsetLimit);
      if (batch.length > 0) poller.finish({ updates: batch });
    });
  }

  private remember(update: Update): void {
    this.history.set(update.update_id, update);
    if (this.history.size > this.options.historyLimit) {
      const oldest = this.history.keys().next();
      if (!oldest.done) this.history.delete(oldest.value);
    }
  }
}
