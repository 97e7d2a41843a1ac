import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Logger } from "../logger.ts";

/**
 * Hands the memory a burst left behind back to the system once the process goes quiet.
 *
 * Why: on Node 24 V8 keeps the 256 KB pages a garbage collection frees in a pool, resident, until
 * a memory-reducing collection; its memory reducer never runs one in a process that went quiet
 * (`--trace-memory-reducer` says "high alloc" every 8 s, for ever). Measured with 10,000 open
 * conversations (bench/memory.ts): 543 MB settled, 200 MB after one such collection, while V8's
 * own heap stays about 55 MB. Node 20 released most of them by itself (131 MB).
 *
 * So: every `checkMs`, if the event loop was nearly idle over the last interval and the RSS has
 * grown by `growthBytes` since the last trim (or the start), one memory-reducing collection
 * (V8's "last resort": a few full collections that also release the pooled pages). It blocks the
 * event loop for tens of milliseconds, which is why it waits for a quiet moment; a busy process
 * reuses the pooled pages anyway.
 */

export interface MemoryTrimOptions {
  /** How often the loop's utilisation and the RSS are looked at. */
  checkMs?: number;
  /** The utilisation over one interval below which the process counts as quiet. */
  idleUtilisation?: number;
  /** RSS growth since the last trim that makes one worth its pause. */
  growthBytes?: number;
  /** Least time between two trims (light traffic regrows the young generation, harmlessly). */
  minGapMs?: number;
  /** Told after each trim (the logger, tests). */
  onTrim?: (trim: MemoryTrim) => void;
  /** Told when V8 would not expose its collector (the trimmer then does nothing). */
  onUnavailable?: (err: unknown) => void;
}

export interface MemoryTrim {
  rssBefore: number;
  rssAfter: number;
  ms: number;
}

type GcOptions = { type: "major"; execution: "sync"; flavor: "last-resort" };

/** V8's collector as a function, without `--expose-gc` on the command line (`npm start`). */
function exposedGc(): (options: GcOptions) => void {
  setFlagsFromString("--expose-gc");
  // Only a context created after the flag has `gc`; this one is used for nothing else.
  return runInNewContext("gc") as (options: GcOptions) => void;
}

/** Whether an interval's figures call for a trim (pure: the policy apart from the timers). */
export function shouldTrim(
  interval: { utilisation: number; rss: number; sinceLastTrimMs: number },
  rssAtLastTrim: number,
  opts: Required<Pick<MemoryTrimOptions, "idleUtilisation" | "growthBytes" | "minGapMs">>,
): boolean {
  return (
    interval.utilisation < opts.idleUtilisation &&
    interval.rss - rssAtLastTrim >= opts.growthBytes &&
    interval.sinceLastTrimMs >= opts.minGapMs
  );
}

/** Starts the trimmer; returns its stop. The timer never keeps the process alive. */
export function startMemoryTrim(opts: MemoryTrimOptions = {}): () => void {
  const checkMs = opts.checkMs ?? 2_000;
  const policy = {
    idleUtilisation: opts.idleUtilisation ?? 0.05,
    growthBytes: opts.growthBytes ?? 32 * 2 ** 20,
    minGapMs: opts.minGapMs ?? 30_000,
  };
  let gc: (options: GcOptions) => void;
  try {
    gc = exposedGc();
  } catch (err) {
    opts.onUnavailable?.(err);
    return () => {};
  }
  let rssAtLastTrim = process.memoryUsage.rss();
  let last = performance.eventLoopUtilization();
  let reported: { rssBefore: number; ms: number } | undefined;
  let lastTrimAt = Number.NEGATIVE_INFINITY;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    const rss = process.memoryUsage.rss();
    // V8 unmaps the pages a trim released on a helper thread just after it: a process that
    // shrank (by a trim or by itself) measures its next growth from where it ended up.
    rssAtLastTrim = Math.min(rssAtLastTrim, rss);
    if (reported) opts.onTrim?.({ ...reported, rssAfter: rss });
    reported = undefined;
    const t0 = performance.now();
    const interval = { utilisation: utilization, rss, sinceLastTrimMs: t0 - lastTrimAt };
    if (!shouldTrim(interval, rssAtLastTrim, policy)) return;
    lastTrimAt = t0;
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
    reported = { rssBefore: rss, ms: performance.now() - t0 };
    rssAtLastTrim = rss;
    // The pause itself is not the process's work: the next interval starts after it.
    last = performance.eventLoopUtilization();
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The trimmer as `npm start` runs it, its trims logged. */
export function trimMemoryWhenQuiet(logger: Logger): () => void {
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  return startMemoryTrim({
    onTrim: (t) =>
      logger.info(
        { rssBeforeMb: mb(t.rssBefore), rssAfterMb: mb(t.rssAfter), ms: Math.round(t.ms) },
        "memory trimmed while quiet",
      ),
    onUnavailable: (err) => logger.warn({ err: String(err) }, "memory trim unavailable"),
  });
}
