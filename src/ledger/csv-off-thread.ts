import { Worker } from "node:worker_threads";
import type { RedisTarget } from "../redis/connection.ts";
import type { CsvWorkerData } from "./csv-worker.ts";

/**
 * The journal export on a thread of its own with a small heap (issue 31 target 5). A million lines
 * allocate about a gigabyte of short-lived strings; on the main thread V8 grew its young
 * generation to the maximum for them (Node 24: RSS +158 MB while the heap after a GC stayed flat,
 * whatever the page size; --max-semi-space-size=2 still +64 MB, the pages promoted and collected
 * late). The worker's generations are capped, so the export's garbage is collected within them;
 * the bytes come over as transferred buffers, a few chunks ahead of the download.
 */
const LIMITS = { maxYoungGenerationSizeMb: 6, maxOldGenerationSizeMb: 48 };
/** Chunks (journal pages of CSV, about 130 KB each) the worker may make ahead of the download. */
const CREDIT = 4;

/** Set by scripts/build.mjs: the compiled worker, relative to this source file's place. */
declare const __CSV_WORKER__: string | undefined;
const workerUrl = () =>
  typeof __CSV_WORKER__ === "string"
    ? new URL(__CSV_WORKER__, import.meta.url)
    : new URL("./csv-worker.ts", import.meta.url);

type Reply = { bytes?: Uint8Array; done?: true; error?: string };

export async function* journalCsvOffThread(
  opts: { redis: RedisTarget; prefix: string },
  range: { from: number; to: number },
): AsyncGenerator<Uint8Array> {
  // A reader needs no write policy (and the worker gets plain data only).
  const { wait: _, ...redis } = opts.redis;
  const data: CsvWorkerData = { redis, prefix: opts.prefix, range, credit: CREDIT };
  const worker = new Worker(workerUrl(), { workerData: data, resourceLimits: LIMITS });
  const replies: Reply[] = [];
  let wake: (() => void) | undefined;
  let failed: Error | undefined;
  const nudge = () => {
    wake?.();
    wake = undefined;
  };
  worker.on("message", (m: Reply) => {
    replies.push(m);
    nudge();
  });
  worker.on("error", (err) => {
    failed = err;
    nudge();
  });
  worker.on("exit", () => {
    failed ??= new Error("the journal export's thread stopped");
    nudge();
  });
  try {
    for (;;) {
      const m = replies.shift();
      if (!m) {
        if (failed) throw failed;
        await new Promise<void>((r) => {
          wake = r;
        });
        continue;
      }
      if (m.error !== undefined) throw new Error(m.error);
      if (m.done) return;
      if (m.bytes) {
        yield m.bytes;
        worker.postMessage("ack");
      }
    }
  } finally {
    await worker.terminate();
  }
}
