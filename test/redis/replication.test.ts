import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createRedis, sentinelOptions } from "../../src/redis/connection.ts";
import { ensureReplicated, NotReplicatedError } from "../../src/redis/replication.ts";

/**
 * REDIS_WAIT_REPLICAS against the shared Redis on 6379, which has no replicas: a write that must
 * be on a replica is refused rather than relied on, and without the setting nothing waits.
 */
describe("waiting for replicas", () => {
  const url = "redis://127.0.0.1:6379";
  const waiting = createRedis({ url, wait: { replicas: 1, timeoutMs: 50 } });
  const plain = createRedis({ url, wait: { replicas: 0, timeoutMs: 50 } });
  const key = `test:replication:${randomUUID()}`;

  afterAll(async () => {
    await plain.del(key);
    waiting.disconnect();
    plain.disconnect();
  });

  it("throws NotReplicatedError when no replica acknowledged", async () => {
    await waiting.set(key, "1");
    await expect(ensureReplicated(waiting, "the test write", async () => true)).rejects.toThrow(
      NotReplicatedError,
    );
  });

  it("does not wait at all without REDIS_WAIT_REPLICAS", async () => {
    await plain.set(key, "2");
    await expect(ensureReplicated(plain, "the test write", async () => false)).resolves.toBe(
      undefined,
    );
  });

  it("connects through Sentinels with the URL's credentials and database, resending on READONLY", () => {
    const o = sentinelOptions({
      url: "redis://:pw-123456@mymaster/3",
      sentinel: { sentinels: [{ host: "127.0.0.1", port: 26379 }], name: "mymaster" },
    });
    expect(o).toMatchObject({ name: "mymaster", role: "master", password: "pw-123456", db: 3 });
    expect(o.sentinels).toEqual([{ host: "127.0.0.1", port: 26379 }]);
    expect(
      o.reconnectOnError?.(new Error("READONLY You can't write against a read only replica.")),
    ).toBe(2);
    expect(o.reconnectOnError?.(new Error("ERR other"))).toBe(false);
  });
});
