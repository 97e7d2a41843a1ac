import { type MemoryTrim, startMemoryTrim } from "../src/system/memory-trim.ts";
import { procMemory } from "./lib/proc-memory.ts";
import { serveHelper } from "./lib/rpc.ts";
import { startBenchSystem } from "./lib/system.ts";

/**
 * The product process of the memory benchmark, as `npm start` runs it with a bot token: runner
 * long polling, notifier and reconciler started, sessions and conversations in Redis. The Bot API
 * emulator lives in the benchmark's process (TELEGRAM_API_ROOT), so this process's memory is the
 * product's alone.
 */

const prefix = process.env.BENCH_PREFIX;
const apiRoot = process.env.BENCH_API_ROOT;
const token = process.env.BENCH_BOT_TOKEN;
if (!prefix || !apiRoot || !token) throw new Error("BENCH_PREFIX, BENCH_API_ROOT, BENCH_BOT_TOKEN");

const started = startBenchSystem({
  prefix,
  workers: true,
  env: { BOT_TOKEN: token, TELEGRAM_API_ROOT: apiRoot },
});

// As src/main.ts starts it (trimMemoryWhenQuiet: the same defaults), its trims kept for the report.
const trims: MemoryTrim[] = [];
void started.then(() => startMemoryTrim({ onTrim: (t) => trims.push(t) }));

/**
 * RSS after a forced GC, read once the GC is over: V8 returns the pages it freed from a background
 * thread after gc() returns (concurrent sweeping and unmapping), so a read at once still counts
 * them (measured: 314 MB at gc(), 169 MB 100 ms later, the same a second later). Waits at least
 * 250 ms, then until two reads 50 ms apart differ by under 1 MB (at most 3 s). `rssAtGc` is the
 * read at once; `peakRss` the process's high-water mark (VmHWM) so far.
 */
async function memory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssAtGc = process.memoryUsage().rss;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await sleep(250);
  let last = process.memoryUsage().rss;
  for (let waited = 250; waited < 3000; waited += 50) {
    await sleep(50);
    const now = process.memoryUsage().rss;
    if (Math.abs(now - last) < 2 ** 20) break;
    last = now;
  }
  return { ...procMemory(), rssAtGc, trims: [...trims] };
}

serveHelper(
  started.then(() => undefined),
  {
    memory,
    async stop() {
      await (await started).stop();
    },
  },
);
