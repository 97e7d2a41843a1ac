import { Session } from "node:inspector/promises";
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
 * Deterministic counts for issue 31 target 2: how many times each function runs per update of
 * the bot turn (bot-turn.ts's mobile flow) and of the stack floor's echo, from V8's precise
 * coverage (call counts, not samples), step by step. Prints, per step, the functions of the
 * product's own code and of the plugins (grammY, conversations, zod, Fluent, pino, zlib's callers)
 * called at least BENCH_CALLS_MIN times an update (default 1), and the Bot API methods and Redis
 * commands sent per update (the product's client only: the floor answers each echo with one
 * sendMessage).
 *
 *   node --import tsx --expose-gc bench/bot-calls.ts   (BENCH_BOT_USERS, default 50;
 *   BENCH_CALLS_FILTER, a regex over "function url", default our code and the plugins)
 */

const prefix = benchPrefix("botcalls");
const system = await startBenchSystem({ prefix });
const session = new Session();
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

  // Bot API methods and Redis commands, counted while an update is handled.
  let counting = false;
  const methods = new Map<string, number>();
  const commands = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const options = system.bot.api.options as { fetch: (url: unknown, init?: unknown) => unknown };
  const productFetch = options.fetch;
  options.fetch = (url, init) => {
    if (counting) bump(methods, String(url).replace(/^.*\//, ""));
    return productFetch(url, init);
  };
  const redis = system.redis as unknown as { sendCommand(c: { name: string }): unknown };
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (c) => {
    if (counting) bump(commands, c.name);
    return send(c);
  };

  let nextUser = 100_000;
  const users = (n: number) => Array.from({ length: n }, () => nextUser++);
  async function walk(bot: Bot, flow: Step[], ids: number[], onStep?: (s: Step) => Promise<void>) {
    for (const step of flow) {
      for (const user of ids) {
        const { update_id } = step.act(emulator, user);
        const update = await pump.take(update_id);
        counting = true;
        await bot.handleUpdate(update);
        counting = false;
        checkReply(emulator, user, step);
      }
      await onStep?.(step);
    }
  }

  const n = intEnv("BENCH_BOT_USERS", 50);
  const min = intEnv("BENCH_CALLS_MIN", 1);
  const filter = new RegExp(
    process.env.BENCH_CALLS_FILTER ??
      "/(src|conversations)/|@grammyjs|grammy/out|zod/|@fluent|pino|node:zlib|ioredis/built/(Redis|Pipeline|Command)",
  );
  // Warm up both bots (JIT, first-use paths), then count.
  await walk(floor, ECHO_FLOW, users(20));
  await walk(product, MOBILE_FLOW, users(20));
  methods.clear();
  commands.clear();

  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  await session.post("Profiler.takePreciseCoverage"); // reset

  async function report(label: string) {
    const { result } = await session.post("Profiler.takePreciseCoverage");
    const rows: Array<[string, number]> = [];
    for (const script of result) {
      if (!filter.test(script.url) && !/node:zlib/.test(script.url)) continue;
      const short = script.url.replace(/^.*\/(node_modules|src|bench|dev|conversations)\//, "$1/");
      for (const fn of script.functions) {
        const count = fn.ranges[0]?.count ?? 0;
        if (count / n < min) continue;
        rows.push([
          `${fn.functionName || `(anonymous @${fn.ranges[0]?.startOffset})`} ${short}`,
          count / n,
        ]);
      }
    }
    rows.sort((a, b) => b[1] - a[1]);
    console.log(`\n== ${label}: calls per update (${n} users)`);
    console.log(
      `Bot API: ${[...methods].map(([k, v]) => `${k} ${(v / n).toFixed(2)}`).join(", ")}; Redis: ${[...commands].map(([k, v]) => `${k} ${(v / n).toFixed(2)}`).join(", ")}`,
    );
    for (const [k, v] of rows.slice(0, intEnv("BENCH_CALLS_TOP", 60)))
      console.log(`${v.toFixed(1).padStart(8)}  ${k}`);
    methods.clear();
    commands.clear();
  }
  const fu = users(n);
  await walk(floor, ECHO_FLOW.slice(0, 1), fu, () => report("floor, echo 1"));
  await walk(floor, ECHO_FLOW.slice(1, 2), fu, () =>
    report("floor, echo 2 (a conversation replayed)"),
  );
  await walk(product, MOBILE_FLOW, users(n), (s) => report(`product, ${s.name}`));
} finally {
  session.disconnect();
  await system.stop();
  await deleteKeys(prefix);
}
process.exit(0);
