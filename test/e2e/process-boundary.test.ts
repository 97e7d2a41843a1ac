import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { baseUrl, spawnMain } from "../support/main-process.ts";

/**
 * The process's last error boundary (src/main.ts): a rejection nothing caught still ends the
 * process, but through pino's scrub, never as Node's own print of the error, which shows every
 * property of it (grammY's HttpError: the request's URL with the bot token).
 */
describe("a rejection nothing caught", () => {
  it("ends the process with exit 1 and says why, without the secret its error carries", async () => {
    const secret = `123456:AAboundary${randomBytes(12).toString("hex")}`;
    const child = spawnMain(
      ["--import", "tsx", "--import", "./test/support/unhandled-bot-call.ts", "src/main.ts"],
      { METRICS_TOKEN: secret },
    );
    await baseUrl(child);
    child.proc.kill("SIGUSR2");
    const { code } = await child.exit;
    const output = `${child.stdout()}\n${child.stderr()}`;
    expect(output).toContain("Network request for 'getMe' failed");
    expect(output).toMatch(/ECONNREFUSED/);
    expect(output).not.toContain(secret);
    expect(output).not.toContain(secret.split(":")[1]);
    expect(code).toBe(1);
  }, 60_000);
});
