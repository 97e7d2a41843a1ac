import { type ChildProcess, fork } from "node:child_process";
import { childExecArgv } from "./child.ts";

/**
 * A long-lived helper process (a server under load, the product under test) driven over the IPC
 * channel: `call(name, arg)` runs the helper's handler and resolves with its answer.
 */

interface Request {
  rpc: number;
  name: string;
  arg?: unknown;
}
interface Reply {
  rpc: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface Helper {
  pid: number;
  call<T>(name: string, arg?: unknown): Promise<T>;
  /** Calls "stop" (when the helper has it) and waits for the process to end. */
  close(): Promise<void>;
}

export async function startHelper(
  modulePath: string,
  env: Record<string, string> = {},
  execArgv: string[] = [],
  /** `tsx: false`: the module is JavaScript already (a build), run by node alone. */
  opts: { tsx?: boolean } = {},
): Promise<Helper> {
  const child: ChildProcess = fork(modulePath, [], {
    execArgv: opts.tsx === false ? ["--expose-gc", ...execArgv] : childExecArgv(execArgv),
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let seq = 0;
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.on("exit", (code) => {
      exited = true;
      for (const p of pending.values()) p.reject(new Error(`${modulePath} exited (${code})`));
      pending.clear();
      resolve();
    });
  });
  let hello: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    hello = resolve;
  });
  child.on("message", (m: Reply | { hello: true }) => {
    if ("hello" in m) return hello();
    const p = pending.get(m.rpc);
    if (!p) return;
    pending.delete(m.rpc);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.error));
  });
  const call = <T>(name: string, arg?: unknown) =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(new Error(`${modulePath} is not running`));
      const rpc = ++seq;
      pending.set(rpc, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ rpc, name, arg } satisfies Request);
    });
  // Messages sent before the helper listens would be lost: wait for its hello first.
  await Promise.race([listening, exit]);
  try {
    await call("ready");
  } catch (err) {
    // A helper that failed to start would otherwise outlive the benchmark (and hold its stdout).
    child.kill("SIGKILL");
    await exit;
    throw err;
  }
  return {
    pid: child.pid!,
    call,
    async close() {
      if (!exited) await call("stop").catch(() => undefined);
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** In the helper: answers the parent's calls; "ready" waits for `ready`, "stop" ends the process. */
export function serveHelper(
  ready: Promise<void>,
  handlers: Record<string, (arg: unknown) => unknown>,
): void {
  process.on("message", async (m: Request) => {
    const reply = (r: Omit<Reply, "rpc">) => process.send?.({ rpc: m.rpc, ...r });
    try {
      if (m.name === "ready") {
        await ready;
        return reply({ ok: true });
      }
      const h = handlers[m.name];
      if (!h) throw new Error(`no handler "${m.name}"`);
      const value = await h(m.arg);
      reply({ ok: true, value });
      if (m.name === "stop") setImmediate(() => process.exit(0));
    } catch (err) {
      reply({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
  process.send?.({ hello: true });
}
