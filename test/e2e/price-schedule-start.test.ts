import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnMain } from "../support/main-process.ts";

/** `src/main.ts` refuses to start with a bad price schedule: exit code 2, the problem on stderr. */

const dir = mkdtempSync(join(tmpdir(), "prices-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startMain(env: Record<string, string>) {
  const main = spawnMain(["--import", "tsx", "src/main.ts"], { METRICS_PORT: "0", ...env });
  const { code } = await main.exit;
  return { code, stderr: main.stderr() };
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
