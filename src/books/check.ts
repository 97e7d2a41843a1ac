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
  /**
   * A check without a verdict (an order's debit not known yet, or the wallet did not answer), or
   * one that failed, is tried again after this long rather than a whole interval later. Default:
   * a minute (at most the interval).
   */
  retryMs?: number;
  logger?: Logger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const retryMs = Math.max(1, Math.min(opts.retryMs ?? 60_000, opts.intervalMs));

  /** True when the check ran without a verdict (to be tried again soon). */
  async function runOnce(): Promise<boolean> {
    // Held for most of the interval: the other processes' ticks within it find it taken.
    if (!(await opts.lease.acquire("books-check", Math.max(1, opts.intervalMs - 1_000))))
      return false;
    let r: Awaited<ReturnType<Books["check"]>>;
    try {
      r = await opts.books.check(opts.adminChatIds);
    } catch (err) {
      // A check that failed (Redis away a moment) is tried again like one without a verdict, not
      // an interval later: its lease is cut to the retry (review s32-books 2). If that write fails
      // too, this process still holds the lease and renews it at its retry.
      await opts.lease.acquire("books-check", retryMs).catch(() => undefined);
      throw err;
    }
    opts.logger?.info(
      {
        verdict: r.lastCheck?.verdict,
        balanced: r.balanced,
        driftPaisa: r.float.driftPaisa,
        margin: r.margin.marginPaisa,
      },
      "books checked",
    );
    const verdict = r.lastCheck?.verdict;
    if (verdict !== "deferred" && verdict !== "no_report") return false;
    // Keep the lease only until the retry, so the retry (here or in another process) may run.
    await opts.lease.acquire("books-check", retryMs);
    return true;
  }

  const tick = () => {
    if (running || stopped) return;
    running = runOnce()
      .catch((err: unknown) => {
        opts.logger?.error({ err: String(err), retryInMs: retryMs }, "books check failed");
        return true;
      })
      .then((again) => {
        if (!again || stopped) return;
        if (retry) clearTimeout(retry);
        retry = setTimeout(tick, retryMs);
        retry.unref();
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    runOnce,
    start() {
      if (timer) return;
      stopped = false;
      timer = setInterval(tick, opts.intervalMs);
      timer.unref();
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (retry) clearTimeout(retry);
      timer = undefined;
      retry = undefined;
      await running;
    },
  };
}
