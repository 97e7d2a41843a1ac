import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import {
  type BotApiEmulatorOptions,
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../../dev/playground/emulator/index.ts";
import { type ApiTap, startApiTap } from "./api-tap.ts";
import { type AppProcess, appEnv, deletePrefix, spawnApp } from "./app.ts";
import { type ChaosSecrets, chaosSecrets, SHARED_REDIS_URL } from "./env.ts";
import { lateParts } from "./late.ts";
import { LogCapture } from "./logs.ts";
import {
  type ProviderServer,
  type ProviderServerOptions,
  startProviderServer,
} from "./provider.ts";

/**
 * The chaos fixture of files whose product runs as child processes (`spawnApp`) that the test kills:
 * the Bot API emulator and the sandbox aggregator over loopback HTTP, a connection to the shared
 * Redis under a prefix of its own, fresh secrets and a captured log. Every process and tap it made
 * is stopped after the tests, then the prefix's keys are deleted.
 */
export interface ProcessStack {
  secrets: ChaosSecrets;
  logs: LogCapture;
  prefix: string;
  emu: RunningEmulator;
  provider: ProviderServer;
  /** The shared Redis, for reading what the processes stored. */
  redis: Redis;
  /** A tap in front of the emulator's Bot API (api-tap.ts), for one process to reach it through. */
  tap(): Promise<ApiTap>;
  /** appEnv of one instance: this stack's secrets, sandbox and prefix on the shared Redis. */
  env(apiRoot: string, extra: Record<string, string>): Record<string, string>;
  /** `node src/main.ts` with `env`, its output in the log; sent SIGTERM after the tests if alive. */
  spawn(name: string, env: Record<string, string>): AppProcess;
}

/**
 * Registers beforeAll/afterAll for one `describe`. `secrets`, `logs` and `prefix` are there at once;
 * the rest once beforeAll ran. `provider` is called in beforeAll, before the sandbox starts (e.g.
 * to start what its webhooks go to).
 */
export function useProcessStack(
  /** Names the saved log (test/artifacts) and the Redis prefix. */
  name: string,
  provider: (
    secrets: ChaosSecrets,
  ) =>
    | Omit<ProviderServerOptions, "token" | "logs">
    | Promise<Omit<ProviderServerOptions, "token" | "logs">>,
  /** The emulator's own options (e.g. webhook retries that outlast a restart of the instances). */
  emulator: Omit<BotApiEmulatorOptions, "token"> = {},
): ProcessStack {
  const secrets = chaosSecrets();
  const logs = new LogCapture();
  const prefix = `chaos:${name}:${randomUUID().slice(0, 8)}:`;
  const taps: ApiTap[] = [];
  const apps: AppProcess[] = [];
  const parts: Partial<ProcessStack> = {
    secrets,
    logs,
    prefix,
    async tap() {
      const t = await startApiTap(stack.emu.apiRoot);
      taps.push(t);
      return t;
    },
    env(apiRoot, extra) {
      return appEnv({ secrets, apiRoot, providerBase: stack.provider.base, prefix, extra });
    },
    spawn(appName, env) {
      const app = spawnApp(appName, env, logs);
      apps.push(app);
      return app;
    },
  };
  const stack = lateParts<ProcessStack>("process stack", parts);
  beforeAll(async () => {
    parts.emu = await startBotApiEmulatorServer({ token: secrets.botToken, ...emulator });
    parts.provider = await startProviderServer({
      token: secrets.providerToken,
      logs,
      ...(await provider(secrets)),
    });
    parts.redis = new Redis(SHARED_REDIS_URL);
  });
  afterAll(async () => {
    for (const app of apps) await app.kill("SIGTERM");
    logs.save(name);
    for (const t of taps) await t.close();
    await parts.provider?.close();
    await parts.emu?.close();
    parts.redis?.disconnect();
    await deletePrefix(prefix);
  });
  return stack;
}
