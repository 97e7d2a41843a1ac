import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/** The shared Redis of the tests (127.0.0.1:6379); every test file works under a key prefix of its own. */
export const REDIS_URL = "redis://127.0.0.1:6379";

/** Deletes every key under `prefix`, through `redis` when given (else a connection of its own). */
export async function deleteKeys(prefix: string, url = REDIS_URL, redis?: Redis): Promise<void> {
  const client = redis ?? new Redis(url);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await client.del(...keys);
    } while (cursor !== "0");
  } finally {
    if (!redis) client.disconnect();
  }
}

/** A Redis connection and a key prefix of its own; `cleanup` deletes every key under it. */
export function testRedis(name: string) {
  const prefix = `test:${name}:${randomUUID().slice(0, 8)}:`;
  const clients: Redis[] = [];
  const connect = () => {
    const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false });
    clients.push(r);
    return r;
  };
  const redis = connect();
  return {
    redis,
    prefix,
    /** Another connection, as a second process would have. */
    connect,
    async cleanup() {
      await deleteKeys(prefix, REDIS_URL, redis);
      for (const c of clients) c.disconnect();
    },
  };
}
