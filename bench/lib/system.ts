import type { UserFromGetMe } from "grammy/types";
import pino from "pino";
import { createBotApiEmulator } from "../../dev/playground/emulator/index.ts";
import { loadConfig } from "../../src/config/index.ts";
import { PLAYGROUND_TOKEN } from "../../src/local-mode.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import { startSystem } from "../../src/system/index.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { type SystemView, viewOf } from "../../test/support/system-view.ts";
import { REDIS_URL } from "./env.ts";

/**
 * The product as `npm start` builds it (startSystem: embedded sandbox, Bot API emulator under
 * /telegram, real Redis under the benchmark's prefix), with workers off so the benchmark drives the
 * bot by hand. Logs are written at info level to /dev/null: production pays for formatting and the
 * write, not for a terminal.
 */

export function benchLogger(level = "info"): Logger {
  return createLogger({ level, destination: pino.destination({ dest: "/dev/null", sync: true }) });
}

/** What getMe answers for the playground token (so the bot needs no getMe call). */
export const PLAYGROUND_BOT_INFO = createBotApiEmulator({ token: PLAYGROUND_TOKEN })
  .botUser as unknown as UserFromGetMe;

/**
 * Benchmark users order as the merchant's staff (ACCESS_MODE=staff, from the merchant's wallet, no
 * registration or balance), as every order did before ACCESS_MODE: the id blocks the benchmarks
 * draw their users from (bot-turn from 100 000, memory from 1 000 000 and 8 000 000 / 8 100 000,
 * Redis commands from 7 100 000, latency from 7 300 000; WhatsApp's mid-flow chats).
 */
const BENCH_STAFF_IDS = [
  [100_000, 30_000],
  [1_000_000, 30_000],
  [8_000_000, 1_000],
  [8_100_000, 1_000],
  [7_100_000, 1_000],
  [7_300_000, 1_000],
  // WhatsApp chats walked mid-flow by bench/whatsapp.ts (the chat id of phone 9779860000001 on).
  [WA_CHAT_BASE + 9_779_860_000_001, 1_000],
]
  .flatMap(([first, count]) => Array.from({ length: count ?? 0 }, (_, i) => (first ?? 0) + i))
  .join(",");

export async function startBenchSystem(opts: {
  prefix: string;
  env?: Record<string, string>;
  workers?: boolean;
  logger?: Logger;
}): Promise<SystemView> {
  const config = loadConfig({
    PORT: "0",
    METRICS_PORT: "0",
    // A real provider (the webhook benchmark's) still drives the bot through the emulator.
    ...(opts.env?.PROVIDER_URL && !opts.env.BOT_TOKEN ? { PLAYGROUND: "1" } : {}),
    LOG_LEVEL: "info",
    REDIS_URL,
    REDIS_PREFIX: opts.prefix,
    // The sandbox answers at once and never refuses for rate; its timers stay out of the way.
    SANDBOX_RATE_LIMIT: "0",
    SANDBOX_TO_PENDING_MS: "3600000",
    SANDBOX_TO_FINAL_MS: "3600000",
    ACCESS_MODE: "staff",
    STAFF_IDS: BENCH_STAFF_IDS,
    ...opts.env,
  });
  const system = viewOf(
    await startSystem({
      config,
      logger: opts.logger ?? benchLogger(),
      workers: opts.workers ?? false,
      ...(opts.workers ? {} : { botInfo: PLAYGROUND_BOT_INFO }),
    }),
  );
  // Each benchmark user places one order; the wallet must cover thousands of them.
  system.sandbox?.setBalance(config.sandbox.token, 1_000_000_000_000);
  return system;
}
