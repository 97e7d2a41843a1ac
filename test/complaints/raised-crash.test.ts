import { afterAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * A new complaint's alert survives the process that raised it (review s33-rvcomp 4), with the
 * product on real Redis and the Bot API emulator. The first process is going down: its notifier
 * has stopped, every send it makes is lost before Telegram carries it out, and it stops right
 * after the complaint is stored. A second process on the same Redis tells each admin once.
 * Before: the alert was a direct send after the store (lost here): no admin was ever told.
 */

const ADMINS = [3_501, 3_502] as const;
const CUSTOMER = 10_561;
const env = {
  ACCESS_MODE: "prepaid",
  ADMIN_IDS: ADMINS.join(","),
  // The second process takes over the first one's pending entries after a second.
  NOTIFY_CLAIM_IDLE_MS: "1000",
};

describe("a new complaint's alert when the raising process stops", () => {
  const started: TestSystem[] = [];
  afterAll(async () => {
    for (const s of started.reverse()) await s.cleanup();
  });

  it("is sent by another process on the same Redis, once to each admin", async () => {
    const a = await startTestSystem({ redis: true, env });
    started.push(a);
    for (const id of ADMINS) await a.user(id).say("/start", /./);
    const u = a.user(CUSTOMER);
    await u.register();
    await u.credit(50_000);
    const ref = await u.placeMobile("9841234567", "100");
    await u.outcome(ref, "succeeded");
    await waitUntil(
      async () => (await a.system.orders.get(ref))?.status === "success",
      "the order success",
    );
    const emu = a.system.emulator!;
    // The process is going down: its notifier has stopped, and from now on every send it makes
    // is lost (the connection reset, nothing sent).
    await a.system.notifier.stop();
    emu.loseAnswers("sendMessage", 1_000, "drop");
    const raised = await a.system.deps.complaints!.raise({
      userId: CUSTOMER,
      chatId: CUSTOMER,
      locale: "en",
      orderReference: ref,
      reason: "not_received",
    });
    if (!raised.ok) throw new Error("not raised");
    const cref = raised.complaint.reference;
    await a.stop();
    expect(
      a
        .user(ADMINS[0])
        .botMessages()
        .some((m) => m.text.includes(cref)),
    ).toBe(false);

    const b = await startTestSystem({ redis: true, prefix: a.prefix, env });
    started.push(b);
    const admins = ADMINS.map((id) => {
      b.system.emulator!.users.upsert(id, { first_name: "Admin" });
      return b.user(id);
    });
    for (const admin of admins) await admin.waitFor(new RegExp(`New complaint ${cref}`));
    await waitUntil(async () => (await b.system.queue.backlog()) === 0, "the outbox drained");
    for (const admin of admins) {
      const told = admin.botMessages().filter((m) => m.text.includes(`New complaint ${cref}`));
      expect(told).toHaveLength(1);
    }
  });
});
