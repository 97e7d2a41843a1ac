import { Redis } from "ioredis";

/** One ioredis connection; commands fail fast instead of queueing forever while Redis is down. */
export function createRedis(url: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
}

/** Health probe: PING with a deadline, never throws. */
export async function redisAnswers(redis: Redis, timeoutMs = 1_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([redis.ping().then((r) => r === "PONG"), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
