import { Cluster, Redis, type RedisOptions } from "ioredis";
import { type ReplicationPolicy, setReplicationPolicy } from "./replication.ts";

/**
 * A connection the stores use: one Redis (direct or through Sentinels) or a Redis Cluster. The
 * stores only send commands whose keys are in one slot (src/redis/keyspace.ts), so both serve.
 */
export type RedisClient = Redis | Cluster;

/** Where and how to connect: config.redis (src/config/redis.ts). */
export interface RedisTarget {
  /** redis:// or rediss:// URL; with `sentinel` only its credentials, database and TLS count. */
  url?: string | undefined;
  sentinel?:
    | {
        sentinels: Array<{ host: string; port: number }>;
        name: string;
        password?: string | undefined;
      }
    | undefined;
  wait?: ReplicationPolicy | undefined;
  /** Set: a Redis Cluster reached through these seed nodes (REDIS_CLUSTER_NODES). */
  cluster?: Array<{ host: string; port: number }> | undefined;
}

const COMMON: RedisOptions = {
  maxRetriesPerRequest: 2,
  enableOfflineQueue: true,
  connectTimeout: 5_000,
  retryStrategy: (times) => Math.min(times * 200, 2_000),
};

/**
 * A replica answers writes with READONLY (a client still on a demoted primary, or a stale Sentinel
 * answer): reconnect, which asks the Sentinels for the primary again, and resend the command.
 * The write was refused, never applied, so resending cannot apply it twice.
 */
const reconnectOnReadonly = (err: Error): 2 | false =>
  err.message.startsWith("READONLY") ? 2 : false;

/** ioredis options of a Sentinel-managed connection; duplicate() copies them (blocking readers). */
export function sentinelOptions(target: RedisTarget): RedisOptions {
  const s = target.sentinel;
  if (!s) throw new Error("sentinelOptions without sentinels");
  const u = target.url ? new URL(target.url) : undefined;
  const db = u ? Number(u.pathname.replace(/^\//, "") || "0") : 0;
  return {
    ...COMMON,
    sentinels: s.sentinels,
    name: s.name,
    role: "master",
    ...(s.password ? { sentinelPassword: s.password } : {}),
    ...(u?.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u?.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(u?.protocol === "rediss:"
      ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true }
      : {}),
    // Not ioredis's failoverDetector: its +switch-master handler aborts a reconnect already under
    // way (the dead primary's socket closed first), which ends the client for good ("Connection is
    // closed." for every later command; seen in test/chaos/sentinel-failover.test.ts). A killed
    // primary closes the socket anyway; a partitioned one is caught by READONLY once demoted, and
    // the writes that matter fail closed on WAIT meanwhile (src/redis/replication.ts).
    failoverDetector: false,
    sentinelRetryStrategy: (times) => Math.min(times * 100, 1_000),
    reconnectOnError: reconnectOnReadonly,
  };
}

/**
 * How many times a client and the duplicates made of it (blocking readers) have connected. Data
 * read before a (re)connect may be gone after it: a restart can lose the last writes, a failover
 * those not yet on the promoted replica. A reader that acts on what it read (the notifier's final
 * push) compares the count before its read with the count when it acts, and reads again when
 * they differ. Reconnects only, counted from a client's first use here on; unknown (undefined)
 * for a Cluster, whose nodes' connections come and go on their own.
 */
const connectCounts = new WeakMap<Redis, { n: number }>();

/** Counts the client's connects into `counter`; a first connect still to come is no reconnect. */
function track(client: Redis, counter: { n: number }): void {
  connectCounts.set(client, counter);
  let first = client.status === "wait" || client.status === "connecting";
  client.on("connect", () => {
    if (first) first = false;
    else counter.n++;
  });
}

function counterOf(client: RedisClient): { n: number } | undefined {
  if (client instanceof Cluster) return undefined;
  let counter = connectCounts.get(client);
  if (!counter) {
    counter = { n: 0 };
    track(client, counter);
  }
  return counter;
}

/** The connects of `client` and its duplicates since counting began; undefined: not counted. */
export const connectCount = (client: RedisClient): number | undefined => counterOf(client)?.n;

/**
 * The process's Redis connection; commands fail fast instead of queueing forever while Redis is
 * down. With Sentinels, ioredis asks them for the primary at every (re)connect. A bare URL string
 * is still accepted (tests, tools).
 */
export function createRedis(target: string | RedisTarget): RedisClient {
  const t: RedisTarget = typeof target === "string" ? { url: target } : target;
  if (t.cluster) return new Cluster(t.cluster, clusterOptions(t));
  let redis: Redis;
  if (t.sentinel) redis = new Redis(sentinelOptions(t));
  else if (t.url) redis = new Redis(t.url, { ...COMMON, reconnectOnError: reconnectOnReadonly });
  else throw new Error("createRedis: neither a URL nor Sentinels");
  if (t.wait) setReplicationPolicy(redis, t.wait);
  return redis;
}

/**
 * ioredis Cluster options: the data nodes' credentials and TLS from REDIS_URL (its host is not
 * dialled), commands to masters only (a replica's read could be behind the money path's writes),
 * and MOVED/ASK redirections followed during a resharding.
 */
function clusterOptions(target: RedisTarget) {
  const u = target.url ? new URL(target.url) : undefined;
  return {
    scaleReads: "master" as const,
    maxRedirections: 16,
    retryDelayOnFailover: 200,
    clusterRetryStrategy: (times: number) => Math.min(times * 200, 2_000),
    redisOptions: {
      ...COMMON,
      ...(u?.username ? { username: decodeURIComponent(u.username) } : {}),
      ...(u?.password ? { password: decodeURIComponent(u.password) } : {}),
      ...(u?.protocol === "rediss:" ? { tls: {} } : {}),
    },
  };
}

/**
 * A second connection like the first (a blocking reader must not stall the shared one); its
 * connects are counted with the first's.
 */
export function duplicateClient(c: RedisClient): RedisClient {
  if (c instanceof Cluster) return c.duplicate();
  const counter = counterOf(c);
  const copy = c.duplicate();
  if (counter) track(copy, counter);
  return copy;
}

/**
 * A connection of its own for blocking reads (made on first use), and its close. ioredis never
 * settles a command queued while it waits to reconnect if the connection is then closed for good
 * (the reconnect timer is cleared and no socket is left to close), so a stop awaiting that read
 * would hang: every `read` also ends, with null, once `close` is called.
 */
export type BlockingConnection = ReturnType<typeof blockingConnection>;

export function blockingConnection(of: RedisClient, onError: (err: Error) => void) {
  let conn: RedisClient | undefined;
  let closed = false;
  let markClosed: (v: null) => void = () => {};
  const whenClosed = new Promise<null>((resolve) => {
    markClosed = resolve;
  });
  return {
    read<T>(send: (c: RedisClient) => Promise<T>): Promise<T | null> {
      if (closed) return Promise.resolve(null);
      if (!conn) {
        conn = duplicateClient(of);
        // Without a listener an emitted 'error' (Redis restarting) would crash the process.
        conn.on("error", onError);
      }
      return Promise.race([send(conn), whenClosed]);
    },
    close(): void {
      closed = true;
      markClosed(null);
      conn?.disconnect();
      conn = undefined;
    },
  };
}

/**
 * For libraries typed against a single Redis (grammY's RedisAdapter) that only send single-key
 * commands (GET, SET, DEL), which a Cluster routes by the key like any other.
 */
export const asSingleKeyClient = (c: RedisClient): Redis => c as Redis;

/** Health probe: PING with a deadline, never throws. */
export async function redisAnswers(redis: RedisClient, timeoutMs = 1_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([redis.ping().then((r) => r === "PONG"), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
