import { type ChildProcess, spawn } from "node:child_process";
import { loadConfig, secretsOf } from "../../../src/config/index.ts";
import { createLogger } from "../../../src/logger.ts";
import { startSystem } from "../../../src/system/index.ts";
import { type SystemView, viewOf } from "../system-view.ts";
import { type ChaosSecrets, ROOT, SHARED_REDIS_URL } from "./env.ts";
import type { LogCapture } from "./logs.ts";

/**
 * The product under test, configured as an operator would: a bot token and an external Bot API
 * (the emulator), an external aggregator (the sandbox served by the test), Redis. Either in this
 * process through startSystem (the composition root main.ts uses), or as a child process running
 * `node --import tsx src/main.ts`, which can be SIGKILLed.
 */

export interface AppEnvOptions {
  secrets: ChaosSecrets;
  apiRoot: string;
  providerBase: string;
  redisUrl?: string;
  prefix: string;
  extra?: Record<string, string>;
}

/**
 * Who pays in the chaos stacks: staff mode, every chaos chat user listed (ids in blocks of a
 * thousand from 610 000 to 695 999, one block per test file), so orders are taken from the
 * merchant's wallet as before ACCESS_MODE, and orders placed directly take no hold. A test may
 * set ACCESS_MODE in `extra`.
 */
const CHAOS_STAFF_IDS = [610, 620, 630, 640, 650, 660, 670, 680, 690, 695]
  .flatMap((block) => Array.from({ length: 1000 }, (_, i) => block * 1000 + i))
  .join(",");

/** The environment of one instance (fast reconciler timings for tests). */
export function appEnv(o: AppEnvOptions): Record<string, string> {
  return {
    BOT_TOKEN: o.secrets.botToken,
    TELEGRAM_API_ROOT: o.apiRoot,
    PROVIDER_URL: o.providerBase,
    PROVIDER_TOKEN: o.secrets.providerToken,
    WEBHOOK_SECRET: o.secrets.webhookSecret,
    REDIS_URL: o.redisUrl ?? SHARED_REDIS_URL,
    REDIS_PREFIX: o.prefix,
    HOST: "127.0.0.1",
    PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    RECONCILE_INTERVAL_MS: "250",
    RECONCILE_MIN_AGE_MS: "500",
    // Production waits 3 "not found" answers over 30 minutes; the same rule, in seconds.
    RECONCILE_NOT_FOUND_ANSWERS: "2",
    RECONCILE_NOT_FOUND_WINDOW_MS: "4000",
    PROVIDER_EXECUTE_TIMEOUT_MS: "1500",
    PROVIDER_LOOKUP_TIMEOUT_MS: "1500",
    PROVIDER_MAX_RETRIES: "2",
    ACCESS_MODE: "staff",
    STAFF_IDS: CHAOS_STAFF_IDS,
    ...o.extra,
  };
}

export interface InProcessOptions {
  env: Record<string, string>;
  logs: LogCapture;
  source?: string;
  now?: () => number;
  workers?: boolean;
  instanceName?: string;
}

/** startSystem with the production logger (secret scrubbing on) writing into the capture. */
export async function startInProcess(o: InProcessOptions): Promise<SystemView> {
  const config = loadConfig(o.env);
  const logger = createLogger({
    level: config.logLevel,
    secrets: secretsOf(config),
    destination: o.logs.sink(o.source ?? "app"),
  });
  return viewOf(
    await startSystem({
      config,
      logger,
      ...(o.now ? { now: o.now } : {}),
      ...(o.workers === undefined ? {} : { workers: o.workers }),
      ...(o.instanceName ? { instanceName: o.instanceName } : {}),
    }),
  );
}

export interface AppProcess {
  name: string;
  proc: ChildProcess;
  /** Resolves when the process printed that it is running. */
  ready: Promise<void>;
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `node --import tsx src/main.ts` with exactly `env` (plus PATH/HOME); stdout and stderr captured. */
export function spawnApp(name: string, env: Record<string, string>, logs: LogCapture): AppProcess {
  const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes("Recharge assistant is running")) {
        proc.stdout?.off("data", onData);
        resolve();
      }
    };
    proc.stdout?.on("data", onData);
    proc.once("exit", (code, signal) =>
      reject(new Error(`${name} exited before it was ready (${code ?? signal}): ${output}`)),
    );
  });
  ready.catch(() => undefined);
  proc.stdout?.on("data", (c: Buffer) => logs.write(`${name}:stdout`, c));
  proc.stderr?.on("data", (c: Buffer) => logs.write(`${name}:stderr`, c));
  const exited = new Promise<number | null>((resolve) =>
    proc.once("exit", (code) => resolve(code)),
  );
  return {
    name,
    proc,
    ready,
    exited,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async kill(signal = "SIGKILL") {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill(signal);
      await exited;
    },
  };
}

/** Deletes every key under a prefix of the shared Redis. */
export { deleteKeys as deletePrefix } from "../redis.ts";
