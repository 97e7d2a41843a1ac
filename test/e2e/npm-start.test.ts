import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { baseUrl, type MainProcess, ROOT } from "../support/main-process.ts";

/**
 * `npm start` as a developer or a process supervisor uses it: npm (and the shell npm runs scripts
 * with) sit between the caller and node, and a SIGTERM sent to npm must still stop node; a second
 * instance on the same machine either starts on the ports it is given or says in one line which
 * variable to set.
 */

/** The npm that runs this test (`npm test`), else the one on PATH. */
function npmCommand(): [string, string[]] {
  const cli = process.env.npm_execpath;
  return cli?.endsWith(".js") ? [process.env.npm_node_execpath ?? "node", [cli]] : ["npm", []];
}

const started: MainProcess[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) {
    // Its own process group: npm, the shell if any, and node go together.
    if (s.proc.pid) killGroup(s.proc.pid, "SIGKILL");
    await s.exit;
  }
});

function killGroup(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone
  }
}

/** `npm start` in a process group of its own, with exactly `env` on top of PATH and HOME. */
function npmStart(env: Record<string, string>): MainProcess {
  const [file, pre] = npmCommand();
  const proc: ChildProcess = spawn(file, [...pre, "start"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  let err = "";
  proc.stdout?.on("data", (c: Buffer) => {
    out += String(c);
  });
  proc.stderr?.on("data", (c: Buffer) => {
    err += String(c);
  });
  // "close": npm has exited and every writer of its output (node too) has closed it.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("close", (code, signal) => resolve({ code, signal })),
  );
  const s = { proc, stdout: () => out, stderr: () => err, exit };
  started.push(s);
  return s;
}

/** Processes of a process group (from /proc), with their command lines. */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      // Field 5 of /proc/PID/stat, after the parenthesised command name.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid || fields[0] === "Z") continue;
      members.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")}`);
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

/** What the product wrote to stderr (npm adds lines of its own): exactly one line, no stack. */
function ownLine(s: MainProcess): string {
  const lines = s
    .stderr()
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("npm "));
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (deadline `ms`) until the group has no process left; returns what is left. */
async function groupGone(pgid: number, ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = groupMembers(pgid);
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(100);
  }
}

/** The metrics listener's port, from the line main.ts logs once it listens. */
async function metricsPort(s: MainProcess): Promise<string> {
  for (;;) {
    const m = /"metrics":"http:\/\/[\d.]+:(\d+)\/metrics"/.exec(s.stdout());
    if (m?.[1]) return m[1];
    await sleep(50);
  }
}

describe("npm start behaves like a server", () => {
  it("a SIGTERM to the npm process stops node, which exits cleanly; no process is left", {
    timeout: 90_000,
  }, async () => {
    const app = npmStart({ PORT: "0", METRICS_PORT: "0" });
    const base = await baseUrl(app);
    const pgid = app.proc.pid as number;
    const before = groupMembers(pgid);
    expect(before.some((p) => p.includes("scripts/start.mjs"))).toBe(true);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    process.kill(pgid, "SIGTERM"); // npm only, as `kill <pid of npm start>` or a supervisor does
    expect(await groupGone(pgid, 12_000)).toEqual([]);
    await app.exit;
    expect(app.stdout()).toContain('"signal":"SIGTERM"');
    expect(app.stdout()).toContain('"msg":"stopped"');
  });

  it("a SIGINT to the npm process stops node as well", { timeout: 90_000 }, async () => {
    const app = npmStart({ PORT: "0", METRICS_PORT: "0" });
    await baseUrl(app);
    const pgid = app.proc.pid as number;
    process.kill(pgid, "SIGINT");
    expect(await groupGone(pgid, 12_000)).toEqual([]);
    await app.exit;
    expect(app.stdout()).toContain('"signal":"SIGINT"');
  });

  it("npm killed outright (SIGKILL, nothing forwarded): node notices and stops cleanly", {
    timeout: 90_000,
  }, async () => {
    const app = npmStart({ PORT: "0", METRICS_PORT: "0" });
    await baseUrl(app);
    const pgid = app.proc.pid as number;
    process.kill(pgid, "SIGKILL");
    expect(await groupGone(pgid, 12_000)).toEqual([]);
    await app.exit;
    expect(app.stdout()).toContain('"msg":"stopped"');
  });

  it("a second instance names the port variable to set, then starts side by side on free ports", {
    timeout: 120_000,
  }, async () => {
    const first = npmStart({ PORT: "0", METRICS_PORT: "0" });
    const firstBase = await baseUrl(first);
    const firstPort = new URL(firstBase).port;
    const firstMetrics = await metricsPort(first);

    const samePort = npmStart({ PORT: firstPort, METRICS_PORT: "0" });
    expect((await samePort.exit).code).not.toBe(0);
    const portLine = ownLine(samePort);
    expect(portLine).toMatch(
      new RegExp(`^Recharge assistant could not start: .*:${firstPort} is in use.*set PORT `),
    );

    const sameMetrics = npmStart({ PORT: "0", METRICS_PORT: firstMetrics });
    expect((await sameMetrics.exit).code).not.toBe(0);
    const metricsLine = ownLine(sameMetrics);
    expect(metricsLine).toMatch(
      new RegExp(
        `^Recharge assistant could not start: .*:${firstMetrics} is in use.*set METRICS_PORT `,
      ),
    );

    const second = npmStart({ PORT: "0", METRICS_PORT: "0" });
    const secondBase = await baseUrl(second);
    expect(secondBase).not.toBe(firstBase);
    expect((await fetch(`${firstBase}/healthz`)).status).toBe(200);
    expect((await fetch(`${secondBase}/healthz`)).status).toBe(200);
  });
});
