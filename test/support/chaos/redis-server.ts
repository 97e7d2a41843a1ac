import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort, sleep } from "./env.ts";

/**
 * A redis-server of the test's own (never the shared one on 6379) on a free loopback port, with
 * AOF on and fsync on every write, in a temporary directory. `restart` is SHUTDOWN and a new
 * server on the same directory and port, as an operator's restart (or a crash and supervisor) does.
 */
export interface OwnRedis {
  url: string;
  port: number;
  dir: string;
  /** SHUTDOWN (AOF flushed), then wait for the process to exit. */
  shutdown(): Promise<void>;
  /** Starts redis-server again on the same port and directory; resolves once it answers PING. */
  start(): Promise<void>;
  /** kill -9: no flush; with `snapshots` every write since the last SAVE is lost. */
  kill(): Promise<void>;
  /** Kills the server for good and removes its directory. */
  destroy(): Promise<void>;
}

/**
 * The arguments of one data node: loopback only, AOF fsync'd on every write, no RDB snapshots, so
 * a restart on the same directory finds every acknowledged write.
 */
export function redisServerArgs(port: number, dir: string): string[] {
  return [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--appendonly",
    "yes",
    "--appendfsync",
    "always",
    "--save",
    "",
    "--protected-mode",
    "no",
  ];
}

/** Whether a redis-server answers PING on `port` now (one try, no reconnects). */
export async function answersPing(port: number): Promise<boolean> {
  const probe = new Redis({
    port,
    host: "127.0.0.1",
    lazyConnect: true,
    retryStrategy: () => null,
  });
  probe.on("error", () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** SIGKILL, resolved once the process is gone (at once if it already is). */
export async function killHard(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGKILL");
  await exited;
}

/**
 * `snapshots`: no AOF, only the RDB file an explicit SAVE writes, so a kill loses exactly the
 * writes after the test's last SAVE (a restart losing the last writes, made deterministic).
 */
export async function startOwnRedis(o: { snapshots?: boolean } = {}): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "chaos-redis-"));
  let proc: ChildProcess | undefined;
  const args = redisServerArgs(port, dir);
  if (o.snapshots) args.splice(args.indexOf("--appendonly") + 1, 1, "no");

  const start = async () => {
    proc = spawn("redis-server", args, { stdio: "ignore" });
    let failed: Error | undefined;
    proc.once("error", (err) => {
      failed = new Error(`cannot run redis-server (this test starts its own): ${err.message}`);
    });
    for (let i = 0; i < 200; i++) {
      if (failed) throw failed;
      if (await answersPing(port)) return;
      await sleep(25);
    }
    throw new Error("own redis-server did not start");
  };

  const shutdown = async () => {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => p.once("exit", () => resolve()));
    const admin = new Redis({ port, host: "127.0.0.1", retryStrategy: () => null });
    admin.on("error", () => {});
    await admin.call("SHUTDOWN").catch(() => undefined);
    admin.disconnect();
    await exited;
    proc = undefined;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    shutdown,
    start,
    async kill() {
      if (proc) await killHard(proc);
      proc = undefined;
    },
    async destroy() {
      if (proc) await killHard(proc);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
