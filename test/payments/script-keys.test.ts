import { describe, expect, it } from "vitest";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import { createRedisTopUpStore } from "../../src/payments/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { topUpService } from "../support/khalti.ts";
import { startTopUp, useKhaltiStandIn, useTestRedis } from "../support/topup-rig.ts";

/**
 * The top-up update script declares in KEYS every key it touches (Redis's rule for scripts: a
 * key not declared may live on another Cluster node, and Redis may refuse it). The daily cap
 * check reads the user's other top-ups of the day: before, by names it made itself (the byUser
 * members after the name prefix), none of them in KEYS. Redis 7 does not refuse an undeclared key
 * of the script's own slot, so this watches what the script really did: every command it ran
 * (MONITOR shows them after its EVALSHA, nothing else between: a script runs alone), and the keys
 * of each (COMMAND GETKEYS) among the ones its EVALSHA declared.
 */

const redisEnv = useTestRedis("script-keys");
const khalti = useKhaltiStandIn();

type Run = { declared: string[]; touched: string[][] };

/** Every script run under our prefix while `during` runs: the keys it declared, the ones it touched. */
async function scriptRuns(during: () => Promise<void>): Promise<Run[]> {
  const watcher = redisEnv.connect();
  const monitor = await watcher.monitor();
  const lines: string[][] = [];
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    lines.push([source, ...args]);
  });
  try {
    await during();
    // The line of a command MONITOR shows once it ran: a PING after is seen after them all.
    const mark = `script-keys-mark-${Math.random()}`;
    await redisEnv.redis.echo(mark);
    await expect.poll(() => lines.some((l) => l.includes(mark))).toBe(true);
  } finally {
    monitor.disconnect();
  }
  const runs: Run[] = [];
  let current: Run | null = null;
  for (const [source, command, ...args] of lines) {
    if (source === "lua") {
      if (!current) continue; // another client's script
      const keys = (await redisEnv.redis.call("COMMAND", "GETKEYS", command ?? "", ...args)) as
        | string[]
        | null;
      current.touched.push(keys ?? []);
      continue;
    }
    current = null;
    if (command?.toLowerCase() !== "evalsha" && command?.toLowerCase() !== "eval") continue;
    const n = Number(args[1]);
    const declared = args.slice(2, 2 + n);
    if (!declared.some((k) => k.startsWith(redisEnv.prefix))) continue;
    current = { declared, touched: [] };
    runs.push(current);
  }
  return runs;
}

describe("the top-up update script's keys", () => {
  it("a credit beside another top-up of the day touches only the keys it declared", async () => {
    const store = createRedisTopUpStore({ redis: redisEnv.connect(), prefix: redisEnv.prefix });
    const ledger = createRedisLedger({ redis: redisEnv.connect(), prefix: redisEnv.prefix });
    const { topUps, gateway } = topUpService({
      apiUrl: khalti.apiUrl,
      store,
      ledger,
      notices: [],
      dailyCapPaisa: 1_000_000,
    });
    try {
      const userId = 9_871;
      const paid = async (rupees: number) => {
        const topUp = await startTopUp(topUps, userId, rupees * 100);
        khalti.standIn.act(topUp.paymentId, "pay");
        return topUp;
      };
      const first = await paid(100);
      expect((await topUps.confirm("khalti", first.paymentId))?.status).toBe("completed");
      const second = await paid(200);
      const runs = await scriptRuns(async () => {
        expect((await topUps.confirm("khalti", second.paymentId))?.status).toBe("completed");
      });
      expect((await ledger.balance(account.customer(userId))).postedPaisa).toBe(30_000);

      const k = keyspace(redisEnv.prefix);
      const firstKey = k.topUp("khalti", first.paymentId);
      const touched = runs.flatMap((r) => r.touched.flat());
      // Not vacuous: the cap check of the second's credit read the first top-up.
      expect(touched).toContain(firstKey);
      for (const run of runs) {
        const undeclared = run.touched.flat().filter((key) => !run.declared.includes(key));
        // Before: [firstKey], the other top-up read by a name the script made.
        expect(undeclared).toEqual([]);
      }
    } finally {
      await gateway.close();
    }
  });
});
