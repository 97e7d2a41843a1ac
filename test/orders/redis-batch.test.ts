import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { holdWritesForTurn } from "../../src/orders/redis-batch.ts";
import { createRedis } from "../../src/redis/connection.ts";

/**
 * The order store's commands of one event-loop turn leave in one socket write (the webhook
 * route's CPU, README Performance figure 1), with the replies and errors of commands sent alone.
 */
describe("holding the order store's writes for the turn", () => {
  const redis = createRedis("redis://127.0.0.1:6379");
  const key = `test:batch:${randomUUID()}`;

  beforeAll(async () => {
    await redis.hset(key, "j", "x");
  });
  afterAll(async () => {
    await redis.del(key);
    redis.disconnect();
  });

  const socket = () => (redis as unknown as { stream: Socket }).stream;
  type Writes = { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };

  it("sends the turn's commands in one write, each with its own reply or error", async () => {
    const hold = holdWritesForTurn(redis);
    const writes = vi.spyOn(socket() as unknown as Writes, "_writev");
    const single = vi.spyOn(socket() as unknown as Writes, "_write");
    hold();
    hold(); // a second hold in the same turn changes nothing
    expect(socket().writableCorked).toBe(1);
    const replies = Promise.allSettled([
      redis.hget(key, "j"),
      redis.hget(key, "missing"),
      redis.incr(key), // WRONGTYPE: fails alone, the others still answer
      redis.hget(key, "j"),
    ]);
    const [a, b, c, d] = await replies;
    expect(socket().writableCorked).toBe(0);
    expect(a).toEqual({ status: "fulfilled", value: "x" });
    expect(b).toEqual({ status: "fulfilled", value: null });
    expect(c.status).toBe("rejected");
    expect(d).toEqual({ status: "fulfilled", value: "x" });
    expect(writes).toHaveBeenCalledTimes(1);
    expect(single).not.toHaveBeenCalled();
    writes.mockRestore();
    single.mockRestore();
  });

  it("releases at the end of the turn even under fake timers", async () => {
    const hold = holdWritesForTurn(redis);
    vi.useFakeTimers();
    try {
      hold();
      await expect(redis.hget(key, "j")).resolves.toBe("x");
    } finally {
      vi.useRealTimers();
    }
  });

  it("holds nothing while the connection is not ready (ioredis queues those commands itself)", async () => {
    const fresh = createRedis({ url: "redis://127.0.0.1:6379" });
    try {
      const hold = holdWritesForTurn(fresh);
      hold();
      await expect(fresh.hget(key, "j")).resolves.toBe("x");
    } finally {
      fresh.disconnect();
    }
  });
});
