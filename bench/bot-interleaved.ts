import { performance } from "node:perf_hooks";
import type { Bot } from "grammy";
import { PLAYGROUND_TOKEN } from "../src/local-mode.ts";
import { asSingleKeyClient } from "../src/redis/connection.ts";
import {
  checkReply,
  ECHO_FLOW,
  inProcessFetch,
  MOBILE_FLOW,
  type Step,
  updatePump,
  useInProcessFetch,
} from "./lib/bot-driver.ts";
import { intEnv } from "./lib/env.ts";
import { benchPrefix, deleteKeys } from "./lib/redis.ts";
import { stackFloorBot } from "./lib/stack-floor.ts";
import { startBenchSystem } from "./lib/system.ts";

/**
 * The bot turn's product and stack floor (bot-turn.ts) taking their updates in turn, one floor
 * update then one product update, user by user and step by step, so that both see the same
 * machine load: on a shared machine the load moves between bot-turn's floor phase and its product
 * phase, and the ratio with it. Process CPU and wall time per update, the provider's share
 * (the execute to the embedded sandbox) taken out of both, as bot-turn's headline does.
 *
 *   node --import tsx --expose-gc bench/bot-interleaved.ts   (BENCH_BOT_USERS per round, default
 *   200; BENCH_BOT_ROUNDS, default 3)
 */

const prefix = benchPrefix("botpair");
const system = await startBenchSystem({ prefix });
try {
  const product = system.bot as unknown as Bot;
  const emulator = system.emulator!;
  useInProcessFetch(system.bot.api, emulator);
  const floor = stackFloorBot({
    redis: asSingleKeyClient(system.redis!),
    prefix,
    client: { apiRoot: `${system.url}/telegram`, fetch: inProcessFetch(emulator) },
  });
  const pump = updatePump(emulator, PLAYGROUND_TOKEN);

  // CPU and wall time inside provider calls (the aggregator's, not the bot's).
  const inProvider = { cpu: 0, wall: 0 };
  const provider = system.provider as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(provider)) {
    if (typeof fn !== "function" || name === "close") continue;
    provider[name] = async (...args: unknown[]) => {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>).apply(provider, args);
      } finally {
        const c = process.cpuUsage(c0);
        inProvider.cpu += c.user + c.system;
        inProvider.wall += (performance.now() - w0) * 1000;
      }
    };
  }

  /** One update handled; its CPU and wall time in µs, the provider's share taken out. */
  async function one(bot: Bot, step: Step, user: number) {
    const { update_id } = step.act(emulator, user);
    const update = await pump.take(update_id);
    const p = { ...inProvider };
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await bot.handleUpdate(update);
    const wall = (performance.now() - w0) * 1000 - (inProvider.wall - p.wall);
    const c = process.cpuUsage(c0);
    checkReply(emulator, user, step);
    return { cpu: c.user + c.system - (inProvider.cpu - p.cpu), wall };
  }

  // Staff ids of the bot-turn block (bench/lib/system.ts); the prefix is this run's own.
  let nextUser = 100_000;
  const users = (n: number) => Array.from({ length: n }, () => nextUser++);
  async function round(n: number) {
    const [fu, pu] = [users(n), users(n)];
    const sum = { floor: { cpu: 0, wall: 0 }, product: { cpu: 0, wall: 0 } };
    const productSteps: number[] = [];
    for (let s = 0; s < MOBILE_FLOW.length; s++) {
      let stepCpu = 0;
      for (let j = 0; j < n; j++) {
        const f = await one(floor, ECHO_FLOW[s]!, fu[j]!);
        const p = await one(product, MOBILE_FLOW[s]!, pu[j]!);
        sum.floor.cpu += f.cpu;
        sum.floor.wall += f.wall;
        sum.product.cpu += p.cpu;
        sum.product.wall += p.wall;
        stepCpu += p.cpu;
      }
      productSteps.push(stepCpu / n);
    }
    const per = (x: number) => x / (n * MOBILE_FLOW.length);
    return {
      cpu: { product: per(sum.product.cpu), floor: per(sum.floor.cpu) },
      wall: { product: per(sum.product.wall), floor: per(sum.floor.wall) },
      productSteps,
    };
  }

  const n = intEnv("BENCH_BOT_USERS", 200);
  await round(Math.min(n, 60));
  for (let r = 0, rounds = intEnv("BENCH_BOT_ROUNDS", 3); r < rounds; r++) {
    const { cpu, wall, productSteps } = await round(n);
    console.log(
      `[bot interleaved] round ${r + 1}, ${n} users: CPU per update product ${cpu.product.toFixed(0)} µs, floor ${cpu.floor.toFixed(0)} µs (floor/product ${(cpu.floor / cpu.product).toFixed(3)}); wall per update ${wall.product.toFixed(0)} / ${wall.floor.toFixed(0)} µs (${(wall.floor / wall.product).toFixed(3)}); product CPU per step ${productSteps.map((x) => x.toFixed(0)).join(" / ")} µs`,
    );
  }
} finally {
  await system.stop();
  await deleteKeys(prefix);
}
process.exit(0);
