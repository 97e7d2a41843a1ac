import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../../dev/playground/emulator/index.ts";
import { deleteKeys } from "../redis.ts";
import type { SystemView as System } from "../system-view.ts";
import { type ApiTap, startApiTap } from "./api-tap.ts";
import { appEnv, startInProcess } from "./app.ts";
import { type ChaosSecrets, chaosSecrets, SHARED_REDIS_URL } from "./env.ts";
import { lateParts } from "./late.ts";
import { LogCapture } from "./logs.ts";
import {
  type ProviderServer,
  type ProviderServerOptions,
  startProviderServer,
} from "./provider.ts";
import { type RoundRobinProxy, startRoundRobinProxy } from "./proxy.ts";

/**
 * Two instances of the product in this process (two startSystem, each with its own Redis
 * connections, HTTP server, notifier and reconciler) on one Redis prefix, in Telegram webhook mode
 * behind a round-robin balancer that is their PUBLIC_URL: the Bot API emulator delivers every
 * update to the balancer, so a chat's consecutive updates reach the two instances in turn. Each
 * instance reaches the Bot API through a tap of its own (api-tap.ts: one answer can be held, which
 * keeps an update in the handling while the next one arrives). The aggregator's webhooks go to
 * instance A directly, so that only Telegram's updates take turns at the balancer.
 */
export interface InstancePair {
  secrets: ChaosSecrets;
  logs: LogCapture;
  prefix: string;
  emu: RunningEmulator;
  provider: ProviderServer;
  proxy: RoundRobinProxy;
  a: System;
  b: System;
  /** The taps of a and b, in that order. */
  taps: [ApiTap, ApiTap];
  /** The shared Redis, for reading what the instances stored. */
  redis: Redis;
}

export interface InstancePairOptions {
  provider?: Omit<ProviderServerOptions, "token" | "logs">;
  /** Extra environment of both instances. */
  extra?: Record<string, string>;
}

export function useInstancePair(name: string, opts: InstancePairOptions = {}): InstancePair {
  const secrets = chaosSecrets();
  const logs = new LogCapture();
  const prefix = `pair:${name}:${randomUUID().slice(0, 8)}:`;
  const parts: Partial<InstancePair> = { secrets, logs, prefix };
  const pair = lateParts<InstancePair>("instance pair", parts);
  // The instances bind port 0 and the balancer reads the ports they got: a port chosen first and
  // bound later can be taken in between by another test file's server (seen in CI: EADDRINUSE).
  const ports: number[] = [];
  beforeAll(async () => {
    parts.proxy = await startRoundRobinProxy(() => ports);
    parts.emu = await startBotApiEmulatorServer({ token: secrets.botToken });
    parts.provider = await startProviderServer({
      token: secrets.providerToken,
      logs,
      ...opts.provider,
    });
    parts.redis = new Redis(SHARED_REDIS_URL);
    const taps: [ApiTap, ApiTap] = [
      await startApiTap(parts.emu.apiRoot),
      await startApiTap(parts.emu.apiRoot),
    ];
    parts.taps = taps;
    const start = (i: 0 | 1) =>
      startInProcess({
        env: appEnv({
          secrets,
          apiRoot: taps[i].url,
          providerBase: pair.provider.base,
          prefix,
          extra: {
            PORT: "0",
            PUBLIC_URL: pair.proxy.url,
            ...opts.extra,
          },
        }),
        logs,
        source: i === 0 ? "instance-a" : "instance-b",
        instanceName: i === 0 ? "instance-a" : "instance-b",
      });
    parts.a = await start(0);
    parts.b = await start(1);
    ports.push(parts.a.port, parts.b.port);
    pair.provider.sandbox.setWebhook(secrets.providerToken, {
      url: `${parts.a.url}/webhooks/provider`,
      secret: secrets.webhookSecret,
    });
  }, 60_000);
  afterAll(async () => {
    logs.save(name);
    await parts.a?.stop();
    await parts.b?.stop();
    for (const t of parts.taps ?? []) await t.close();
    await parts.proxy?.close();
    await parts.provider?.close();
    await parts.emu?.close();
    parts.redis?.disconnect();
    await deleteKeys(prefix);
  });
  return pair;
}
