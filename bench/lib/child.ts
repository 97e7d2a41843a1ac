import { fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Every benchmark runs in a child process of its own (`node --import tsx`), so one benchmark's
 * heap, JIT state and timers never colour the next one's figures. BENCH_CPU_PROF=1 adds
 * `--cpu-prof` (profiles land in bench/results/, git-ignored).
 */

export const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));
export const PROFILE_DIR = fileURLToPath(new URL("../results", import.meta.url));

export function childExecArgv(extra: string[] = []): string[] {
  const argv = ["--import", "tsx", "--expose-gc", ...extra];
  if (process.env.BENCH_CPU_PROF === "1") {
    mkdirSync(PROFILE_DIR, { recursive: true });
    argv.push("--cpu-prof", "--cpu-prof-dir", PROFILE_DIR);
  }
  return argv;
}

type ChildMessage = { type: "result"; result: unknown } | { type: "error"; error: string };

/** Runs a module's `childMain` in a fresh process and resolves with what it sent back. */
export function runInChild<T>(
  modulePath: string,
  opts: { env?: Record<string, string>; args?: string[]; execArgv?: string[] } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(modulePath, opts.args ?? [], {
      execArgv: childExecArgv(opts.execArgv),
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let settled = false;
    child.on("message", (m: ChildMessage) => {
      if (settled) return;
      if (m.type === "result") {
        settled = true;
        resolve(m.result as T);
      } else if (m.type === "error") {
        settled = true;
        reject(new Error(m.error));
      }
    });
    child.on("exit", (code) => {
      if (!settled) reject(new Error(`${modulePath} exited with ${code} before reporting`));
    });
  });
}

/**
 * In a benchmark module: when this module is the entry point of a process started by runInChild,
 * run `main` and send its result back (pass `import.meta.url`).
 */
export function childMain(moduleUrl: string, main: () => Promise<unknown>): void {
  if (!process.send || process.argv[1] !== fileURLToPath(moduleUrl)) return;
  main().then(
    (result) => process.send!({ type: "result", result }, () => process.exit(0)),
    (err: unknown) => {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      process.send!({ type: "error", error }, () => process.exit(1));
    },
  );
}
