import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { baseUrl, spawnMain } from "../support/main-process.ts";
import { playgroundUser } from "../support/playground-user.ts";

/**
 * `npm start` (`node scripts/start.mjs`): the product compiled by scripts/build.mjs and run on node
 * alone, without tsx. What compiling could break is checked end to end: files read relative to a
 * module (locales, the flows' version hash, the playground's page), local mode loaded as a chunk
 * of its own, a conversation to the order summary, and SIGTERM reaching main.ts's handlers in the
 * process npm started.
 */

const _ROOT = fileURLToPath(new URL("../..", import.meta.url));

let proc: ChildProcess | undefined;
afterEach(() => {
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
  proc = undefined;
});

const _sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("npm start runs the compiled product", () => {
  it("starts without tsx, serves the playground, talks, and exits 0 on SIGTERM", {
    timeout: 90_000,
  }, async () => {
    const main = spawnMain(["scripts/start.mjs"]);
    const child = main.proc;
    proc = child;
    const base = await baseUrl(main);

    // The process npm started is the product itself, and it runs without tsx's loader.
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, "utf8");
    expect(cmdline).toContain("scripts/start.mjs");
    expect(cmdline).not.toContain("tsx");

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");

    const u = playgroundUser(base, 1001);
    await u.mobileToConfirm("9841234567", "150");

    child.kill("SIGTERM");
    expect(await main.exit).toEqual({ code: 0, signal: null });
    expect(main.stdout()).toContain('"msg":"stopped"');
  });
});
