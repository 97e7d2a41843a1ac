import { randomBytes } from "node:crypto";
import { type AddressInfo, createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { REDIS_URL } from "../redis.ts";
import { waitUntil as waitUntilBase } from "../wait.ts";

export { seeded, sleep } from "../wait.ts";

/** Shared plumbing of the chaos suite: secrets of the run, free ports, waiting, figures. */

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const SHARED_REDIS_URL = REDIS_URL;

export interface ChaosSecrets {
  botToken: string;
  providerToken: string;
  webhookSecret: string;
}

/**
 * Fresh, distinctive secrets for one test file, so a leak anywhere in the captured logs is found by
 * a plain substring search. The bot id part of the token is public (it is the bot's user id); the
 * part after the colon is the secret.
 */
export function chaosSecrets(): ChaosSecrets {
  const id = 7_100_000_000 + Math.floor(Math.random() * 99_999_999);
  return {
    botToken: `${id}:AAchaos${randomBytes(16).toString("hex")}`,
    providerToken: `provtok-${randomBytes(12).toString("hex")}`,
    webhookSecret: `whsec-${randomBytes(12).toString("hex")}`,
  };
}

/** Every form in which a secret could show up in a log line. */
export function secretNeedles(s: ChaosSecrets): string[] {
  const botSecret = s.botToken.slice(s.botToken.indexOf(":") + 1);
  const values = [s.botToken, botSecret, s.providerToken, s.webhookSecret];
  return [...new Set([...values, ...values.map(encodeURIComponent)])];
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/**
 * `start` on a port chosen before it binds (a PUBLIC_URL must name it first), chosen again when
 * another test file's server took it in between (EADDRINUSE; the system's failed start leaves
 * nothing running).
 */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (err) {
      const inUse = (err as NodeJS.ErrnoException).code === "EADDRINUSE";
      if (!inUse || attempt === 3) throw err;
    }
  }
}

/**
 * `count` distinct loopback ports nothing listens on right now. Each is held until all are
 * chosen: a port closed at once may be handed out again by the next bind (seen: a 3-node test
 * cluster given one port twice). `clusterBus`: Redis Cluster also binds port + 10,000, so that
 * one must be free too and the port at most 55,535.
 */
export async function freePorts(
  count: number,
  o: { clusterBus?: boolean } = {},
): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    for (let tries = 0; ports.length < count; tries++) {
      if (tries > count * 50) throw new Error(`no ${count} free loopback ports found`);
      const server = await listenOn(0);
      held.push(server);
      const port = (server.address() as AddressInfo).port;
      if (!o.clusterBus) {
        ports.push(port);
        continue;
      }
      if (port > 55_535) continue;
      const bus = await listenOn(port + 10_000).catch(() => undefined);
      if (!bus) continue;
      held.push(bus);
      ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map((s) => new Promise((done) => s.close(done))));
  }
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** Polls `probe` until it returns a truthy value; fails after `timeoutMs` naming `what`. */
export function waitUntil<T>(
  probe: () => T | Promise<T>,
  what: string,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<NonNullable<T>> {
  return waitUntilBase(probe, what, { timeoutMs: 30_000, intervalMs: 50, ...opts });
}

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Prints the figures of one test in a block the README's reliability section can quote. */
export function report(title: string, figures: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  const lines = Object.entries(figures).map(
    ([k, v]) => `  ${k.padEnd(width)}  ${typeof v === "string" ? v : JSON.stringify(v)}`,
  );
  console.log(`\n[chaos figures] ${title}\n${lines.join("\n")}\n`);
}

/** Counts of a list by key. */
export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
