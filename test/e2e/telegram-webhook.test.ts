import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { format } from "node:util";
import { GrammyError } from "grammy";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config/index.ts";
import { PLAYGROUND_TOKEN } from "../../src/local-mode.ts";
import { createLogger } from "../../src/logger.ts";
import { startSystem } from "../../src/system/index.ts";
import { startOnFreePort } from "../support/chaos/env.ts";
import {
  E2E_ACCESS,
  type SystemView as System,
  startTestSystem,
  TestUser,
  viewOf,
} from "../support/system.ts";

/**
 * Telegram's webhook mode, end to end: the Bot API emulator POSTs every update to the bot's webhook
 * route on the product's own HTTP server (PUBLIC_URL), as Telegram does.
 */

/** Everything the process writes: stdout, stderr, console (Hono's default error handler) and logs. */
function captureOutput() {
  const out: string[] = [];
  const keep =
    (orig: (...a: never[]) => unknown) =>
    (...args: unknown[]) => {
      out.push(args.map((a) => (typeof a === "string" ? a : format(a))).join(" "));
      return (orig as (...a: unknown[]) => unknown)(...args);
    };
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, "write").mockImplementation(keep(stream.write.bind(stream)) as never);
  }
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      out.push(format(...args));
    });
  }
  return out;
}

async function startWebhookSystem(env: Record<string, string>, logs: string[]): Promise<System> {
  return startOnFreePort((port) => startWebhookSystemAt(port, env, logs));
}

async function startWebhookSystemAt(
  port: number,
  env: Record<string, string>,
  logs: string[],
): Promise<System> {
  const config = loadConfig({
    PORT: String(port),
    METRICS_PORT: "0",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: "info",
    RECONCILE_INTERVAL_MS: "200",
    RECONCILE_MIN_AGE_MS: "500",
    // Production waits 3 "not found" answers over 30 minutes; the same rule, in seconds.
    RECONCILE_NOT_FOUND_ANSWERS: "2",
    RECONCILE_NOT_FOUND_WINDOW_MS: "4000",
    PROVIDER_EXECUTE_TIMEOUT_MS: "5000",
    PROVIDER_LOOKUP_TIMEOUT_MS: "5000",
    ...E2E_ACCESS,
    ...env,
  });
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  // No secrets to scrub, as in the playground: nothing may log the token in the first place.
  const logger = createLogger({ level: "debug", destination: sink, secrets: [] });
  return viewOf(
    await startSystem({
      config,
      logger,
      sandbox: { delays: { toPendingMs: 20, toFinalMs: 40 }, rateLimitPerSecond: 0 },
    }),
  );
}

const TELEGRAM_4XX = () =>
  new GrammyError(
    "Call to 'sendMessage' failed! (400: Bad Request: chat not found)",
    { ok: false, error_code: 400, description: "Bad Request: chat not found" },
    "sendMessage",
    {},
  );

/** /start fails inside its handler (reactivateChat is read from deps at call time). */
function failStart(system: System, error: () => Error) {
  const calls = { n: 0 };
  system.deps.reactivateChat = async () => {
    calls.n++;
    throw error();
  };
  return calls;
}

describe("Telegram webhook mode", () => {
  let system: System;
  const logs: string[] = [];
  let out: string[] = [];

  beforeAll(async () => {
    system = await startWebhookSystem({ TELEGRAM_WEBHOOK_ANSWER_MS: "300" }, logs);
    expect(system.emulator?.webhookInfo().url).toMatch(/\/telegram-webhook\//);
  });
  afterAll(async () => {
    await system?.stop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("a failing handler: the token appears nowhere, Telegram gets no 5xx, the user gets the error reply", async () => {
    out = captureOutput();
    const u = new TestUser(system, 4101);
    const reactivate = system.deps.reactivateChat;
    failStart(system, () => new Error("redis is restarting"));
    try {
      u.emu.sendText(u.id, "/start");
      // One chat's updates go in order: once /cancel is answered, /start was answered or given up.
      const cancel = u.emu.sendText(u.id, "/cancel");
      await u.emu.waitForBotMessage(u.id, "There is nothing to cancel.", {
        afterId: cancel.message_id,
        timeoutMs: 30_000,
      });
    } finally {
      system.deps.reactivateChat = reactivate;
    }
    const everything = [...out, ...logs].join("\n");
    expect(everything).not.toContain(PLAYGROUND_TOKEN);
    expect(everything).not.toContain(PLAYGROUND_TOKEN.split(":")[1]);

    const emu = system.emulator!;
    expect(emu.stats().webhookFailures).toBe(0);
    expect(emu.webhookInfo().last_error_message).toBeUndefined();
    expect(u.botTexts()).toEqual([
      system.deps.i18n.t("en", "common-error"),
      "There is nothing to cancel.",
    ]);
    // Logged through pino, with the stack.
    const line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === "bot update failed");
    expect(line?.err?.message).toBe("redis is restarting");
    expect(line?.err?.stack).toContain("redis is restarting");
  });

  it("answers Telegram's POSTs without the browser security headers; a GET keeps them", async () => {
    const url = String(system.emulator!.webhookInfo().url);
    // The secret Telegram is told to send: derived from the token (src/system/start.ts).
    const secret = createHash("sha256").update(PLAYGROUND_TOKEN).digest("hex").slice(32, 64);
    const post = (token: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": token },
        body: JSON.stringify({ update_id: 990_001 }),
      });
    const ok = await post(secret);
    const refused = await post("not-the-secret");
    expect([ok.status, refused.status]).toEqual([200, 401]);
    for (const res of [ok, refused]) {
      expect(res.headers.get("content-security-policy")).toBeNull();
      expect(res.headers.get("strict-transport-security")).toBeNull();
      expect(res.headers.get("x-frame-options")).toBeNull();
    }
    const get = await fetch(url);
    expect(get.status).toBe(404);
    expect(get.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("a redelivered update that failed for good (Telegram 4xx) runs once", async () => {
    const u = new TestUser(system, 4102);
    const reactivate = system.deps.reactivateChat;
    const calls = failStart(system, TELEGRAM_4XX);
    try {
      const sent = u.emu.sendText(u.id, "/start");
      await u.emu.waitForBotMessage(u.id, system.deps.i18n.t("en", "common-error"), {
        afterId: sent.message_id,
      });
      expect(calls.n).toBe(1);
      u.emu.redeliver(sent.update_id);
      // One chat's updates are handled in order: once /cancel is answered, the redelivery was handled.
      await u.say("/cancel", "There is nothing to cancel.");
      expect(calls.n).toBe(1);
    } finally {
      system.deps.reactivateChat = reactivate;
    }
    expect(u.botTexts().filter((t) => t === system.deps.i18n.t("en", "common-error"))).toHaveLength(
      1,
    );
  });

  it("'message is not modified' (a double tap on a language button) is ignored quietly", async () => {
    const u = new TestUser(system, 4103);
    const prompt = await u.say("/language", /language/i);
    u.press("English");
    await u.waitFor((m) => m.id === prompt.id && m.text === "Language set to English.");
    // The second tap reaches the bot although the buttons are gone (a double tap, two instances).
    u.emu.pressButton(u.id, prompt.id, "lang:en", { force: true });
    await u.say("/cancel", "There is nothing to cancel.");
    expect(u.botTexts()).not.toContain(system.deps.i18n.t("en", "common-error"));
    expect(system.emulator!.webhookInfo().last_error_message).toBeUndefined();
  });

  it("an execute slower than the webhook's answer: Telegram gets its 200 first, no 5xx, one execute", async () => {
    const u = new TestUser(system, 4104);
    const emu = system.emulator!;
    const sandbox = system.sandbox!;
    const token = system.config.sandbox.token;
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say("9841004104", /How much/);
    await u.say("100", /Please check your order/);
    const executesBefore = sandbox.ledger(token).length;
    sandbox.setFaults(token, { latencyMs: 1_500 });
    try {
      const delivered = emu.stats().webhookDeliveries;
      const press = emu.clickButton(u.id, "✅ Confirm");
      // The moment Telegram has its answer for the Confirm tap, the execute has not come back yet.
      const atAnswer = await emu.waitFor(
        () =>
          emu.stats().webhookDeliveries > delivered && { executes: sandbox.ledger(token).length },
        10_000,
      );
      expect(atAnswer.executes).toBe(executesBefore);
      const receipt = await u.waitFor(/Order \d+/, 15_000);
      const ref = /Order (\d+)/.exec(receipt.text)?.[1];
      // Telegram delivering the same tap again (it does when unsure) changes nothing.
      emu.redeliver(press.update_id);
      await u.say("/cancel", "There is nothing to cancel.");
      await u.waitFor(new RegExp(`Order ${ref} succeeded`), 15_000);
      expect(sandbox.ledger(token).filter((r) => r.referenceNo === ref)).toHaveLength(1);
      expect(sandbox.ledger(token)).toHaveLength(executesBefore + 1);
    } finally {
      sandbox.setFaults(token, { latencyMs: 0 });
    }
    expect(emu.stats().webhookFailures).toBe(0);
    expect(emu.webhookInfo().last_error_message).toBeUndefined();
  });
});

describe("long polling (runner) shares the error boundary", () => {
  it("a redelivered update that failed for good runs once, and the user gets the error reply", async () => {
    const ts = await startTestSystem();
    try {
      const u = ts.user(4201);
      const calls = failStart(ts.system, TELEGRAM_4XX);
      const sent = u.emu.sendText(u.id, "/start");
      await u.emu.waitForBotMessage(u.id, ts.system.deps.i18n.t("en", "common-error"), {
        afterId: sent.message_id,
      });
      u.emu.redeliver(sent.update_id);
      await u.say("/cancel", "There is nothing to cancel.");
      expect(calls.n).toBe(1);
    } finally {
      await ts.cleanup();
    }
  });
});
