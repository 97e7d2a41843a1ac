import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { createRedisNotificationQueue } from "../../src/notify/redis-queue.ts";
import { createRedis, type RedisClient } from "../../src/redis/connection.ts";
import { createRedisInboundQueue } from "../../src/whatsapp/inbound-queue.ts";
import { type OwnRedis, startOwnRedis } from "../support/chaos/redis-server.ts";
import { sleep, waitUntil } from "../support/wait.ts";

/**
 * A stop while Redis is away. ioredis keeps a blocking read that was in flight queued for the
 * reconnect; closing the connection while it waits to reconnect never settles that read, and a
 * stop awaiting it hung for good (the CI run of 08c48c8: the metrics test's afterAll timed out
 * after Redis came back, the WhatsApp queue's stop still waiting on its read).
 */

let own: OwnRedis | undefined;
let redis: RedisClient | undefined;
afterEach(async () => {
  redis?.disconnect();
  await own?.destroy();
  own = redis = undefined;
});

const logger = createLogger({ level: "silent", secrets: [] });

/** Redis shut down, and the connections' loss seen: reads now wait for a reconnect. */
async function redisGoneAway(o: OwnRedis, r: RedisClient): Promise<void> {
  await o.shutdown();
  await waitUntil(async () => r.status === "reconnecting", "the connection waits to reconnect");
}

/** Resolves with "stopped", or "hung" when `stop` has not ended within `ms`. */
const within = (stop: Promise<void>, ms: number) =>
  Promise.race([stop.then(() => "stopped"), sleep(ms).then(() => "hung")]);

describe("a stop while Redis is away ends", () => {
  it("the WhatsApp inbound queue's, its blocking read waiting for the reconnect", async () => {
    own = await startOwnRedis();
    redis = createRedis({ url: own.url });
    redis.on("error", () => {});
    const queue = createRedisInboundQueue({ redis, prefix: "stop:", consumer: "a", logger });
    queue.start(async () => {});
    // The group is made and the loop sits in its blocking read.
    await waitUntil(async () => (await redis!.exists("stop:{wa}:inbound")) === 1, "group made");
    await sleep(50);
    await redisGoneAway(own, redis);
    expect(await within(queue.stop(), 3_000)).toBe("stopped");
  });

  it("the notifier consumer's, its blocking read waiting for the reconnect", async () => {
    own = await startOwnRedis();
    redis = createRedis({ url: own.url });
    redis.on("error", () => {});
    const consumer = createRedisNotificationQueue({ redis, prefix: "stop:" }).consumer("a");
    const read = consumer.read(10, 10_000);
    await sleep(100);
    await redisGoneAway(own, redis);
    await consumer.close();
    expect(await Promise.race([read.catch(() => []), sleep(3_000).then(() => "hung")])).toEqual([]);
  });
});
