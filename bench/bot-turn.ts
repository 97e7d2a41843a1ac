import { performance } from "node:perf_hooks";
import { Bot } from "grammy";
import { PLAYGROUND_TOKEN } from "../src/local-mode.ts";
import { asSingleKeyClient } from "../src/redis/connection.ts";
import type { SystemView as System } from "../test/support/system-view.ts";
import {
  checkReply,
  clearInProcessFetch,
  ECHO_FLOW,
  inProcessFetch,
  MOBILE_FLOW,
  type Step,
  updatePump,
  useInProcessFetch,
} from "./lib/bot-driver.ts";
import { childMain } from "./lib/child.ts";
import { intEnv, listEnv } from "./lib/env.ts";
import { profiled } from "./lib/profiler.ts";
import { benchPrefix, deleteKeys } from "./lib/redis.ts";
import { stackFloorBot } from "./lib/stack-floor.ts";
import { type Summary, summarize } from "./lib/stats.ts";
import { PLAYGROUND_BOT_INFO, startBenchSystem } from "./lib/system.ts";

/**
 * Bot turn: the complete mobile top-up (6 updates: /recharge, tap Mobile, number, tap operator,
 * amount, tap Confirm) for N users, handled by the product's bot as startSystem builds it (Redis
 * sessions, Redis conversation storage, update claims, flood limiter, i18n, orders in Redis, the
 * execute to the embedded sandbox), against a bare echo bot answering the same number of text
 * updates on the same emulator. The emulator is the product's own (playground mode). Each update
 * is timed around bot.handleUpdate, one at a time, users interleaved step by step (all users at
 * step 1, then all at step 2, ...), so every step loads a conversation stored in Redis among N
 * others.
 *
 * Transport: both bots reach the emulator in process through grammY's `client.fetch` (no socket;
 * the emulator's own handling still counts), then, at the main size only, through `client.apiRoot`
 * over loopback HTTP in the same process (client AND server side of every call count).
 * The provider's time: Confirm waits for the execute, a round trip to the embedded sandbox whose
 * server side also runs in this process. In production that is the aggregator's time (network
 * included), nothing the bot's code can shorten, so the headline figures subtract the time spent
 * inside provider calls; `withProviderMs` keeps it.
 *
 * A second reference, the stack floor, is measured at the main size: the echo bot rebuilt on the
 * stack the product must use, a Redis session and a conversations v2 conversation stored in Redis
 * (read, replayed and written back on every update), answering the same six texts. It is what the
 * mandated plugins cost before any product logic, so it bounds what the product could reach.
 */

export interface FlowRun {
  users: number;
  updates: number;
  /** Updates per second of handleUpdate time, provider round trips excluded. */
  updatesPerSecond: number;
  /** handleUpdate time minus the time spent waiting for the provider (the embedded sandbox). */
  latencyMs: Summary;
  /** handleUpdate time as measured, the execute round trip to the embedded sandbox included. */
  withProviderMs: Summary;
  updatesPerSecondWithProvider: number;
  perStepMs: Record<string, Summary>;
  /**
   * Process CPU time (user + system) per update over the whole run, the emulator's and the
   * sandbox's included: less swayed than the wall-clock figures by other load on a shared machine.
   */
  cpuMsPerUpdate: number;
  /**
   * The same less the CPU spent while a provider call was in flight (the execute: its client side
   * and the embedded sandbox's server side, one update at a time so nothing else ran then).
   */
  cpuMsPerUpdateExProvider: number;
}

/**
 * Time spent inside provider calls (execute, status, lookups): the aggregator's time, not the
 * bot's. The orders service calls `provider.execute` on the object startSystem returns, so
 * wrapping its methods sees every call.
 */
function providerClock(system: System) {
  let busyMs = 0;
  let cpuUs = 0;
  const provider = system.provider as unknown as Record<string, unknown>;
  for (const [name, fn] of Object.entries(provider)) {
    if (typeof fn !== "function" || name === "close") continue;
    provider[name] = async (...args: unknown[]) => {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>).apply(provider, args);
      } finally {
        busyMs += performance.now() - t0;
        const c = process.cpuUsage(c0);
        cpuUs += c.user + c.system;
      }
    };
  }
  return { busyMs: () => busyMs, cpuUs: () => cpuUs };
}

async function runFlow(
  system: System,
  bot: Bot,
  flow: Step[],
  userIds: number[],
  provider: { busyMs(): number; cpuUs(): number },
): Promise<FlowRun> {
  const emulator = system.emulator!;
  const pump = updatePump(emulator, PLAYGROUND_TOKEN);
  const all: number[] = [];
  const raw: number[] = [];
  const perStep: Record<string, number[]> = {};
  const cpu0 = process.cpuUsage();
  const providerCpu0 = provider.cpuUs();
  for (const step of flow) {
    const samples: number[] = [];
    for (const user of userIds) {
      const { update_id } = step.act(emulator, user);
      const update = await pump.take(update_id);
      const p0 = provider.busyMs();
      const t0 = performance.now();
      await bot.handleUpdate(update);
      const elapsed = performance.now() - t0;
      raw.push(elapsed);
      samples.push(elapsed - (provider.busyMs() - p0));
      checkReply(emulator, user, step);
    }
    perStep[step.name] = samples;
    all.push(...samples);
  }
  const cpu = process.cpuUsage(cpu0);
  const providerCpuUs = provider.cpuUs() - providerCpu0;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    users: userIds.length,
    updates: all.length,
    updatesPerSecond: (all.length / sum(all)) * 1000,
    latencyMs: summarize(all),
    withProviderMs: summarize(raw),
    updatesPerSecondWithProvider: (raw.length / sum(raw)) * 1000,
    perStepMs: Object.fromEntries(Object.entries(perStep).map(([k, v]) => [k, summarize(v)])),
    cpuMsPerUpdate: (cpu.user + cpu.system) / 1000 / all.length,
    cpuMsPerUpdateExProvider: (cpu.user + cpu.system - providerCpuUs) / 1000 / all.length,
  };
}

function echoBot(system: System, inProcess: boolean): Bot {
  const bot = new Bot(PLAYGROUND_TOKEN, {
    client: {
      apiRoot: `${system.url}/telegram`,
      ...(inProcess ? { fetch: inProcessFetch(system.emulator!) } : {}),
    },
    botInfo: PLAYGROUND_BOT_INFO,
  });
  bot.on("message:text", (ctx) => ctx.reply(ctx.message.text));
  return bot;
}

/** Echo on the product's mandated stack: Redis session + conversations v2 stored in Redis. */
function floorBot(system: System, prefix: string): Bot {
  const redis = system.redis && asSingleKeyClient(system.redis);
  if (!redis) throw new Error("the bot benchmark needs Redis");
  return stackFloorBot({
    redis,
    prefix,
    client: { apiRoot: `${system.url}/telegram`, fetch: inProcessFetch(system.emulator!) },
  });
}

let nextUser = 100_000;
const usersOf = (n: number) => Array.from({ length: n }, () => nextUser++);

type Pair = { product: FlowRun; echo: FlowRun; floor?: FlowRun };

async function measure(
  system: System,
  bots: { product: Bot; echo: Bot; floor?: Bot },
  sizes: number[],
  warmup: number,
  label: string,
  floorAt?: number,
): Promise<Pair[]> {
  const provider = providerClock(system);
  await runFlow(system, bots.echo, ECHO_FLOW, usersOf(warmup), provider);
  if (bots.floor) await runFlow(system, bots.floor, ECHO_FLOW, usersOf(warmup), provider);
  await runFlow(system, bots.product, MOBILE_FLOW, usersOf(warmup), provider);
  const runs: Pair[] = [];
  for (const n of sizes) {
    const echo = await runFlow(system, bots.echo, ECHO_FLOW, usersOf(n), provider);
    const floor =
      bots.floor && n === floorAt
        ? await profiled(`bot-floor-${label}-${n}`, () =>
            runFlow(system, bots.floor!, ECHO_FLOW, usersOf(n), provider),
          )
        : undefined;
    const product = await profiled(`bot-${label}-${n}`, () =>
      runFlow(system, bots.product, MOBILE_FLOW, usersOf(n), provider),
    );
    runs.push({ product, echo, ...(floor ? { floor } : {}) });
    const floorNote = floor
      ? `; stack floor ${floor.updatesPerSecond.toFixed(0)}/s p99 ${floor.latencyMs.p99.toFixed(2)} ms cpu ${floor.cpuMsPerUpdate.toFixed(2)} ms/update`
      : "";
    console.error(
      `[bot ${label}] ${n} users: product ${product.updatesPerSecond.toFixed(0)}/s p99 ${product.latencyMs.p99.toFixed(2)} ms (with provider ${product.withProviderMs.p99.toFixed(2)}) cpu ${product.cpuMsPerUpdate.toFixed(2)} ms/update; echo ${echo.updatesPerSecond.toFixed(0)}/s p99 ${echo.latencyMs.p99.toFixed(2)} ms${floorNote}`,
    );
  }
  return runs;
}

/**
 * Sizes (BENCH_BOT_USERS) with the emulator in process through client.fetch; then the main size
 * again (BENCH_BOT_LOOPBACK_USERS, 0 to skip) with both bots on client.apiRoot over loopback HTTP,
 * the transport `npm start` uses in playground mode.
 */
export async function runBotTurn() {
  const sizes = listEnv("BENCH_BOT_USERS", [250, 1000, 4000]);
  const mainUsers = intEnv("BENCH_BOT_MAIN_USERS", 1000);
  const loopbackUsers = intEnv("BENCH_BOT_LOOPBACK_USERS", mainUsers);
  const warmup = intEnv("BENCH_BOT_WARMUP_USERS", 200);
  const prefix = benchPrefix("bot");
  const system = await startBenchSystem({ prefix });
  const product = system.bot as unknown as Bot;
  try {
    useInProcessFetch(system.bot.api, system.emulator!);
    const runs = await measure(
      system,
      { product, echo: echoBot(system, true), floor: floorBot(system, prefix) },
      sizes,
      warmup,
      "in-process",
      mainUsers,
    );
    let loopback: Pair | undefined;
    if (loopbackUsers > 0) {
      clearInProcessFetch(system.bot.api);
      [loopback] = await measure(
        system,
        { product, echo: echoBot(system, false) },
        [loopbackUsers],
        Math.min(warmup, 50),
        "loopback",
      );
    }
    return { transport: "in process (client.fetch)", mainUsers, runs, loopback };
  } finally {
    await system.stop();
    await deleteKeys(prefix);
  }
}

childMain(import.meta.url, runBotTurn);
