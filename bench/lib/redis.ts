import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { REDIS_URL } from "./env.ts";

/** A key prefix of the benchmark's own, e.g. "bench:webhook:1a2b3c:". */
export function benchPrefix(name: string): string {
  return `bench:${name}:${randomBytes(4).toString("hex")}:`;
}

export function connectRedis(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
}

/** Deletes every key under the prefix (SCAN + UNLINK, in batches). Returns how many. */
export async function deleteKeys(prefix: string): Promise<number> {
  const redis = connectRedis();
  let deleted = 0;
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 5000);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
  return deleted;
}
