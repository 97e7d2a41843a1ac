import { performance } from "node:perf_hooks";

/**
 * A clock running `speed` times faster than real time, shared by everything in a benchmark that
 * reads time or waits: the Bot API emulator's flood buckets, the notifier and its pacer. Rates are
 * then measured in clock time, and everything keeps its real order and its real CPU cost; only
 * waiting is shortened. A faster clock makes the test harder, not easier: the pacer's slots are
 * 33 ms of clock time but 33/speed ms of real time, so any lag of the event loop, Redis or HTTP
 * weighs `speed` times more against the limits.
 */
export interface BenchClock {
  speed: number;
  now(): number;
  sleep(ms: number): Promise<void>;
}

export function scaledClock(speed: number): BenchClock {
  const base = Date.now();
  const start = performance.now();
  return {
    speed,
    now: () => base + (performance.now() - start) * speed,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms) / speed)),
  };
}
