import { Registry } from "prom-client";
import { createMetricsApp } from "../src/http/app.ts";
import { journalCsvChunks } from "../src/ledger/csv.ts";
import { createRedisLedger } from "../src/ledger/redis-store.ts";
import { childMain } from "./lib/child.ts";
import { connectRedis } from "./lib/redis.ts";
import { round } from "./lib/stats.ts";

/**
 * The journal export as the accountant gets it (issue 31 target 5): GET /books/journal.csv on the
 * metrics app (src/http/app.ts), which streams ledger/csv.ts journalCsvChunks, over the journal
 * dashboard-search.ts seeded (BENCH_EXPORT_PREFIX, from BENCH_EXPORT_FROM to BENCH_EXPORT_TO).
 * A process of its own, so its RSS is the export's: sampled every 50 ms from just before the
 * request to the last byte; growth = the highest sample − the first. The body is read as bytes
 * and its lines counted, as a client writing it to disk would.
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
    books: { journalCsv: (range) => journalCsvChunks(ledger, range) },
  });
  const iso = (ms: number) => new Date(ms).toISOString();
  try {
    // Warm up: the route, the parser and the connection, on a short range.
    const warm = await app.request(`/books/journal.csv?from=${iso(from)}&to=${iso(from + 60_000)}`);
    await warm.text();
    globalThis.gc?.();
    const rssStart = process.memoryUsage.rss();
    let rssMax = rssStart;
    const sampler = setInterval(() => {
      rssMax = Math.max(rssMax, process.memoryUsage.rss());
    }, 50);
    const t0 = performance.now();
    const res = await app.request(`/books/journal.csv?from=${iso(from)}&to=${iso(to)}`);
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
    let lines = 0;
    let bytes = 0;
    let firstByteMs = 0;
    for await (const chunk of res.body) {
      if (bytes === 0) firstByteMs = performance.now() - t0;
      bytes += chunk.byteLength;
      for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] === 10) lines++;
    }
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    rssMax = Math.max(rssMax, process.memoryUsage.rss());
    return {
      lines: lines - 1,
      megabytes: round(bytes / 2 ** 20),
      seconds: round(seconds),
      linesPerSecond: Math.round((lines - 1) / seconds),
      firstByteMs: round(firstByteMs),
      rssStartMB: round(rssStart / 2 ** 20),
      rssGrowthMB: round((rssMax - rssStart) / 2 ** 20),
    };
  } finally {
    redis.disconnect();
  }
}

export type ExportOut = Awaited<ReturnType<typeof main>>;
childMain(import.meta.url, main);
