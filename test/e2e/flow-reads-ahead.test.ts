import type { Socket } from "node:net";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SavedInput } from "../../src/saved/index.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * A flow's first question reads the limits, the balance (prepaid) and the saved numbers: begun
 * together and held for the turn, the three leave in one socket write (a socket write is about a
 * third of the product's busy CPU on the benchmark machine), and the flow shows what they read.
 */
describe.each([
  ["prepaid", 3],
  ["staff", 2],
])("the first question's reads (%s)", (mode, reads) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis: true, env: { ACCESS_MODE: mode } });
  });
  afterAll(() => ts.cleanup());

  it("leave together, in one held write, and the question offers the saved number", async () => {
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

    const redis = ts.system.redis as Redis;
    const stream = () => (redis as unknown as { stream: Socket }).stream;
    // The user's three reads, each with the stream's cork when it was sent and how many of them
    // had been answered by then.
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
      const asked = await u.tap("📱 Mobile top-up", /Which mobile number/);
      expect(JSON.stringify(asked)).toContain("9841234567");
    } finally {
      redis.sendCommand = send as typeof redis.sendCommand;
    }
    expect(seen).toHaveLength(reads);
    for (const s of seen) expect(s).toMatchObject({ corked: 1, answered: 0 });
  });
});
