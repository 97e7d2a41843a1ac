import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { createLogger } from "../../src/logger.ts";
import { startSystem } from "../../src/system/index.ts";

/**
 * Local mode (embedded sandbox, Bot API emulator, playground) is one plug the composition root
 * loads only when the configuration uses it: a production process never loads the harness.
 */
const dir = mkdtempSync(join(tmpdir(), "local-mode-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function modulesLoadedBy(name: string, env: Record<string, string>): Promise<string[]> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/e2e/fixtures/loaded-modules.ts"],
    {
      env: {
        PATH: process.env.PATH ?? "",
        PORT: "0",
        METRICS_PORT: "0",
        LOG_LEVEL: "silent",
        LOAD_LOG: join(dir, `${name}.log`),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(err).toBe("");
  expect(code).toBe(0);
  return JSON.parse(out) as string[];
}

const harness = (urls: string[]) =>
  urls.filter((u) => /\/(src|dev)\/(sandbox|playground)\//.test(u));

describe("local mode as one plug", () => {
  it("a production start (real provider, real Telegram) loads neither the sandbox nor the emulator", async () => {
    const loaded = await modulesLoadedBy("production", {
      BOT_TOKEN: "123456:production-token",
      PROVIDER_URL: "http://127.0.0.1:9/api/v1",
      PROVIDER_TOKEN: "provider-token",
      WEBHOOK_SECRET: "webhook-secret-0123456789",
      ALLOW_MEMORY_STORES: "1",
    });
    // The hook saw the product load (so an empty list below means something).
    expect(loaded.some((u) => u.endsWith("/src/system/index.ts"))).toBe(true);
    expect(loaded.some((u) => u.endsWith("/local-mode.ts"))).toBe(false);
    expect(harness(loaded)).toEqual([]);
  }, 30_000);

  it("a local start loads the plug, and the plug the sandbox and the emulator", async () => {
    const loaded = await modulesLoadedBy("local", {});
    expect(loaded.some((u) => u.endsWith("/local-mode.ts"))).toBe(true);
    expect(harness(loaded).some((u) => /\/(src|dev)\/sandbox\//.test(u))).toBe(true);
    expect(harness(loaded).some((u) => /\/(src|dev)\/playground\/emulator\//.test(u))).toBe(true);
  }, 30_000);

  it("a bad SANDBOX_FAULTS stops the start naming the variable, and leaves the port free", async () => {
    const port = await freePort();
    const start = async () =>
      startSystem({
        config: loadConfig({
          PORT: String(port),
          METRICS_PORT: "0",
          SANDBOX_FAULTS: '{"sandbox-token":{"errorRate5xx":2}}',
        }),
        logger: createLogger({ level: "silent", secrets: [] }),
      });
    const failure = await start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect(String((failure as Error).message)).toMatch(
      /SANDBOX_FAULTS\.sandbox-token\.errorRate5xx/,
    );
    expect(await freePort(port)).toBe(port);
  });
});

/** A port nothing listens on (or `port` itself, proving it is free). */
function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}
