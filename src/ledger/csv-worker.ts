import { parentPort, workerData } from "node:worker_threads";
import { createRedis, type RedisTarget } from "../redis/connection.ts";
import { journalCsvChunks } from "./csv.ts";
import { createRedisLedger } from "./redis-store.ts";

/**
 * The journal export's thread (csv-off-thread.ts starts it): reads and formats the CSV as
 * journalCsvChunks does, on a connection of its own, and hands each chunk over as bytes when the
 * main thread asks for the next ("pull"), one made ahead: a slow download holds two chunks here.
 */
export interface CsvWorkerData {
  redis: RedisTarget;
  prefix: string;
  range: { from: number; to: number };
}

const port = parentPort;
if (port) {
  const data = workerData as CsvWorkerData;
  const redis = createRedis(data.redis);
  redis.on("error", () => undefined);
  const chunks = journalCsvChunks(createRedisLedger({ redis, prefix: data.prefix }), data.range);
  const encoder = new TextEncoder();
  // One chunk made ahead, while the main thread writes the one before.
  let ahead = chunks.next();
  ahead.catch(() => undefined);
  port.on("message", async () => {
    try {
      const { done, value } = await ahead;
      if (done) {
        port.postMessage({ done: true });
        redis.disconnect();
        return;
      }
      ahead = chunks.next();
      ahead.catch(() => undefined);
      const bytes = encoder.encode(value);
      port.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]);
    } catch (err) {
      port.postMessage({ error: err instanceof Error ? err.message : String(err) });
      redis.disconnect();
    }
  });
}
