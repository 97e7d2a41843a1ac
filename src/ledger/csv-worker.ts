import { parentPort, workerData } from "node:worker_threads";
import { createRedis, type RedisTarget } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { chunkEncoder } from "./csv-bytes.ts";
import { journalCsvBytes } from "./csv-packed.ts";
import { journalPackedReader } from "./redis-reads.ts";

/**
 * The journal export's thread (csv-off-thread.ts starts it): reads the packed pages on a connection
 * of its own and writes their CSV bytes as journalCsvChunks' text would encode (csv-packed.ts),
 * handing each chunk over as bytes. It runs
 * at most `credit` chunks ahead of the download: each chunk the main thread has passed on comes
 * back as an "ack" and lets one more be made, so a slow download holds a few chunks here, and a
 * fast one never waits for a thread to wake up between two chunks. A chunk's buffer given back
 * once written (`back`) is refilled for a later chunk rather than a new one allocated.
 */
export interface CsvWorkerData {
  redis: RedisTarget;
  prefix: string;
  range: { from: number; to: number };
  credit: number;
}

/** From the main thread: one more chunk may be made, or a written chunk's buffer to refill. */
export type ToWorker = "ack" | { back: ArrayBuffer };

const port = parentPort;
if (port) {
  const data = workerData as CsvWorkerData;
  const redis = createRedis(data.redis);
  redis.on("error", () => undefined);
  const read = journalPackedReader(redis, keyspace(data.prefix));
  const chunks = journalCsvBytes(read, data.range);
  const bytesOf = chunkEncoder();
  let credit = data.credit;
  let running = false;
  const finish = (message: { done: true } | { error: string }) => {
    port.postMessage(message);
    redis.disconnect();
  };
  const run = async () => {
    if (running) return;
    running = true;
    try {
      while (credit > 0) {
        const { done, value } = await chunks.next();
        if (done) return finish({ done: true });
        credit -= 1;
        const bytes = typeof value === "string" ? bytesOf.encode(value) : bytesOf.copy(value);
        port.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]);
      }
    } catch (err) {
      return finish({ error: err instanceof Error ? err.message : String(err) });
    } finally {
      running = false;
    }
  };
  port.on("message", (m: ToWorker) => {
    if (m === "ack") {
      credit += 1;
      void run();
    } else bytesOf.back(m.back);
  });
  void run();
}
