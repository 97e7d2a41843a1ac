import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";
import {
  type BotApiEmulator,
  startBotApiEmulatorServer,
} from "../dev/playground/emulator/index.ts";
import { epochKey } from "../src/redis/chat-turns.ts";
import { MOBILE_FLOW, type Step } from "./lib/bot-driver.ts";
import { childMain } from "./lib/child.ts";
import { compiledServer } from "./lib/compiled.ts";
import { intEnv } from "./lib/env.ts";
import { describeMemory, type ProcMemory } from "./lib/proc-memory.ts";
import { benchPrefix, connectRedis, deleteKeys } from "./lib/redis.ts";
import { startHelper } from "./lib/rpc.ts";
import { summarize } from "./lib/stats.ts";

/**
 * Memory: N users (default 10,000) each in the middle of the mobile top-up (/recharge, tap Mobile,
 * type the number: the bot is waiting for the operator), against the product process started as
 * `npm start` starts it with a bot token (memory-server.ts); the users (BENCH_MEMORY_CONCURRENCY
 * at a time) and the Bot API emulator are in this process. Figures: the product process's RSS
 * after a forced GC, once right after the users arrived and once after a quiet period
 * (BENCH_MEMORY_SETTLE_SECONDS), against its RSS idle after start-up and a warm-up; Redis bytes per
 * conversation = MEMORY USAGE of the user's conversation key + session key + the chat's turn
 * epoch (every chat that spoke has one; bench/whatsapp.ts counts the same) (the largest of a
 * sample), against a user who only opened the menu (no conversation).
 */

const SERVER = fileURLToPath(new URL("./memory-server.ts", import.meta.url));
const TOKEN = "7000000003:bench-memory";
const MIDDLE: Step[] = MOBILE_FLOW.slice(0, 3);

type Memory = ProcMemory & {
  rssAtGc: number;
  /** The product's own trims so far (src/system/memory-trim.ts, as src/main.ts starts it). */
  trims: { rssBefore: number; rssAfter: number; ms: number }[];
};

async function walk(emulator: BotApiEmulator, users: number[], steps: Step[], concurrency: number) {
  let next = 0;
  const worker = async () => {
    while (next < users.length) {
      const user = users[next++]!;
      emulator.users.upsert(user, { first_name: `U${user}` });
      for (const step of steps) {
        const afterId = emulator.chat(user).at(-1)?.id ?? 0;
        step.act(emulator, user);
        await emulator.waitForBotMessage(user, step.expect, { afterId, timeoutMs: 60_000 });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function bytesOf(redis: Redis, keys: string[]): Promise<number> {
  let total = 0;
  for (const k of keys)
    total += Number((await redis.call("MEMORY", "USAGE", k, "SAMPLES", "0")) ?? 0);
  return total;
}

export async function runMemoryBench() {
  const users = intEnv("BENCH_MEMORY_USERS", 10_000);
  const concurrency = intEnv("BENCH_MEMORY_CONCURRENCY", 200);
  const sample = Math.min(users, intEnv("BENCH_MEMORY_SAMPLE", 1000));
  const prefix = benchPrefix("memory");
  const em = await startBotApiEmulatorServer({
    token: TOKEN,
    callLogLimit: 1000,
    updateHistoryLimit: 1000,
  });
  const redis = connectRedis();
  const nodeFlags = (process.env.BENCH_MEMORY_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  // Compiled as `npm start` runs it (lib/compiled.ts); BENCH_MEMORY_RUNNER=tsx runs it under tsx
  // instead (as `npm run start:tsx` does), for comparison.
  const runner = process.env.BENCH_MEMORY_RUNNER === "tsx" ? "tsx" : "node";
  const server = await startHelper(
    runner === "tsx" ? SERVER : compiledServer(SERVER),
    { BENCH_PREFIX: prefix, BENCH_API_ROOT: em.apiRoot, BENCH_BOT_TOKEN: TOKEN },
    nodeFlags,
    { tsx: runner === "tsx" },
  );
  try {
    const emulator = em.emulator;
    const warm = Array.from({ length: 50 }, (_, i) => 8_000_000 + i);
    await walk(emulator, warm, MIDDLE, 25);
    const menuOnly = Array.from({ length: 100 }, (_, i) => 8_100_000 + i);
    await walk(emulator, menuOnly, MIDDLE.slice(0, 1), 25);
    const idle = await server.call<Memory>("memory");
    console.error(`[memory] idle: ${describeMemory(idle)}`);
    const redisBefore = Number(/used_memory:(\d+)/.exec(await redis.info("memory"))?.[1]);

    const ids = Array.from({ length: users }, (_, i) => 1_000_000 + i);
    const t0 = Date.now();
    await walk(emulator, ids, MIDDLE, concurrency);
    const seconds = (Date.now() - t0) / 1000;
    const loaded = await server.call<Memory>("memory");
    console.error(`[memory] right after the burst: ${describeMemory(loaded)}`);
    // The state the figure is about: everyone mid-conversation, nobody typing for a moment.
    const settleSeconds = intEnv("BENCH_MEMORY_SETTLE_SECONDS", 10);
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    const settled = await server.call<Memory>("memory");
    console.error(`[memory] settled: ${describeMemory(settled)}`);
    const redisAfter = Number(/used_memory:(\d+)/.exec(await redis.info("memory"))?.[1]);

    const perConversation: number[] = [];
    const step = Math.max(1, Math.floor(users / sample));
    for (let i = 0; i < users; i += step) {
      const id = ids[i]!;
      perConversation.push(
        await bytesOf(redis, [
          `${prefix}conversation:${id}`,
          `${prefix}session:${id}`,
          epochKey(prefix, String(id)),
        ]),
      );
    }
    const menuOnlyBytes: number[] = [];
    for (const id of menuOnly) {
      menuOnlyBytes.push(
        await bytesOf(redis, [
          `${prefix}conversation:${id}`,
          `${prefix}session:${id}`,
          epochKey(prefix, String(id)),
        ]),
      );
    }
    const convLength = await redis.strlen(`${prefix}conversation:${ids[0]}`);
    console.error(
      `[memory] ${users} users mid-conversation: RSS ${(settled.rss / 2 ** 20).toFixed(0)} MB, right after the load ${(loaded.rss / 2 ** 20).toFixed(0)} MB (idle ${(idle.rss / 2 ** 20).toFixed(0)} MB); Redis ${summarize(perConversation).mean.toFixed(0)} B per conversation+session (menu only ${summarize(menuOnlyBytes).mean.toFixed(0)} B)`,
    );
    return {
      users,
      runner,
      nodeFlags,
      mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? null,
      seconds,
      /** The product process's CPU time for the burst (the users' 3 updates each), per update. */
      burstCpuMicrosPerUpdate: (loaded.cpuMicros - idle.cpuMicros) / (users * MIDDLE.length),
      idle,
      loaded,
      settled,
      settleSeconds,
      perConversationBytes: summarize(perConversation),
      menuOnlyBytes: summarize(menuOnlyBytes),
      conversationStoredBytes: convLength,
      redisUsedMemoryPerUser: (redisAfter - redisBefore) / users,
    };
  } finally {
    await server.close();
    await em.close();
    redis.disconnect();
    await deleteKeys(prefix);
  }
}

childMain(import.meta.url, runMemoryBench);
