import type { Socket } from "node:net";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SavedInput } from "../../src/saved/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * Reads a flow makes back to back are begun together and held for the turn, so they leave in one
 * socket write (a socket write is about a third of the product's busy CPU on the benchmark
 * machine): the first question's balance (prepaid) and saved numbers; the confirmation's balance
 * (prepaid). The limits' reads send nothing: they ride in the update's early read
 * (src/bot/update-reads.ts), so none of the user's `MGET`s of spend buckets is seen here. The flow
 * still shows what they read.
 */
describe.each([
  ["prepaid", 2, 1],
  ["staff", 1, 0],
])("reads begun together (%s)", (mode, firstReads, confirmReads) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis: true, env: { ACCESS_MODE: mode } });
  });
  afterAll(() => ts.cleanup());

  /**
   * The user's limit, balance and saved reads sent while `act` runs, each with the stream's cork
   * when it was sent and how many of them had been answered by then.
   */
  async function readsDuring<T>(userId: number, act: () => Promise<T>) {
    const redis = ts.system.redis as Redis;
    const stream = () => (redis as unknown as { stream: Socket }).stream;
    const seen: Array<{ name: string; corked: number; answered: number }> = [];
    let answered = 0;
    const send = redis.sendCommand.bind(redis);
    const ours = (cmd: { name: string; args: unknown[] }) => {
      const first = String(cmd.args[0] ?? "");
      if (cmd.name === "mget" && first.includes(`{user:${userId}}:spend`)) return true;
      if (cmd.name === "hmget" && first.endsWith(`{user:${userId}}:saved`)) return true;
      return cmd.name === "hmget" && String(cmd.args[1] ?? "").startsWith(`customer:${userId}|`);
    };
    redis.sendCommand = ((cmd: { name: string; args: unknown[]; promise: Promise<unknown> }) => {
      const out = send(cmd as never);
      if (ours(cmd)) {
        seen.push({ name: cmd.name, corked: stream().writableCorked, answered });
        cmd.promise.then(
          () => answered++,
          () => answered++,
        );
      }
      return out;
    }) as typeof redis.sendCommand;
    try {
      return { result: await act(), seen };
    } finally {
      redis.sendCommand = send as typeof redis.sendCommand;
    }
  }

  /**
   * Each read was sent while the socket was held and before any of them was answered. Another
   * store's hold in the same turn corks the same socket once more (corked 2), which still leaves in
   * that turn's one write.
   */
  function expectHeld(seen: Array<{ corked: number; answered: number }>) {
    for (const s of seen) {
      expect(s.corked).toBeGreaterThanOrEqual(1);
      expect(s.answered).toBe(0);
    }
  }

  it("the first question's and the confirmation's reads leave in one held write each", async () => {
    const userId = mode === "prepaid" ? 30_001 : 301;
    const u = ts.user(userId);
    if (mode === "prepaid") {
      await u.register();
      await u.credit(100_000);
    }
    await ts.system.deps.saved.remember(userId, {
      category: "mobile",
      number: "9841234567",
      usedAt: 1,
    } satisfies SavedInput);
    await u.say("/recharge", /What would you like to pay/);

    const first = await readsDuring(userId, () => u.tap("📱 Mobile top-up", /Which mobile number/));
    expect(JSON.stringify(first.result)).toContain("9841234567");
    expect(first.seen).toHaveLength(firstReads);
    expectHeld(first.seen);

    await u.say("9841234567", /How much/);
    const confirm = await readsDuring(userId, () => u.say("150", /Please check your order/));
    if (mode === "prepaid") expect(confirm.result.text).toContain("Balance after: Rs 850");
    expect(confirm.seen).toHaveLength(confirmReads);
    expectHeld(confirm.seen);

    await u.tap("✅ Confirm", /Order \d+/);
  });
});
