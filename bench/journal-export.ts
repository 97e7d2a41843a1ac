import { Registry } from "prom-client";
import { createMetricsApp } from "../src/http/app.ts";
import { journalCsvChunks } from "../src/ledger/csv.ts";
import { journalCsvOffThread } from "../src/ledger/csv-off-thread.ts";
import { createRedisLedger } from "../src/ledger/redis-store.ts";
import { childMain } from "./lib/child.ts";
import { REDIS_URL } from "./lib/env.ts";
import { connectRedis } from "./lib/redis.ts";
import { round } from "./lib/stats.ts";

/**
 * The journal export as the accountant gets it (issue 31 target 5): GET /books/journal.csv on the
 * metrics app (src/http/app.ts), which streams ledger/csv.ts journalCsvChunks made on the export's
 * own thread as the product does (ledger/csv-off-thread.ts; BENCH_EXPORT_THREAD=main: on the
 * main thread, as before issue 31), over the journal
 * dashboard-search.ts seeded (BENCH_EXPORT_PREFIX, from BENCH_EXPORT_FROM to BENCH_EXPORT_TO).
 * A process of its own, so its RSS is the export's: sampled every 50 ms from just before the
 * request to the last byte; growth = the highest sample − the first, also over the first half
 * (a plateau reached early is flat; a leak keeps climbing), and the heap after a GC at the end
 * (what the export kept). RSS at the first byte is mostly the thread's start; the main thread's
 * external memory is the chunks it was handed and has not collected yet. The body is read as
 * bytes and its lines counted, as a client writing it to disk would. The worker's RSS is the
 * process's: it counts.
 */

async function main() {
  const prefix = process.env.BENCH_EXPORT_PREFIX ?? "";
  const from = Number(process.env.BENCH_EXPORT_FROM);
  const to = Number(process.env.BENCH_EXPORT_TO);
  if (!prefix || !Number.isFinite(from) || !Number.isFinite(to))
    throw new Error("no journal given");
  const redis = connectRedis();
  const ledger = createRedisLedger({ redis, prefix });
  const app = createMetricsApp({
    registry: new Registry(),
    books: {
      journalCsv: (range) =>
        process.env.BENCH_EXPORT_THREAD === "main"
          ? journalCsvChunks(ledger, range)
          : journalCsvOffThread({ redis: { url: REDIS_URL }, prefix }, range),
    },
  });
  const iso = (ms: number) => new Date(ms).toISOString();
  try {
    // Warm up: the route, the parser and the connection, on a short range.
    const warm = await app.request(`/books/journal.csv?from=${iso(from)}&to=${iso(from + 60_000)}`);
    await warm.text();
    globalThis.gc?.();
    const start = process.memoryUsage();
    const rssStart = start.rss;
    let rssMax = rssStart;
    let heapMax = start.heapUsed;
    let externalMax = start.external;
    const t0 = performance.now();
    const samples: Array<[number, number]> = [];
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      samples.push([performance.now() - t0, m.rss]);
      rssMax = Math.max(rssMax, m.rss);
      heapMax = Math.max(heapMax, m.heapUsed);
      externalMax = Math.max(externalMax, m.external);
    }, 50);
    const res = await app.request(`/books/journal.csv?from=${iso(from)}&to=${iso(to)}`);
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
    let lines = 0;
    let bytes = 0;
    let firstByteMs = 0;
    let rssFirstByte = rssStart;
    for await (const chunk of res.body) {
      if (bytes === 0) {
        firstByteMs = performance.now() - t0;
        rssFirstByte = process.memoryUsage.rss();
      }
      bytes += chunk.byteLength;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    rssMax = Math.max(rssMax, process.memoryUsage.rss());
    // Flat or growing: the highest RSS in the first half of the export against the whole.
    const half = (seconds * 1000) / 2;
    const firstHalfMax = Math.max(
      rssStart,
      ...samples.filter(([t]) => t <= half).map(([, r]) => r),
    );
    globalThis.gc?.();
    const afterGc = process.memoryUsage();
    return {
      lines: lines - 1,
      megabytes: round(bytes / 2 ** 20),
      seconds: round(seconds),
      linesPerSecond: Math.round((lines - 1) / seconds),
      firstByteMs: round(firstByteMs),
      rssStartMB: round(rssStart / 2 ** 20),
      rssGrowthMB: round((rssMax - rssStart) / 2 ** 20),
      rssGrowthFirstByteMB: round((rssFirstByte - rssStart) / 2 ** 20),
      rssGrowthFirstHalfMB: round((firstHalfMax - rssStart) / 2 ** 20),
      heapUsedAfterGcGrowthMB: round((afterGc.heapUsed - start.heapUsed) / 2 ** 20),
      thread: process.env.BENCH_EXPORT_THREAD === "main" ? "main" : "worker",
      heapUsedGrowthMB: round((heapMax - start.heapUsed) / 2 ** 20),
      externalGrowthMB: round((externalMax - start.external) / 2 ** 20),
    };
  } finally {
    redis.disconnect();
  }
}

export type ExportOut = Awaited<ReturnType<typeof main>>;
childMain(import.meta.url, main);
