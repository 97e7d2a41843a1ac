import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { freePorts, sleep } from "./chaos/env.ts";
import { answersPing, killHard, redisServerArgs } from "./chaos/redis-server.ts";

const run = promisify(execFile);

/**
 * A Redis Cluster of the test's own: three masters (Debian's redis-server in cluster mode, no
 * replicas) on free loopback ports, the 16,384 slots split by `redis-cli --cluster create`.
 */
export interface OwnCluster {
  /** `127.0.0.1:port,...`, as REDIS_CLUSTER_NODES takes it. */
  nodes: string;
  ports: number[];
  /** One direct (non-cluster) connection per master, for counting what each one holds. */
  direct(): Redis[];
  destroy(): Promise<void>;
}

export async function startOwnCluster(masters = 3): Promise<OwnCluster> {
  const dir = mkdtempSync(join(tmpdir(), "redis-cluster-"));
  const procs: ChildProcess[] = [];
  const ports = await freePorts(masters, { clusterBus: true });
  const clients: Redis[] = [];
  const destroy = async () => {
    for (const c of clients) c.disconnect();
    for (const p of procs) await killHard(p);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      // A data node as the chaos tests start one (its own directory: AOF), in cluster mode.
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      const p = spawn(
        "redis-server",
        [
          ...redisServerArgs(port, nodeDir),
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          "nodes.conf",
          "--cluster-node-timeout",
          "2000",
        ],
        { stdio: "ignore" },
      );
      procs.push(p);
    }
    for (const port of ports) {
      let up = false;
      for (let i = 0; i < 200 && !up; i++) {
        up = await answersPing(port);
        if (!up) await sleep(25);
      }
      if (!up) throw new Error(`cluster node on ${port} did not start`);
    }
    await run("redis-cli", [
      "--cluster",
      "create",
      ...ports.map((p) => `127.0.0.1:${p}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    for (const port of ports) {
      const c = new Redis({ port, host: "127.0.0.1", maxRetriesPerRequest: 2 });
      clients.push(c);
    }
    // Every node must agree the cluster is whole before a client is pointed at it.
    for (let i = 0; i < 400; i++) {
      const infos = await Promise.all(clients.map((c) => c.cluster("INFO") as Promise<string>));
      if (infos.every((s) => s.includes("cluster_state:ok"))) break;
      if (i === 399) throw new Error("the test cluster never reached cluster_state:ok");
      await sleep(50);
    }
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    nodes: ports.map((p) => `127.0.0.1:${p}`).join(","),
    ports,
    direct: () => clients,
    destroy,
  };
}
