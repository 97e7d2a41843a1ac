/**
 * Real timers that tests can short-circuit: `settle()` runs every scheduled callback at once (earliest
 * first, including those the callbacks schedule) and waits for the async work they start, until the
 * sandbox is quiet. `close()` cancels everything.
 */
export interface Scheduler {
  schedule(delayMs: number, fn: () => void | Promise<void>): number;
  cancel(id: number): void;
  /** Registers async work (a webhook attempt) so `settle()` can wait for it. */
  track(work: Promise<unknown>): void;
  settle(): Promise<void>;
  close(): void;
  pendingCount(): number;
}

interface Entry {
  at: number;
  fn: () => void | Promise<void>;
  handle: ReturnType<typeof setTimeout>;
}

const MAX_SETTLE_ROUNDS = 10_000;

export function createScheduler(onError: (err: unknown) => void): Scheduler {
  const timers = new Map<number, Entry>();
  const inflight = new Set<Promise<unknown>>();
  let nextId = 1;
  let closed = false;

  const run = (id: number) => {
    const entry = timers.get(id);
    if (!entry) return;
    timers.delete(id);
    clearTimeout(entry.handle);
    try {
      const out = entry.fn();
      if (out) track(out);
    } catch (err) {
      onError(err);
    }
  };

  const track = (work: Promise<unknown>) => {
    const p = work.catch(onError).finally(() => inflight.delete(p));
    inflight.add(p);
  };

  return {
    schedule(delayMs, fn) {
      const id = nextId++;
      if (closed) return id;
      const ms = Math.max(0, delayMs);
      const handle = setTimeout(() => run(id), ms);
      handle.unref?.();
      timers.set(id, { at: performance.now() + ms, fn, handle });
      return id;
    },
    cancel(id) {
      const entry = timers.get(id);
      if (entry) clearTimeout(entry.handle);
      timers.delete(id);
    },
    track,
    async settle() {
      for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
        if (timers.size > 0) {
          const due = [...timers.entries()].sort((a, b) => a[1].at - b[1].at);
          for (const [id] of due) run(id);
          continue;
        }
        if (inflight.size === 0) return;
        await Promise.allSettled([...inflight]);
      }
      throw new Error("sandbox did not settle (timers keep rescheduling)");
    },
    close() {
      closed = true;
      for (const entry of timers.values()) clearTimeout(entry.handle);
      timers.clear();
    },
    pendingCount() {
      return timers.size + inflight.size;
    },
  };
}
