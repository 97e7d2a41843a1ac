import type { Cluster, Redis } from "ioredis";

/** RedisClient of connection.ts, spelt out here: connection.ts imports this module. */
type RedisClient = Redis | Cluster;

/**
 * WAIT for replicas after the writes that must survive a failover (REDIS_WAIT_REPLICAS,
 * REDIS_WAIT_TIMEOUT_MS). Replication is asynchronous: a write the primary acknowledged can vanish
 * if the primary dies before a replica has it. WAIT n t blocks this connection until n replicas
 * acknowledged every earlier write of the connection (or t ms passed) and says how many did.
 *
 * The policy rides on the connection (set by createRedis from the configuration) so the stores
 * that use it need no extra wiring; a connection without one never waits (single node, tests).
 */
export interface ReplicationPolicy {
  replicas: number;
  timeoutMs: number;
}

const policies = new WeakMap<RedisClient, ReplicationPolicy>();

export function setReplicationPolicy(redis: RedisClient, policy: ReplicationPolicy): void {
  if (policy.replicas > 0) policies.set(redis, policy);
  else policies.delete(redis);
}

/** A write the caller must not build on was not acknowledged by enough replicas. */
export class NotReplicatedError extends Error {
  constructor(what: string, acked: number, wanted: number) {
    super(`${what}: acknowledged by ${acked} of ${wanted} replicas in time; not relied on`);
    this.name = "NotReplicatedError";
  }
}

/**
 * Waits until the connection's earlier writes reached the configured number of replicas. Throws
 * NotReplicatedError naming `what` when fewer acknowledged in time; no-op without a policy.
 *
 * `stillThere` reads the write back afterwards: if the connection was re-established on a newly
 * promoted primary between the write and the WAIT, the WAIT counted nothing of ours (a new
 * connection has no writes to wait for) and only the read-back tells whether the write survived.
 */
export async function ensureReplicated(
  redis: RedisClient,
  what: string,
  stillThere: () => Promise<boolean>,
): Promise<void> {
  const p = policies.get(redis);
  if (!p) return;
  const acked = Number(await redis.wait(p.replicas, p.timeoutMs));
  if (acked < p.replicas) throw new NotReplicatedError(what, acked, p.replicas);
  if (!(await stillThere()))
    throw new NotReplicatedError(`${what} (gone after a failover)`, 0, p.replicas);
}
