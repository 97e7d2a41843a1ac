import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The product started as a process of its own (`npm start`, the image's command), for tests. */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface MainProcess {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `node <args>` in the repository with exactly `env` on top of PATH, HOME and free ports (an
 * `npm start` left open on this machine holds the default ones).
 */
export function spawnMain(args: string[], env: Record<string, string> = {}): MainProcess {
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    // Exactly this environment: no BOT_TOKEN, PROVIDER_URL or REDIS_URL leaking in from the shell.
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      PORT: "0",
      METRICS_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  proc.stdout?.on("data", (c: Buffer) => {
    out += String(c);
  });
  proc.stderr?.on("data", (c: Buffer) => {
    err += String(c);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { proc, stdout: () => out, stderr: () => err, exit };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The base URL main.ts prints once everything is started. */
export async function baseUrl(child: MainProcess): Promise<string> {
  for (;;) {
    const m = /Recharge assistant is running[^\n]*?(http:\/\/[\d.]+:\d+)/.exec(child.stdout());
    if (m?.[1]) return m[1];
    const done = await Promise.race([child.exit, sleep(50).then(() => undefined)]);
    if (done) throw new Error(`exited before it was ready: ${child.stderr()}`);
  }
}
