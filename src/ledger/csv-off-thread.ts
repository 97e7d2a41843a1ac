import { Worker } from "node:worker_threads";
import type { RedisTarget } from "../redis/connection.ts";
import type { CsvWorkerData } from "./csv-worker.ts";

/**
 * The journal export on a thread of its own with a small heap (issue 31 target 5): a million lines
 * allocate about a gigabyte of short-lived strings, and on the main thread V8 grows its young
 * generation to the maximum for it (Node 24: RSS +158 MB with the heap after GC flat, whatever the
 * page size). The worker's young and old generations are capped, so the export's garbage is
 * collected within them; the bytes come over as transferred buffers, one chunk at a time.
 */
const LIMITS = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 48 };

/** Set by scripts/build.mjs: the compiled worker, relative to this source file's place. */
declare const __CSV_WORKER__: string | undefined;
const workerUrl = () =>
  typeof __CSV_WORKER__ === "string"
    ? new URL(__CSV_WORKER__, import.meta.url)
    : new URL("./csv-worker.ts", import.meta.url);

export async function* journalCsvOffThread(
  opts: { redis: RedisTarget; prefix: string },
  range: { from: number; to: number },
): AsyncGenerator<Uint8Array> {
  // A reader needs no write policy (and the worker gets plain data only).
  const { wait: _, ...redis } = opts.redis;
  const data: CsvWorkerData = { redis, prefix: opts.prefix, range };
  const worker = new Worker(workerUrl(), {
    workerData: data,
    resourceLimits: LIMITS,
  });
  type Reply = { bytes?: Uint8Array; done?: true; error?: string };
  let failed: Error | undefined;
  const fail = (err: Error) => {
    failed = err;
  };
  worker.on("error", fail);
  const next = () =>
    new Promise<Reply>((resolve, reject) => {
      if (failed) return reject(failed);
      const onExit = () => reject(failed ?? new Error("the journal export's thread stopped"));
      worker.once("exit", onExit);
      worker.once("message", (m: Reply) => {
        worker.off("exit", onExit);
        resolve(m);
      });
      worker.postMessage("pull");
    });
  try {
    for (;;) {
      const m = await next();
      if (m.error !== undefined) throw new Error(m.error);
      if (m.done) return;
      if (m.bytes) yield m.bytes;
    }
  } finally {
    await worker.terminate();
  }
}
