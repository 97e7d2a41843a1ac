import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import {
  type BotApiEmulatorOptions,
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../../dev/playground/emulator/index.ts";
import { deleteKeys } from "../redis.ts";
import type { SystemView as System } from "../system-view.ts";
import { appEnv, startInProcess } from "./app.ts";
import { type ChaosSecrets, chaosSecrets } from "./env.ts";
import { LogCapture } from "./logs.ts";
import {
  type ProviderServer,
  type ProviderServerOptions,
  startProviderServer,
} from "./provider.ts";

/**
 * The one chaos fixture: the product in this process as an operator runs it, in front of the Bot API
 * emulator and the sandbox aggregator over loopback HTTP, with fresh secrets, a captured log and a
 * Redis prefix of its own. Files that spawn child processes build on the same parts (app.ts).
 */
export interface ChaosStackOptions {
  emulator?: Omit<BotApiEmulatorOptions, "token">;
  provider?: Omit<ProviderServerOptions, "token" | "logs">;
  /** Extra environment of the app (on top of appEnv's fast timings). */
  extra?: Record<string, string>;
  redisUrl?: string;
  /** Point the sandbox's webhook at the app (default true). */
  webhook?: boolean;
  /** Delete the prefix's keys when done (default true; off for a Redis the test destroys). */
  deleteKeys?: boolean;
}

export interface ChaosStack {
  secrets: ChaosSecrets;
  logs: LogCapture;
  prefix: string;
  emu: RunningEmulator;
  provider: ProviderServer;
  app: System;
}

/**
 * Registers beforeAll/afterAll for one `describe`. `secrets`, `logs` and `prefix` are there at once;
 * `emu`, `provider` and `app` once beforeAll ran. Options given as a function are read in beforeAll
 * (e.g. a Redis URL the test starts first).
 */
export function useChaosStack(
  /** Names the saved log (test/artifacts) and the Redis prefix. */
  name: string,
  options: ChaosStackOptions | (() => ChaosStackOptions) = {},
): ChaosStack {
  const secrets = chaosSecrets();
  const logs = new LogCapture();
  const prefix = `chaos:${name}:${randomUUID().slice(0, 8)}:`;
  let emu: RunningEmulator | undefined;
  let provider: ProviderServer | undefined;
  let app: System | undefined;
  let opts: ChaosStackOptions | undefined;
  beforeAll(async () => {
    opts = typeof options === "function" ? options() : options;
    emu = await startBotApiEmulatorServer({ token: secrets.botToken, ...opts.emulator });
    provider = await startProviderServer({ token: secrets.providerToken, logs, ...opts.provider });
    app = await startInProcess({
      env: appEnv({
        secrets,
        apiRoot: emu.apiRoot,
        providerBase: provider.base,
        prefix,
        ...(opts.redisUrl ? { redisUrl: opts.redisUrl } : {}),
        ...(opts.extra ? { extra: opts.extra } : {}),
      }),
      logs,
    });
    if (opts.webhook !== false) {
      provider.sandbox.setWebhook(secrets.providerToken, {
        url: `${app.url}/webhooks/provider`,
        secret: secrets.webhookSecret,
      });
    }
  });
  afterAll(async () => {
    logs.save(name);
    await app?.stop();
    await provider?.close();
    await emu?.close();
    if (opts?.deleteKeys !== false) await deleteKeys(prefix);
  });
  const started = <T>(part: T | undefined, what: string): T => {
    if (!part) throw new Error(`the chaos stack's ${what} is read before beforeAll started it`);
    return part;
  };
  return {
    secrets,
    logs,
    prefix,
    get emu() {
      return started(emu, "emulator");
    },
    get provider() {
      return started(provider, "provider");
    },
    get app() {
      return started(app, "app");
    },
  };
}
