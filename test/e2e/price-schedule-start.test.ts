import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/** `src/main.ts` refuses to start with a bad price schedule: exit code 2, the problem on stderr. */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "prices-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startMain(env: Record<string, string>) {
  const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
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
  let stderr = "";
  proc.stderr.on("data", (c: Buffer) => {
    stderr += String(c);
  });
  const [code] = (await once(proc, "exit")) as [number | null];
  return { code, stderr };
}

describe("a bad price schedule at start", () => {
  it("exits with code 2 naming the file and the field", async () => {
    const path = join(dir, "prices.json");
    writeFileSync(path, JSON.stringify({ categories: { water: { fee: { flat: "-5" } } } }));
    const { code, stderr } = await startMain({ PRICE_SCHEDULE_FILE: path });
    expect(code).toBe(2);
    expect(stderr).toContain(
      `PRICE_SCHEDULE_FILE: ${path}: categories.water.fee.flat: must not be negative`,
    );
  });
});
