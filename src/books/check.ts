import type { Logger } from "../logger.ts";
import type { Lease } from "../orders/lease.ts";
import type { Books } from "./report.ts";

/**
 * The books' scheduled check (BOOKS_CHECK_INTERVAL_MS, daily by default): the report and its
 * drift alert (report.ts `check`), once at start and then every interval, so a drift is told
 * within the first minutes of a (re)start rather than a day later. With several processes, the
 * lease lets one of them run it per interval (a process started within the interval of another's
 * run skips its first); a missed run is harmless, the next one sees the same books.
 */
export function createBooksCheck(opts: {
  books: Books;
  lease: Lease;
  intervalMs: number;
  adminChatIds: readonly number[];
  logger?: Logger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function runOnce(): Promise<void> {
    // Held for most of the interval: the other processes' ticks within it find it taken.
    if (!(await opts.lease.acquire("books-check", Math.max(1, opts.intervalMs - 1_000)))) return;
    const r = await opts.books.check(opts.adminChatIds);
    opts.logger?.info(
      { balanced: r.balanced, driftPaisa: r.float.driftPaisa, margin: r.margin.marginPaisa },
      "books checked",
    );
  }

  return {
    runOnce,
    start() {
      if (timer) return;
      const tick = () => {
        if (running) return;
        running = runOnce()
          .catch((err: unknown) => opts.logger?.error({ err: String(err) }, "books check failed"))
          .finally(() => {
            running = undefined;
          });
      };
      timer = setInterval(tick, opts.intervalMs);
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
