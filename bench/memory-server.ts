import { readFileSync } from "node:fs";
import { getHeapSpaceStatistics } from "node:v8";
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

function memory() {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 2 ** 20)]),
  );
  const status = readFileSync("/proc/self/status", "utf8");
  const field = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    spaces,
    rssAnon: field("RssAnon"),
    rssFile: field("RssFile"),
    threads: field("Threads") / 1024,
  };
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
