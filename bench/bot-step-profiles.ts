import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
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
import { PROFILE_DIR } from "./lib/child.ts";
import { intEnv } from "./lib/env.ts";
import { benchPrefix, deleteKeys } from "./lib/redis.ts";
import { stackFloorBot } from "./lib/stack-floor.ts";
import { startBenchSystem } from "./lib/system.ts";

/**
 * Issue 31 target 2: one CPU profile per step of the bot turn (bot-turn.ts's mobile flow) and of
 * the stack floor's first two echoes (the conversation entered, then replayed), BENCH_BOT_USERS
 * users each (default 400), 100 µs sampling, written as bench/results/step-<bot>-<step>.cpuprofile.
 * Split them by layer with bench/profile-layers.ts (a column may sum the five steps).
 *
 *   node --import tsx --expose-gc bench/bot-step-profiles.ts
 */

const prefix = benchPrefix("stepprof");
const system = await startBenchSystem({ prefix });
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
mkdirSync(PROFILE_DIR, { recursive: true });
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
  let nextUser = 100_000;
  const users = (n: number) => Array.from({ length: n }, () => nextUser++);
  async function walk(bot: Bot, flow: Step[], ids: number[], label?: string) {
    for (const step of flow) {
      if (label) await session.post("Profiler.start");
      for (const user of ids) {
        const { update_id } = step.act(emulator, user);
        await bot.handleUpdate(await pump.take(update_id));
        checkReply(emulator, user, step);
      }
      if (!label) continue;
      const { profile } = await session.post("Profiler.stop");
      const file = join(PROFILE_DIR, `step-${label}-${step.name.replace(/\W+/g, "_")}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`[profile] ${file}`);
    }
  }
  // Warm-up (JIT, first-use paths), then the measured walks.
  await walk(floor, ECHO_FLOW, users(100));
  await walk(product, MOBILE_FLOW, users(100));
  const n = intEnv("BENCH_BOT_USERS", 400);
  await walk(floor, ECHO_FLOW.slice(0, 2), users(n), "floor");
  await walk(product, MOBILE_FLOW, users(n), "product");
} finally {
  session.disconnect();
  await system.stop();
  await deleteKeys(prefix);
}
process.exit(0);
