import { describe, expect, it } from "vitest";
import { createMemoryNotificationQueue } from "../../src/notify/memory-queue.ts";
import { SENT_MARKER_TTL_MS } from "../../src/notify/queue.ts";

/**
 * The memory-only notification queue (`npm start` without Redis) forgets a send key's sent marker
 * and sending record SENT_MARKER_TTL_MS (30 days) after they were written, as the Redis key's PX
 * does (h-notify32, review nit). Before, both maps only grew while the process ran. The clock is
 * the test's.
 */
describe("memory notification queue: markers and records expire as in Redis", () => {
  it("a sent marker is gone 30 days after it was written", async () => {
    let clock = Date.UTC(2026, 10, 1);
    const queue = createMemoryNotificationQueue({ now: () => clock });
    await queue.markSent("status:R1:success");
    clock += SENT_MARKER_TTL_MS - 1;
    expect(await queue.isSent("status:R1:success")).toBe(true);
    clock += 1;
    // Before: true for as long as the process ran.
    expect(await queue.isSent("status:R1:success")).toBe(false);
    expect(await queue.lockSending("status:R1:success", 60_000)).toEqual({
      lock: "locked",
      uncertain: 0,
    });
  });

  it("a lost answer's record is gone 30 days after its lock was taken", async () => {
    let clock = Date.UTC(2026, 10, 1);
    const queue = createMemoryNotificationQueue({ now: () => clock });
    expect((await queue.lockSending("alert:A1", 60_000)).lock).toBe("locked");
    await queue.markUncertain("alert:A1");
    clock += SENT_MARKER_TTL_MS - 1;
    expect(await queue.unansweredRecord("alert:A1")).toEqual({ uncertain: 1 });
    clock += 1;
    expect(await queue.unansweredRecord("alert:A1")).toBeUndefined();
    expect((await queue.lockSending("alert:A1", 60_000)).lock).toBe("locked");
  });
});
