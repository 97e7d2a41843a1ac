import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_WEBHOOK_SECRET } from "../../src/config/index.ts";

/** `npm run sandbox`: the standalone process prints where it listens, serves the API, stops on SIGTERM. */

let child: ChildProcess | undefined;

afterEach(() => {
  if (child && child.exitCode === null && child.pid !== undefined) child.kill("SIGKILL");
  child = undefined;
});

async function startStandalone(): Promise<{
  proc: ChildProcess;
  output: () => string;
  base: string;
}> {
  const proc = spawn(process.execPath, ["--import", "tsx", "dev/sandbox/standalone.ts"], {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH ?? "",
      SANDBOX_PORT: "0",
      SANDBOX_TOKEN: "standalone-token",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let out = "";
  proc.stdout?.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  proc.stderr?.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  const deadline = Date.now() + 15_000;
  let base: string | undefined;
  while (base === undefined) {
    base = /base URL\s+(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out)?.[1];
    if (base) break;
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, output: () => out, base };
}

describe("standalone sandbox", () => {
  it("prints URL, token and secret, serves the API at /api/v1 and exits on SIGTERM", async () => {
    const { proc, output, base } = await startStandalone();
    expect(output()).toContain("x-auth-token    standalone-token");
    expect(output()).toContain(`webhook secret  ${DEV_WEBHOOK_SECRET} (development default)`);

    const balance = await fetch(`${base}/wallet/balance`, {
      headers: { "x-auth-token": "standalone-token" },
    });
    expect(await balance.json()).toEqual({
      error: false,
      message: "Wallet balance",
      data: { credits_available: "100000.00" },
    });
    const denied = await fetch(`${base}/in/circle`);
    expect(denied.status).toBe(401);

    proc.kill("SIGTERM");
    const [code] = await once(proc, "exit");
    expect(code).toBe(0);
  });
});
