import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_WEBHOOK_SECRET } from "../../src/config.ts";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";

/**
 * `src/main.ts` as the image runs it (`node --import tsx src/main.ts`, local mode): a SIGTERM ends
 * it with exit code 0 inside Docker's 10 s grace period, even with an execute in flight, and a
 * start that fails says why in one line.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Docker sends SIGKILL this long after SIGTERM (`docker stop`'s default). */
const DOCKER_GRACE_MS = 10_000;

interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

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
  const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    // Exactly this environment: no BOT_TOKEN, PROVIDER_URL or REDIS_URL leaking in from the shell.
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  proc.stdout?.on("data", (c: Buffer) => {
    out += String(c);
  });
  proc.stderr?.on("data", (c: Buffer) => {
    err += String(c);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const child = { proc, stdout: () => out, stderr: () => err, exit };
  children.push(child);
  return child;
}

/** The base URL main.ts prints once everything is started. */
async function baseUrl(child: Child): Promise<string> {
  for (;;) {
    const m = /Recharge assistant is running[^\n]*?(http:\/\/[\d.]+:\d+)/.exec(child.stdout());
    if (m?.[1]) return m[1];
    const done = await Promise.race([child.exit, sleep(50).then(() => undefined)]);
    if (done) throw new Error(`main.ts exited before it was ready: ${child.stderr()}`);
  }
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

interface MessageView {
  id: number;
  from: "bot" | "user";
  text: string;
  inline_keyboard: { text: string; callback_data?: string }[][] | null;
}

/** One playground user driven over the playground's JSON API, as the chat page drives it. */
function playgroundUser(base: string, userId: number) {
  const api = `${base}/playground/api/users/${userId}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${api}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { message_id: number };
  };
  const waitForBot = async (pattern: RegExp, afterId: number): Promise<MessageView> => {
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${api}/messages`);
      const { messages } = (await res.json()) as { messages: MessageView[] };
      const hit = messages.find((m) => m.from === "bot" && m.id > afterId && pattern.test(m.text));
      if (hit) return hit;
      await sleep(50);
    }
    throw new Error(`no bot message matching ${pattern}`);
  };
  let last: MessageView | undefined;
  return {
    async say(text: string, answer: RegExp) {
      const sent = await post("/messages", { text });
      last = await waitForBot(answer, sent.message_id);
      return last;
    },
    async tap(label: RegExp, answer: RegExp) {
      const button = last?.inline_keyboard?.flat().find((b) => label.test(b.text));
      if (!last || !button?.callback_data)
        throw new Error(`no button ${label} on the last message`);
      await post("/callbacks", { message_id: last.id, data: button.callback_data });
      last = await waitForBot(answer, last.id);
      return last;
    },
  };
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
    await u.say("/recharge", /What would you like to pay/);
    await u.tap(/Mobile top-up/, /Which mobile number/);
    await u.say("9841234567", /Operator for 9841234567/);
    await u.tap(/detected/, /How much\?/);
    await u.say("150", /Please check your order/);
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

  it("a failed start prints one line (no stack) to stderr and exits 1", {
    timeout: 40_000,
  }, async () => {
    const taken = createServer();
    closers.push(() => new Promise((r) => taken.close(() => r())));
    taken.listen(0, "127.0.0.1");
    await once(taken, "listening");
    const port = (taken.address() as { port: number }).port;
    const app = startMain({ PORT: String(port) });
    expect(await app.exit).toEqual({ code: 1, signal: null });
    expect(app.stderr()).toMatch(/^Recharge assistant could not start: .*EADDRINUSE.*\n$/);
    expect(app.stderr().trim().split("\n")).toHaveLength(1);
  });
});
