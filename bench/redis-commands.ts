import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { account } from "../src/ledger/chart.ts";
import { MOBILE_FLOW } from "./lib/bot-driver.ts";
import { childMain } from "./lib/child.ts";
import { intEnv } from "./lib/env.ts";
import { benchPrefix } from "./lib/redis.ts";
import { startBenchSystem } from "./lib/system.ts";

/**
 * Redis commands per completed order, from the user's first message to the final push: the
 * product as `npm start` builds it, workers on (the bot polls the emulator, the sandbox's timers
 * move each order to its final status and send the webhook, the webhook is confirmed with a status
 * query, the notifier edits the receipt and sends the push), on a redis-server of its own so that
 * INFO commandstats counts this product alone. The background loops (notifier reads, reconciler
 * scans, leases) issue commands with no order in sight: they are measured first over an idle
 * window and reported apart, so the per-order figure is what an order adds.
 */

const FINAL_PUSH = /^(?:✅|❌) Order (\d+) (succeeded|failed)\./;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
    probe.on("error", () => {});
    const up = await probe
      .connect()
      .then(() => probe.ping())
      .catch(() => null);
    probe.disconnect();
    if (up === "PONG") return { url, proc };
    await sleep(25);
  }
  proc.kill("SIGKILL");
  throw new Error("redis-server did not start (the benchmark runs one of its own)");
}

/** INFO commandstats as { command: calls }. */
async function commandStats(redis: Redis): Promise<Record<string, number>> {
  const text = await redis.info("commandstats");
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

const total = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0);

export interface CommandsOut {
  accessMode: "prepaid" | "staff";
  reminders: boolean;
  orders: number;
  idleSeconds: number;
  idlePerSecond: number;
  runSeconds: number;
  commandsInRun: number;
  /** (commands in the run - idle rate x run time) / orders. */
  perOrder: number;
  /** Per order, by command, idle share not subtracted (what an order's path issues). */
  perOrderByCommand: Record<string, number>;
  idleByCommand: Record<string, number>;
}

/**
 * Issue 31 target 6 counts an order "with every feature of this wave on": the production defaults
 * (ACCESS_MODE=prepaid: the customer registered by sharing their contact, the price held on their
 * balance at Confirm and posted when final; reminders on; complaints, saved numbers, documents as
 * shipped). The staff mode the benchmarks' users order in elsewhere (no registration, the
 * merchant's wallet pays, no hold) is counted as well, for comparison with the figures before.
 */
export async function runRedisCommands(): Promise<{ prepaid: CommandsOut; staff: CommandsOut }> {
  const prepaid = await countOrders("prepaid");
  const staff = await countOrders("staff");
  return { prepaid, staff };
}

let credits = 0;

async function countOrders(accessMode: "prepaid" | "staff"): Promise<CommandsOut> {
  const users = intEnv("BENCH_COMMANDS_USERS", 20);
  const idleSeconds = intEnv("BENCH_COMMANDS_IDLE_SECONDS", 5);
  const { url, proc } = await startRedis();
  const admin = new Redis(url);
  const system = await startBenchSystem({
    prefix: benchPrefix("commands"),
    workers: true,
    env: {
      REDIS_URL: url,
      SANDBOX_TO_PENDING_MS: "200",
      SANDBOX_TO_FINAL_MS: "500",
      ACCESS_MODE: accessMode,
    },
  });
  try {
    const emu = system.emulator;
    if (!emu) throw new Error("the benchmark needs the embedded emulator");
    // Let the start-up writes and the first loop passes go by, then count the idle rate.
    await sleep(2_000);
    // With the monitor: the product connection's socket writes (a pipeline or a held turn is
    // one), per step of the flow (the background loops' writes in the step's time included).
    const writes = { n: 0 };
    const countWrites = Boolean(
      process.env.BENCH_COMMANDS_WRITES || process.env.BENCH_COMMANDS_MONITOR,
    );
    if (countWrites) {
      const stream = (system.redis as unknown as { stream: Record<string, unknown> }).stream;
      for (const m of ["_write", "_writev"]) {
        const f = stream[m] as (...a: unknown[]) => unknown;
        stream[m] = function (this: unknown, ...a: unknown[]) {
          writes.n++;
          return f.apply(this, a);
        };
      }
    }
    await admin.config("RESETSTAT");
    await sleep(idleSeconds * 1_000);
    const idleWrites = writes.n;
    const idle = await commandStats(admin);
    delete idle.config;
    delete idle.info;

    // Numbers ending in 0000 fail at the sandbox: these all succeed, the path every order should cost.
    const ids = Array.from({ length: users }, (_, i) => 7_100_001 + i);
    for (const id of ids) emu.users.upsert(id, { first_name: `Bench${id}` });
    // Prepaid: each customer registered and with a balance before the count (once a customer,
    // not once an order).
    if (accessMode === "prepaid")
      await Promise.all(
        ids.map(async (id) => {
          const { message_id } = emu.sendContact(id, {
            phoneNumber: `+97798${String(id).padStart(8, "0")}`,
          });
          await emu.waitForBotMessage(id, /Registered with/, {
            afterId: message_id,
            timeoutMs: 30_000,
          });
          const r = await system.ledger.transfer({
            id: `bench-commands-${id}-${++credits}`,
            debit: account.merchant.funding,
            credit: account.customer(id),
            amountPaisa: 1_000_000,
            kind: "credit",
          });
          if (!r.ok) throw new Error(`crediting ${id} was refused: ${JSON.stringify(r)}`);
        }),
      );
    await sleep(1_000);
    await admin.config("RESETSTAT");
    if (process.env.BENCH_COMMANDS_MONITOR) {
      const mon = await admin.duplicate().monitor();
      mon.on("monitor", (_t: string, args: string[], source: string) => {
        process.stderr.write(`MON ${source} ${args.map((a) => a.slice(0, 60)).join(" ")}\n`);
      });
    }
    const writesAtRun = writes.n;
    const t0 = Date.now();
    const walk = async (id: number) => {
      let before = writes.n;
      for (const step of MOBILE_FLOW) {
        before = writes.n;
        step.act(emu, id);
        await emu.waitForBotMessage(id, step.expect, { timeoutMs: 30_000 });
        if (countWrites) process.stderr.write(`WRITES ${step.name}: ${writes.n - before}\n`);
      }
      await emu.waitForBotMessage(id, FINAL_PUSH, { timeoutMs: 60_000 });
      if (countWrites)
        process.stderr.write(`WRITES tap Confirm to the final push: ${writes.n - before}\n`);
    };
    // BENCH_COMMANDS_SEQUENTIAL: one order after the other (no two orders' commands share a
    // socket write: the writes per order are the path's own).
    if (process.env.BENCH_COMMANDS_SEQUENTIAL) for (const id of ids) await walk(id);
    else await Promise.all(ids.map(walk));
    const runSeconds = (Date.now() - t0) / 1000;
    if (countWrites)
      process.stderr.write(
        `WRITES per order, idle writes subtracted: ${((writes.n - writesAtRun - (idleWrites / idleSeconds) * runSeconds) / users).toFixed(1)} (idle ${idleWrites / idleSeconds}/s, run ${runSeconds} s, ${writes.n - writesAtRun} in the run)\n`,
      );
    const run = await commandStats(admin);
    delete run.config;
    delete run.info;
    const idlePerSecond = total(idle) / idleSeconds;
    const perOrderByCommand = Object.fromEntries(
      Object.entries(run)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, Math.round((v / users) * 10) / 10]),
    );
    return {
      accessMode,
      reminders: system.config.reminders.on,
      orders: users,
      idleSeconds,
      idlePerSecond,
      runSeconds,
      commandsInRun: total(run),
      perOrder: (total(run) - idlePerSecond * runSeconds) / users,
      perOrderByCommand,
      idleByCommand: Object.fromEntries(
        Object.entries(idle).map(([k, v]) => [k, Math.round((v / idleSeconds) * 10) / 10]),
      ),
    };
  } finally {
    await system.stop();
    admin.disconnect();
    proc.kill("SIGKILL");
  }
}

childMain(import.meta.url, runRedisCommands);
