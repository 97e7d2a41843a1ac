import { createServer, type Server, type Socket } from "node:net";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { startBotApiEmulatorServer } from "../../dev/playground/emulator/index.ts";
import { loadConfig } from "../../src/config/index.ts";
import { createHttpApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/logger.ts";
import { startSystem } from "../../src/system/index.ts";
import { botApiCallBoundMs } from "../../src/telegram/api.ts";
import { freePort } from "../support/chaos/env.ts";
import { startTestSystem } from "../support/system.ts";

/** Starting against a Bot API that is dead, silent or refuses the token; /healthz and Telegram. */

const TOKEN = "123456:start-test-token";

function quietLogger() {
  return createLogger({
    level: "silent",
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
    secrets: [TOKEN],
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

function start(env: Record<string, string>) {
  return startSystem({
    config: loadConfig({ BOT_TOKEN: TOKEN, LOG_LEVEL: "silent", METRICS_PORT: "0", ...env }),
    logger: quietLogger(),
  });
}

describe("starting against the Bot API", () => {
  it("a Bot API that accepts and never answers: not ready meanwhile, then the start fails with a clear message", async () => {
    const sockets: Socket[] = [];
    let connected: () => void = () => undefined;
    const firstConnection = new Promise<void>((r) => {
      connected = r;
    });
    const silent = createServer((s) => {
      sockets.push(s);
      connected();
    });
    const silentPort = await listen(silent);
    const port = await freePort();
    try {
      const starting = start({
        PORT: String(port),
        TELEGRAM_API_ROOT: `http://127.0.0.1:${silentPort}`,
        TELEGRAM_TIMEOUT_MS: "300",
        TELEGRAM_ATTEMPTS: "2",
      });
      const outcome = starting.then(
        () => "started",
        (e: Error) => e,
      );
      await firstConnection;
      // getMe is pending: the service must not report ready.
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(503);
      const err = await outcome;
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(
        /Telegram Bot API at http:\/\/127\.0\.0\.1:\d+ did not answer getMe .*timed out.*TELEGRAM_API_ROOT/,
      );
      expect((err as Error).message).not.toContain(TOKEN);
      // Nothing is left listening.
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  }, 20_000);

  it("a closed port fails the start with a clear message", async () => {
    const closed = await freePort();
    await expect(
      start({
        PORT: "0",
        TELEGRAM_API_ROOT: `http://127.0.0.1:${closed}`,
        TELEGRAM_TIMEOUT_MS: "300",
        TELEGRAM_ATTEMPTS: "2",
      }),
    ).rejects.toThrow(/did not answer getMe .*Check the network and TELEGRAM_API_ROOT/);
  }, 20_000);

  it("with the default policy, getMe gives up well within 30 s", () => {
    expect(botApiCallBoundMs(loadConfig({}).bot.api)).toBeLessThanOrEqual(25_000);
  });

  it("a rejected token (401 from getMe) stops the start and says so", async () => {
    const telegram = await startBotApiEmulatorServer({ token: "654321:the-real-token" });
    try {
      const err = await start({ PORT: "0", TELEGRAM_API_ROOT: telegram.apiRoot }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toBe(
        "Telegram rejected the bot token: getMe answered 401 Unauthorized. Check BOT_TOKEN.",
      );
    } finally {
      await telegram.close();
    }
  });
});

describe("/healthz and Telegram", () => {
  it("reports that Telegram answered recently", async () => {
    const ts = await startTestSystem();
    try {
      const res = await fetch(`${ts.system.url}/healthz`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { checks: Record<string, string> }).checks.telegram).toBe("ok");
    } finally {
      await ts.cleanup();
    }
  });

  it("an unreachable Telegram is reported, not turned into 503 (it is the same for every instance)", async () => {
    const app = createHttpApp({
      logger: createLogger({ level: "silent" }),
      health: [
        { name: "redis", check: async () => true },
        { name: "telegram", critical: false, check: async () => false },
      ],
    });
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      checks: { redis: "ok", telegram: "down" },
    });
  });
});

describe("long polling when getUpdates fails", () => {
  it("logs the failure through pino and never prints it with console (the runner stays silent)", async () => {
    // A Bot API that knows the bot but answers every getUpdates with a gateway error.
    const { createServer: createHttpServer } = await import("node:http");
    let polls = 0;
    const api = createHttpServer((req, res) => {
      const method = req.url?.split("/").pop() ?? "";
      req.resume();
      res.setHeader("content-type", "application/json");
      if (method === "getUpdates") {
        polls++;
        res.statusCode = 502;
        res.end(JSON.stringify({ ok: false, error_code: 502, description: "Bad Gateway" }));
        return;
      }
      const result =
        method === "getMe"
          ? { id: 42, is_bot: true, first_name: "Bot", username: "test_bot" }
          : true;
      res.end(JSON.stringify({ ok: true, result }));
    });
    const port = await listen(api as unknown as Server);
    const lines: string[] = [];
    const logger = createLogger({
      level: "info",
      destination: new Writable({
        write: (c, _e, cb) => {
          lines.push(String(c));
          cb();
        },
      }),
      secrets: [TOKEN],
    });
    const printed: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
      printed.push(args.map(String).join(" "));
    };
    const system = await startSystem({
      config: loadConfig({
        BOT_TOKEN: TOKEN,
        PORT: "0",
        METRICS_PORT: "0",
        TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
        TELEGRAM_TIMEOUT_MS: "1000",
        TELEGRAM_ATTEMPTS: "1",
      }),
      logger,
    });
    try {
      const deadline = Date.now() + 10_000;
      while (!lines.some((l) => l.includes("fetching updates failed")) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(polls).toBeGreaterThan(0);
      expect(lines.some((l) => l.includes("fetching updates failed"))).toBe(true);
      expect(printed.filter((p) => p.includes("grammY runner"))).toEqual([]);
      expect([...lines, ...printed].join("\n")).not.toContain(TOKEN);
    } finally {
      await system.stop();
      console.error = original;
      await new Promise((r) => api.close(r));
    }
  }, 20_000);
});
