import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_SECRET_KEY } from "../../dev/khalti/index.ts";
import { account, createRedisLedger } from "../../src/ledger/index.ts";
import { createRedisTopUpStore, creditTransferId } from "../../src/payments/index.ts";
import type { AppProcess } from "../support/chaos/app.ts";
import { freePort, report, sleep, waitUntil } from "../support/chaos/env.ts";
import { useProcessStack } from "../support/chaos/process-stack.ts";
import { type OwnRedis, startOwnRedis } from "../support/chaos/redis-server.ts";
import { ChatUser } from "../support/chat.ts";
import { serveKhaltiStandIn } from "../support/khalti.ts";
import { expectBooksBalanced } from "../support/ledger.ts";

/**
 * Top-ups under kill -9 and a Redis restart (issue 17). Customers start top-ups in the chat and
 * pay at Khalti (the stand-in) with no redirect, so only the reconciler's lookups confirm them.
 * The product runs as a child process that is SIGKILLed right as Khalti answers a lookup that says
 * Completed (between the lookup and the credit, or just after), twice; the third process runs on
 * while its Redis (AOF, fsync always) is shut down and started again. Every paid top-up must end
 * credited exactly once, with Khalti's amount, the books balanced, and each customer told.
 */

const USERS = [640_001, 640_002, 640_003, 640_004, 640_005, 640_006];
const KILLS = 2;

describe("top-ups: kill -9 between lookup and credit, and a Redis restart", () => {
  let port = 0;
  let redisServer: OwnRedis;
  let probe: Redis;
  let current: AppProcess | undefined;
  let kills = 0;
  let armed = false;
  let khalti: Awaited<ReturnType<typeof serveKhaltiStandIn>>;
  beforeAll(async () => {
    redisServer = await startOwnRedis();
    probe = new Redis(redisServer.url, { maxRetriesPerRequest: 20 });
    probe.on("error", () => {});
    khalti = await serveKhaltiStandIn({
      onLookup: ({ status }) => {
        if (!armed || status !== "Completed" || !current) return;
        armed = false;
        kills += 1;
        const victim = current;
        // The answer is on its way; the process dies as it arrives.
        setImmediate(() => void victim.kill("SIGKILL"));
      },
    });
  });
  afterAll(async () => {
    await khalti?.close();
    probe?.disconnect();
    await redisServer?.destroy();
  });
  const stack = useProcessStack("topup-kill", async (secrets) => {
    port = await freePort();
    return {
      webhook: { url: `http://127.0.0.1:${port}/webhooks/provider`, secret: secrets.webhookSecret },
    };
  });

  it("credits every paid top-up exactly once", async () => {
    const tap = await stack.tap();
    const env = stack.env(tap.url, {
      PORT: String(port),
      REDIS_URL: redisServer.url,
      ACCESS_MODE: "prepaid",
      KHALTI_BASE_URL: khalti.apiUrl,
      KHALTI_SECRET_KEY: STANDIN_SECRET_KEY,
      TOPUP_PUBLIC_URL: `http://127.0.0.1:${port}`,
      TOPUP_LOOKUP_INTERVAL_MS: "300",
    });
    let generation = 0;
    const start = async () => {
      generation += 1;
      current = stack.spawn(`topup-${generation}`, env);
      await current.ready;
      return current;
    };
    await start();

    // Each customer starts a top-up in the chat and pays it; Khalti never redirects.
    khalti.standIn.setFaults({ noRedirect: true });
    const pidxs = new Map<number, string>();
    for (const [i, id] of USERS.entries()) {
      const u = new ChatUser(stack.emu.emulator, id);
      await u.say("/addmoney", /How much/);
      const checkout = await u.say(String(100 * (i + 1)), /Pay with Khalti/);
      const url = checkout.inlineKeyboard?.flat().find((b) => b.url)?.url;
      const pidx = new URL(url!).searchParams.get("pidx")!;
      pidxs.set(id, pidx);
    }
    for (const pidx of pidxs.values()) khalti.standIn.act(pidx, "pay");

    // Killed right after a Completed lookup, KILLS times, each time started again.
    for (let k = 0; k < KILLS; k++) {
      armed = true;
      await waitUntil(() => kills > k, `kill ${k + 1}`, { timeoutMs: 30_000 });
      await current!.exited;
      await start();
    }

    // Redis goes away and comes back while the last process confirms the rest.
    await sleep(150);
    await redisServer.shutdown();
    await sleep(800);
    await redisServer.start();

    const store = createRedisTopUpStore({ redis: probe, prefix: stack.prefix });
    const ledger = createRedisLedger({ redis: probe, prefix: stack.prefix });
    await waitUntil(
      async () => {
        const all = await Promise.all([...pidxs.values()].map((p) => store.get("khalti", p)));
        return all.every((t) => t?.status === "completed" && t.notified === "completed");
      },
      "every top-up credited and told",
      { timeoutMs: 120_000, intervalMs: 250 },
    );

    const journal = (await ledger.journal()).entries;
    const repeats: number[] = [];
    for (const [i, id] of USERS.entries()) {
      const pidx = pidxs.get(id)!;
      const credits = journal.filter((e) => e.id === creditTransferId("khalti", pidx));
      expect(credits).toHaveLength(1);
      expect(credits[0]?.amountPaisa).toBe(10_000 * (i + 1));
      expect((await ledger.balance(account.customer(id))).availablePaisa).toBe(10_000 * (i + 1));
      const told = new ChatUser(stack.emu.emulator, id)
        .botTexts()
        .filter((t) => t.includes("added to your balance"));
      expect(told.length).toBeGreaterThanOrEqual(1);
      repeats.push(told.length - 1);
    }
    await expectBooksBalanced(ledger);
    report("top-ups under kill -9 and a Redis restart", {
      topUps: USERS.length,
      kills,
      processes: generation,
      repeatedPushes: repeats.reduce((a, b) => a + b, 0),
      lookups: khalti.standIn.payments().reduce((n, p) => n + p.lookups, 0),
    });
  });
});
