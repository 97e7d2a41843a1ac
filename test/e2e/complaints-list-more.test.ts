import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placedOrder } from "../support/orders.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * The chat's /complaints (review s33-rvcomp 8): it lists the 20 due soonest, and when more are
 * open it says how many more and where they are listed (the back office's page, or /complaints
 * again after answering); the clocks it shows ("left", "overdue") are read on the process's
 * injected clock, the one the complaints' due times were set on, not the machine's. Memory and
 * real Redis (the count of open ones is each store's own).
 */

const ADMIN = 3001;
const DAY = 86_400_000;
const COUNT = 22;

describe.each([
  ["memory", false],
  ["redis", true],
])("/complaints with more open than it lists (%s)", (_name, redis) => {
  let ts: TestSystem;
  let offset = 0;
  beforeAll(async () => {
    ts = await startTestSystem({ redis, now: () => Date.now() + offset });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("lists 20, says 2 more are open and where, with times on the injected clock", async () => {
    const complaints = ts.system.deps.complaints!;
    for (let i = 0; i < COUNT; i++) {
      const userId = 21_000 + i;
      const reference = String(7_300_000_000_000 + i);
      const order = placedOrder({ reference, idempotencyKey: `more-${i}`, userId, chatId: userId });
      await ts.system.orders.store.create({ ...order, status: "failed" });
      const r = await complaints.raise({
        userId,
        chatId: userId,
        locale: "en",
        orderReference: reference,
        reason: "not_received",
      });
      expect(r.ok).toBe(true);
    }
    // Ten days on by the process's clock: every complaint (due in 2 working days) is overdue.
    offset = 10 * DAY;
    const admin = ts.user(ADMIN);
    const before = admin.lastId();
    const more = await admin.say("/complaints", /more are open/);
    expect(more.text).toBe(
      "These are the 20 due soonest; 2 more are open. The back office's Complaints page lists them (up to 100); here, answer these and send /complaints again for the next.",
    );
    const lines = admin
      .chat()
      .filter((m) => m.id > before && m.id < more.id && / · order 73000000000\d\d /.test(m.text));
    expect(lines).toHaveLength(20);
    for (const l of lines) expect(l.text).toMatch(/⏰ Overdue by [5-9]d/);
  });
});
