import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort, waitUntil } from "./env.ts";
import { answersPing, killHard, redisServerArgs } from "./redis-server.ts";

/**
 * A Sentinel-managed Redis of the test's own: one primary, `replicas` replicas (one by default) and three Sentinels
 * (quorum 2), each a redis-server process on a free loopback port in a temporary directory, data
 * nodes with AOF fsync'd on every write. Fast failure detection (down-after 1 s) so a failover
 * takes seconds; `ready()` resolves once the Sentinels know every replica and each other, which a
 * failover needs.
 */

export const MASTER_NAME = "chaosmaster";

interface Node {
  port: number;
  proc: ChildProcess;
  args: string[];
}

export interface SentinelSetup {
  /** "127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3": REDIS_SENTINELS. */
  sentinelsEnv: string;
  /** Port of the primary as the Sentinels name it now. */
  primaryPort(): Promise<number>;
  /** kill -9 of the data node on `port`. */
  kill(port: number): Promise<void>;
  /** Starts the data node on `port` again on its own directory (AOF), as its supervisor would. */
  restart(port: number): Promise<void>;
  /** A direct connection to the data node on `port` (no Sentinel). */
  direct(port: number): Redis;
  dataPorts: number[];
  destroy(): Promise<void>;
}

const DOWN_AFTER_MS = 1_000;
const FAILOVER_TIMEOUT_MS = 3_000;

export async function startSentinelSetup({ replicas = 1 } = {}): Promise<SentinelSetup> {
  const dir = mkdtempSync(join(tmpdir(), "chaos-sentinel-"));
  const nodes = new Map<number, Node>();
  const sentinels: Node[] = [];
  const clients: Redis[] = [];

  const run = (args: string[]): ChildProcess => {
    const proc = spawn("redis-server", args, { stdio: "ignore" });
    proc.once("error", () => undefined);
    return proc;
  };
  const direct = (port: number): Redis => {
    const c = new Redis({ port, host: "127.0.0.1", retryStrategy: () => null, lazyConnect: true });
    c.on("error", () => undefined);
    clients.push(c);
    return c;
  };
  const dataNode = async (replicaOf?: number): Promise<number> => {
    const port = await freePort();
    const args = [
      ...redisServerArgs(port, mkdtempSync(join(dir, `d${port}-`))),
      // A replica (re)joining after the failover syncs at once instead of after the 5 s default.
      "--repl-diskless-sync",
      "yes",
      "--repl-diskless-sync-delay",
      "0",
      ...(replicaOf ? ["--replicaof", "127.0.0.1", String(replicaOf)] : []),
    ];
    nodes.set(port, { port, proc: run(args), args });
    await waitUntil(() => answersPing(port), `redis-server on ${port}`, { timeoutMs: 10_000 });
    return port;
  };

  const primary = await dataNode();
  for (let i = 0; i < replicas; i++) await dataNode(primary);

  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const file = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        "bind 127.0.0.1",
        "protected-mode no",
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primary} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} ${DOWN_AFTER_MS}`,
        `sentinel failover-timeout ${MASTER_NAME} ${FAILOVER_TIMEOUT_MS}`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        "",
      ].join("\n"),
    );
    sentinels.push({ port, proc: run([file, "--sentinel"]), args: [] });
    await waitUntil(() => answersPing(port), `sentinel on ${port}`, { timeoutMs: 10_000 });
  }

  // The replicas in sync, and every Sentinel knowing both the replicas and the other Sentinels.
  const admin = direct(primary);
  await admin.connect();
  await waitUntil(
    async () => {
      const info = await admin.info("replication");
      return (info.match(/state=online/g) ?? []).length === replicas;
    },
    "replicas online",
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  for (const s of sentinels) {
    const c = direct(s.port);
    await c.connect();
    await waitUntil(
      async () => {
        const reps = (await c.call("SENTINEL", "REPLICAS", MASTER_NAME)) as unknown[];
        const peers = (await c.call("SENTINEL", "SENTINELS", MASTER_NAME)) as unknown[];
        return reps.length === replicas && peers.length === 2;
      },
      `sentinel ${s.port} to discover replicas and peers`,
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    c.disconnect();
  }
  admin.disconnect();

  const askSentinel = direct(sentinels[0]?.port ?? 0);
  await askSentinel.connect();

  return {
    sentinelsEnv: sentinels.map((s) => `127.0.0.1:${s.port}`).join(","),
    dataPorts: [...nodes.keys()],
    async primaryPort() {
      const addr = (await askSentinel.call(
        "SENTINEL",
        "GET-MASTER-ADDR-BY-NAME",
        MASTER_NAME,
      )) as string[];
      return Number(addr[1]);
    },
    async kill(port) {
      const n = nodes.get(port);
      if (n) await killHard(n.proc);
    },
    async restart(port) {
      const n = nodes.get(port);
      if (!n) throw new Error(`no data node on ${port}`);
      n.proc = run(n.args);
      await waitUntil(() => answersPing(port), `redis-server on ${port} again`, {
        timeoutMs: 10_000,
      });
    },
    direct,
    async destroy() {
      for (const c of clients) c.disconnect();
      const all = [...sentinels, ...nodes.values()];
      await Promise.all(all.map((n) => killHard(n.proc)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
