import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Registry } from "prom-client";
import { createMetricsApp } from "../src/http/app.ts";
import { journalCsvChunks } from "../src/ledger/csv.ts";
import { journalCsvOffThread } from "../src/ledger/csv-off-thread.ts";
import { createRedisLedger } from "../src/ledger/redis-store.ts";
import { childMain } from "./lib/child.ts";
import { csvClient } from "./lib/csv-client.ts";
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
 * external memory is the chunks it was handed and has not collected yet. The worker's RSS is the
 * process's: it counts. Downloaded over HTTP (session 30): the app served by @hono/node-server on
 * loopback, as production serves it, and read by a client in a process of its own
 * (lib/csv-client.ts) that counts the bytes and lines as a client writing them to disk would;
 * only there does the download write each chunk itself and give its buffer back to the worker
 * (http/csv-download.ts). BENCH_EXPORT_VIA=request: app.request in this process, as up to
 * session 29 (a ReadableStream's reader: every chunk a buffer of its own).
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
  // Over HTTP as the accountant downloads it (@hono/node-server, a client process of its own);
  // BENCH_EXPORT_VIA=request: app.request in this process, as sessions up to 29 measured it.
  const overHttp = process.env.BENCH_EXPORT_VIA !== "request";
  const server = overHttp ? await served(app.fetch) : undefined;
  const client = overHttp ? await csvClient() : undefined;
  try {
    // Warm up: the route, the parser and the connection, on a short range.
    const warmPath = `/books/journal.csv?from=${iso(from)}&to=${iso(from + 60_000)}`;
    if (server) await (await fetch(`${server.url}${warmPath}`)).text();
    else await (await app.request(warmPath)).text();
    globalThis.gc?.();
    const start = process.memoryUsage();
    const rssStart = start.rss;
    let rssMax = rssStart;
    let heapMax = start.heapUsed;
    let externalMax = start.external;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const samples: Array<[number, number]> = [];
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      samples.push([performance.now() - t0, m.rss]);
      rssMax = Math.max(rssMax, m.rss);
      heapMax = Math.max(heapMax, m.heapUsed);
      externalMax = Math.max(externalMax, m.external);
    }, 50);
    const path = `/books/journal.csv?from=${iso(from)}&to=${iso(to)}`;
    let lines = 0;
    let bytes = 0;
    let firstByteMs = 0;
    let rssFirstByte = rssStart;
    if (client && server) {
      const firstByte = setInterval(() => {
        // The server's side of the first byte: its first write of the body.
        if (rssFirstByte === rssStart && (server.bodyWrites() ?? 0) > 0)
          rssFirstByte = process.memoryUsage.rss();
      }, 5);
      const got = await client.get(`${server.url}${path}`);
      clearInterval(firstByte);
      if (got.status !== 200) throw new Error(`export answered ${got.status}`);
      ({ lines, bytes, firstByteMs } = got);
    } else {
      const res = await app.request(path);
      if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
      for await (const chunk of res.body) {
        if (bytes === 0) {
          firstByteMs = performance.now() - t0;
          rssFirstByte = process.memoryUsage.rss();
        }
        bytes += chunk.byteLength;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
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
      via: overHttp ? "http" : "request",
      heapUsedGrowthMB: round((heapMax - start.heapUsed) / 2 ** 20),
      externalGrowthMB: round((externalMax - start.external) / 2 ** 20),
      // The server process's CPU (both threads) during the export: what load does not inflate.
      serverCpuSeconds: round((cpu.user + cpu.system) / 1e6),
    };
  } finally {
    await server?.close();
    redis.disconnect();
  }
}

/** The app on a free loopback port; counts the responses' body writes (for the first byte). */
async function served(fetch: (req: Request, env: unknown) => Response | Promise<Response>) {
  let writes = 0;
  const server = serve({ fetch, hostname: "127.0.0.1", port: 0 });
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    const write = res.write;
    res.write = function (this: ServerResponse, ...args: Parameters<typeof write>) {
      writes++;
      return write.apply(this, args);
    } as typeof write;
  });
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodyWrites: () => writes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?(): void }).closeAllConnections?.();
      }),
  };
}

export type ExportOut = Awaited<ReturnType<typeof main>>;
childMain(import.meta.url, main);
