import { afterAll, describe, expect, it } from "vitest";
import {
  type Crossings,
  createCollisionAlert,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { adminAlertReader } from "../support/books.ts";
import { placedOrder, testRedis } from "../support/orders.ts";

/**
 * Review s26-a: the hourly alert wrote its hour's window before it queued the alert. A crash or a
 * failed queueing in between (a failover, a lost reply) left a window with no alert behind it, and
 * every further order of that hour was only counted: if they stopped within the hour, no admin
 * was ever told. The window is now written after the alerts are queued, so a lost queueing leaves
 * no window and the next order is told. Real Redis crossings and outbox; the queueing step fails
 * once, as a lost reply would.
 */

const r = testRedis("hourly-alert-order");
afterAll(() => r.cleanup());
const ADMIN = 9_101;

/** The crossings on Redis, whose next queueing of alerts fails (nothing queued). */
function failingOnce(prefix: string): Crossings {
  const real = createRedisCrossings(r.redis, prefix);
  let fail = true;
  return {
    ...real,
    async replaceNote(name, expected, json, alerts) {
      if (fail) {
        fail = false;
        throw new Error("connection lost");
      }
      return real.replaceNote(name, expected, json, alerts);
    },
  };
}

describe("the hourly alert's window and its alert", () => {
  it("a queueing that failed leaves no window: the next order within the hour is told", async () => {
    const prefix = `${r.prefix}lost:`;
    const alert = createCollisionAlert({ crossings: failingOnce(prefix), adminChatIds: [ADMIN] });
    const at = Date.now();
    const first = placedOrder({ reference: "1700000000101", status: "failed" });
    await expect(alert({ order: first, note: "refused", at })).rejects.toThrow(/connection lost/);
    const second = placedOrder({ reference: "1700000000102", status: "failed" });
    expect(await alert({ order: second, note: "refused", at: at + 60_000 })).toBe(true);
    const alerts = await adminAlertReader(r.redis, prefix)();
    expect(alerts.map((a) => a.reference)).toEqual([second.reference]);
    expect(alerts[0]?.chatId).toBe(ADMIN);
  });
});
