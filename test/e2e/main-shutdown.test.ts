import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_WEBHOOK_SECRET } from "../../src/config/index.ts";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";
import { baseUrl, type MainProcess, spawnMain } from "../support/main-process.ts";
import { playgroundUser } from "../support/playground-user.ts";

/**
 * `src/main.ts` in a container's life (run from source here, `node --import tsx src/main.ts`, local
 * mode; the image runs the same code compiled, scripts/image-check.ts starts that): a SIGTERM ends
 * it with exit code 0 inside Docker's 10 s grace period, even with an execute in flight, and a
 * start that fails says why in one line, naming the variable to change when a port is taken.
 */

/** Docker sends SIGKILL this long after SIGTERM (`docker stop`'s default). */
const DOCKER_GRACE_MS = 10_000;

type Child = MainProcess;

const children: Child[] = [];
/** Servers of the test (closed after each test). */
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill("SIGKILL");
    await c.exit;
  }
  for (const close of closers.splice(0)) await close();
});

function startMain(env: Record<string, string> = {}): Child {
  const child = spawnMain(["--import", "tsx", "src/main.ts"], env);
  children.push(child);
  return child;
}

/** The exit of a child, or an error once Docker would have sent SIGKILL. */
async function exitWithinGrace(child: Child) {
  const timer = sleep(DOCKER_GRACE_MS).then(() => "still running" as const);
  const result = await Promise.race([child.exit, timer]);
  if (result === "still running") {
    throw new Error(
      `still running ${DOCKER_GRACE_MS} ms after SIGTERM (Docker would SIGKILL it); stdout:\n${child.stdout()}`,
    );
  }
  return result;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe("main.ts in a container's life", () => {
  it("answers /healthz, then exits 0 on SIGTERM", { timeout: 40_000 }, async () => {
    const app = startMain();
    const base = await baseUrl(app);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    app.proc.kill("SIGTERM");
    expect(await exitWithinGrace(app)).toEqual({ code: 0, signal: null });
    expect(app.stdout()).toContain('"msg":"stopped"');
  });

  it("does not wait for calls to the aggregator in flight: exits 0 inside the grace period and leaves them to the reconciler", {
    timeout: 60_000,
  }, async () => {
    const app = startMain();
    const base = await baseUrl(app);
    const u = playgroundUser(base, 1001);
    await u.mobileToConfirm("9841234567", "150");
    // From now on every request to the aggregator takes 20 s: the execute, and the status query
    // that confirms a webhook's final claim (which stop() waits for).
    const fault = await fetch(`${base}/sandbox/api/v1/_sandbox/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json", "x-admin-token": "sandbox-token" },
      body: JSON.stringify({ latencyMs: 20_000 }),
    });
    expect(fault.status).toBe(200);
    // The receipt is sent right before the execute request goes out.
    const receipt = await u.tap(/Confirm/, /Order \d+/);
    const reference = /Order (\d+)/.exec(receipt.text)?.[1];
    // A signed webhook claiming success: answered 200 at once, confirmed by a status query after.
    const hook = await fetch(`${base}/webhooks/provider`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-signature": signature(DEV_WEBHOOK_SECRET) },
      body: JSON.stringify({
        data: encryptPayload(DEV_WEBHOOK_SECRET, { status: "success", order_id: reference }),
      }),
    });
    expect(hook.status).toBe(200);
    app.proc.kill("SIGTERM");
    expect(await exitWithinGrace(app)).toEqual({ code: 0, signal: null });
    expect(app.stdout()).toContain("shutdown deadline reached");
  });

  it("a SIGTERM while the start waits on Telegram ends it with exit 0, not death by signal", {
    timeout: 40_000,
  }, async () => {
    // A Bot API that takes connections and never answers: getMe (the start) waits.
    let calls = 0;
    const telegram = createHttpServer(() => {
      calls++;
    });
    telegram.listen(0, "127.0.0.1");
    await once(telegram, "listening");
    closers.push(async () => {
      telegram.closeAllConnections();
      await new Promise((r) => telegram.close(r));
    });
    const port = (telegram.address() as { port: number }).port;
    const app = startMain({
      BOT_TOKEN: "123456:start-hangs-token",
      TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
    });
    while (calls === 0) {
      if (app.proc.exitCode !== null) throw new Error(`exited early: ${app.stderr()}`);
      await sleep(50);
    }
    expect(app.stdout()).not.toContain("Recharge assistant is running");
    app.proc.kill("SIGTERM");
    expect(await exitWithinGrace(app)).toEqual({ code: 0, signal: null });
  });

  it("a failed start prints one line (no stack) to stderr, naming the variable to change, and exits 1", {
    timeout: 40_000,
  }, async () => {
    const taken = createServer();
    closers.push(() => new Promise((r) => taken.close(() => r())));
    taken.listen(0, "127.0.0.1");
    await once(taken, "listening");
    const port = (taken.address() as { port: number }).port;
    const app = startMain({ PORT: String(port) });
    expect(await app.exit).toEqual({ code: 1, signal: null });
    expect(app.stderr()).toMatch(
      new RegExp(
        `^Recharge assistant could not start: 127.0.0.1:${port} is in use .*set PORT .*\n$`,
      ),
    );
    expect(app.stderr().trim().split("\n")).toHaveLength(1);
  });
});
