import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnMain } from "../support/main-process.ts";

/**
 * The settings of issue 25 stop `npm start` itself: exit code 2, each variable named, no stack
 * trace, and nothing of a wrong price file's contents on the terminal (or in a log collector).
 */

const dir = mkdtempSync(join(tmpdir(), "settings-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusedStart(env: Record<string, string>): Promise<string> {
  const child = spawnMain(["--import", "tsx", "src/main.ts"], { METRICS_PORT: "0", ...env });
  const { code } = await child.exit;
  const output = child.stdout() + child.stderr();
  expect(code, output).toBe(2);
  expect(output).not.toMatch(/\n\s+at /);
  return output;
}

describe("settings that stop the start", () => {
  it("a HOST that only looks like a name and a body limit beyond 1 MiB", async () => {
    const output = await refusedStart({
      HOST: "bot.123",
      WEBHOOK_MAX_BODY_BYTES: "99999999999999",
    });
    expect(output).toMatch(/HOST: must be an IPv4 or IPv6 address or a plain hostname/);
    expect(output).toMatch(/WEBHOOK_MAX_BODY_BYTES: must be at most 1048576/);
  }, 30_000);

  it("a one-letter webhook secret with a real provider, and a price file that is a password file", async () => {
    const secret = "$6$rounds=5000$s3cr3t-salt$hash";
    const file = join(dir, "shadow");
    writeFileSync(file, `root:${secret}:19000:0:99999:7:::\n`);
    const output = await refusedStart({
      PROVIDER_URL: "http://127.0.0.1:9/api/v1",
      PROVIDER_TOKEN: "provider-token-123456",
      WEBHOOK_SECRET: "a",
      BOT_TOKEN: "123456:settings-start-token",
      ALLOW_MEMORY_STORES: "1",
      PRICE_SCHEDULE_FILE: file,
    });
    expect(output).toMatch(/WEBHOOK_SECRET: must be at least 16 characters/);
    expect(output).toMatch(/PRICE_SCHEDULE_FILE: .*shadow: not valid JSON/);
    expect(output).not.toContain("s3cr3t");
    expect(output).not.toContain("root:");
  }, 30_000);
});
