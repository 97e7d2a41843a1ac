import { z } from "zod";
import {
  bool,
  emptyToUndefined,
  int,
  isIpOrPlainHostname,
  listItems,
  optionalString,
  type Parsed,
} from "./fields.ts";

/** `host:port` or `[ipv6]:port`, comma-separated: REDIS_SENTINELS, REDIS_CLUSTER_NODES. */
const hostPortList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .transform((s, ctx) => {
      const out: Array<{ host: string; port: number }> = [];
      for (const part of listItems(s)) {
        const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(part);
        const h = m?.[1] ?? m?.[2] ?? "";
        const p = Number(m?.[3]);
        if (!m || !isIpOrPlainHostname(h) || p < 1 || p > 65_535) {
          ctx.addIssue({ code: "custom", message: `"${part}" is not host:port` });
          return z.NEVER;
        }
        out.push({ host: h, port: p });
      }
      if (out.length === 0) {
        ctx.addIssue({ code: "custom", message: "no host:port given" });
        return z.NEVER;
      }
      return out;
    })
    .optional(),
);

/** Where the stores live: one Redis, Sentinels' primary, a Cluster, or (on purpose) memory. */
export const redisEnv = {
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional(),
  ),
  REDIS_PREFIX: z.preprocess(emptyToUndefined, z.string().default("ra:")),
  /** Sentinels to ask for the current primary (replaces REDIS_URL's host:port). */
  REDIS_SENTINELS: hostPortList,
  /** Seed nodes of a Redis Cluster (replaces REDIS_URL's host:port); the client learns the rest. */
  REDIS_CLUSTER_NODES: hostPortList,
  REDIS_SENTINEL_NAME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, "must be the master group name of the Sentinels' configuration")
      .optional(),
  ),
  REDIS_SENTINEL_PASSWORD: optionalString,
  /** WAIT for this many replicas after the order writes that must survive a failover (0: never). */
  REDIS_WAIT_REPLICAS: int(0, 0),
  REDIS_WAIT_TIMEOUT_MS: int(1_000, 1),
  /** A real provider with orders kept in memory (lost with the process): only on purpose. */
  ALLOW_MEMORY_STORES: bool(false),
};
type RedisEnv = Parsed<typeof redisEnv>;

export const usesRedis = (e: RedisEnv) =>
  Boolean(e.REDIS_URL || e.REDIS_SENTINELS || e.REDIS_CLUSTER_NODES);

export function redisRules(e: RedisEnv & { PROVIDER_URL?: string | undefined }): string[] {
  return [...sentinelRules(e), ...clusterRules(e), ...memoryStoreRules(e)];
}

function sentinelRules(e: RedisEnv): string[] {
  const problems: string[] = [];
  if (e.REDIS_SENTINELS && !e.REDIS_SENTINEL_NAME)
    problems.push("REDIS_SENTINEL_NAME: required when REDIS_SENTINELS is set");
  if (e.REDIS_SENTINEL_NAME && !e.REDIS_SENTINELS)
    problems.push("REDIS_SENTINELS: required when REDIS_SENTINEL_NAME is set");
  if (e.REDIS_SENTINEL_PASSWORD && !e.REDIS_SENTINELS)
    problems.push("REDIS_SENTINEL_PASSWORD: only used with REDIS_SENTINELS");
  if (e.REDIS_SENTINELS && e.REDIS_SENTINEL_NAME && e.REDIS_URL) {
    // With Sentinels the URL only carries credentials, database and TLS; its host must name the
    // master group so nobody mistakes it for an address that is dialled.
    const u = new URL(e.REDIS_URL);
    if (u.hostname !== e.REDIS_SENTINEL_NAME || u.port !== "")
      problems.push(
        `REDIS_URL: with REDIS_SENTINELS its host is the master group name and it has no port (e.g. redis://:password@${e.REDIS_SENTINEL_NAME}/0); the Sentinels give the address`,
      );
  }
  return problems;
}

function clusterRules(e: RedisEnv): string[] {
  const problems: string[] = [];
  if (e.REDIS_CLUSTER_NODES && e.REDIS_SENTINELS)
    problems.push(
      "REDIS_CLUSTER_NODES: not with REDIS_SENTINELS (a Cluster fails over by itself); set one of them",
    );
  if (e.REDIS_CLUSTER_NODES && e.REDIS_WAIT_REPLICAS > 0)
    problems.push(
      "REDIS_WAIT_REPLICAS: not supported with REDIS_CLUSTER_NODES (WAIT must reach the master that took the write; the Cluster client does not promise that)",
    );
  if (e.REDIS_CLUSTER_NODES && e.REDIS_URL) {
    const db = new URL(e.REDIS_URL).pathname.replace(/^\//, "");
    if (db !== "" && db !== "0")
      problems.push(
        "REDIS_URL: with REDIS_CLUSTER_NODES it only carries credentials and TLS, and a Cluster has only database 0",
      );
  }
  return problems;
}

function memoryStoreRules(e: RedisEnv & { PROVIDER_URL?: string | undefined }): string[] {
  if (e.PROVIDER_URL && !usesRedis(e) && !e.ALLOW_MEMORY_STORES)
    return [
      "REDIS_URL: required when PROVIDER_URL is set: orders of a real wallet kept in memory vanish with the process (ALLOW_MEMORY_STORES=1 to accept that)",
    ];
  return [];
}

export function redisSettings(e: RedisEnv) {
  return {
    url: e.REDIS_URL,
    prefix: e.REDIS_PREFIX,
    /** Set: every connection asks these Sentinels for the primary of `name` (src/redis/connection.ts). */
    sentinel:
      e.REDIS_SENTINELS && e.REDIS_SENTINEL_NAME
        ? {
            sentinels: e.REDIS_SENTINELS,
            name: e.REDIS_SENTINEL_NAME,
            password: e.REDIS_SENTINEL_PASSWORD,
          }
        : undefined,
    /** Set: a Redis Cluster through these seed nodes (src/redis/connection.ts). */
    cluster: e.REDIS_CLUSTER_NODES,
    /** WAIT after the order writes that must not be lost at a failover (src/redis/replication.ts). */
    wait: { replicas: e.REDIS_WAIT_REPLICAS, timeoutMs: e.REDIS_WAIT_TIMEOUT_MS },
  };
}
