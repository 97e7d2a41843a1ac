import { describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * An error after the order exists (here: the process loses Redis while the execute is on its way,
 * so the provider debits the wallet and the outcome cannot be written). The user must not be told
 * that nothing was charged or to simply try again: the reply names the order, says it is being
 * checked and that a message will follow; and once Redis is back, that message does follow.
 */
describe("an error after the order was placed, end to end (Redis)", () => {
  const ts = useTestSystem({ redis: true });

  it("names the order, says it is being checked, and the outcome follows", async () => {
    const token = ts.system.config.sandbox.token;
    const sandbox = ts.system.sandbox!;
    const redis = ts.system.redis!;
    const u = ts.user(301);
    await u.mobileToConfirm("9841230301", "150");

    // The execute is held at the provider long enough to cut Redis while it is on its way.
    sandbox.setFaults(token, { latencyMs: 2000 });
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    expect(ref).toBeDefined();
    await waitUntil(
      async () => (await ts.system.orders.get(ref!))?.status === "submitting",
      "the order to be marked submitting",
      { timeoutMs: 5000, intervalMs: 10 },
    );
    redis.disconnect();
    sandbox.clearFaults(token);

    const notice = await u.waitFor(new RegExp(`order ${ref}\\b`), 10_000);
    expect(notice.text).toContain(ref);
    expect(notice.text).toContain("We are checking it with the operator");
    expect(notice.text).toContain("will send you a message with the outcome");
    // The provider did take the order: the wallet was debited.
    expect(sandbox.ledger(token).filter((r) => r.referenceNo === ref)).toHaveLength(1);

    await redis.connect();
    await u.waitFor(new RegExp(`Order ${ref} succeeded`), 20_000);
    const texts = u.botTexts();
    expect(texts.filter((t) => /Nothing was charged/i.test(t))).toEqual([]);
    expect(texts.filter((t) => /try again/i.test(t) && !/Before you try again/.test(t))).toEqual(
      [],
    );
    expect((await ts.system.orders.get(ref!))?.status).toBe("success");
  }, 40_000);
});
