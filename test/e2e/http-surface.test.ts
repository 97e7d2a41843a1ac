import { spawn } from "node:child_process";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loggableRoute } from "../../src/http/access-log.ts";
import { createHttpApp } from "../../src/http/app.ts";
import { PLAYGROUND_TOKEN } from "../../src/local-mode.ts";
import { createLogger } from "../../src/logger.ts";
import { serveFetch } from "../support/http.ts";
import {
  PLAYGROUND_ON_REAL_PROVIDER,
  startTestSystem,
  type TestSystem,
} from "../support/system.ts";

/** What the process exposes over HTTP, and to whom: the whole product on loopback. */

const logLines = (ts: TestSystem) =>
  ts.logs.flatMap((chunk) =>
    chunk
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  );

describe("the public listener", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem();
  });
  afterAll(() => ts.cleanup());

  it("does not serve /metrics; the metrics listener does, on loopback", async () => {
    expect((await fetch(`${ts.system.url}/metrics`)).status).toBe(404);
    expect(ts.system.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(ts.system.metricsUrl).not.toContain(`:${ts.system.port}/`);
    const res = await fetch(ts.system.metricsUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("recharge_webhooks_received_total");
  });

  it("logs every request once with a request id, the route and no query string", async () => {
    const res = await fetch(`${ts.system.url}/healthz?token=secret-in-query`, {
      headers: { "X-Request-Id": "req-abc.123" },
    });
    expect(res.headers.get("x-request-id")).toBe("req-abc.123");
    const generated = await fetch(`${ts.system.url}/healthz`, {
      headers: { "X-Request-Id": "bad id\twith junk" },
    });
    const newId = generated.headers.get("x-request-id");
    expect(newId).toMatch(/^[0-9a-f-]{36}$/);
    // The emulator's Bot API paths carry a token: the route pattern is logged, not the path.
    await fetch(`${ts.system.url}/telegram/bot${PLAYGROUND_TOKEN}/getMe`);
    const lines = logLines(ts).filter((l) => l.msg === "http request");
    expect(lines).toContainEqual(
      expect.objectContaining({ requestId: "req-abc.123", method: "GET", route: "/healthz" }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ requestId: newId, status: 200 }));
    const all = ts.logs.join("");
    expect(all).not.toContain("secret-in-query");
    expect(all).not.toContain(PLAYGROUND_TOKEN.split(":")[1]);
  });

  it("redacts long opaque path segments (the Telegram webhook path is a hash of the token)", () => {
    expect(loggableRoute(`/telegram-webhook/${"0123456789abcdef".repeat(2)}`)).toBe(
      "/telegram-webhook/[redacted]",
    );
    expect(loggableRoute("/telegram/bot7000000001:local-playground-token/getMe")).toBe(
      "/telegram/bot[redacted]/getMe",
    );
    expect(loggableRoute("/playground/api/users/:userId/messages")).toBe(
      "/playground/api/users/:userId/messages",
    );
  });

  it("sends secure headers with the pages (a CSP the playground page satisfies)", async () => {
    const res = await fetch(`${ts.system.url}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers an unknown route with a JSON 404", async () => {
    const res = await fetch(`${ts.system.url}/no/such/route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error: "not found" });
  });
});

describe("the HTTP app's error boundary", () => {
  it("answers a crashed handler with a generic 500, logged through pino, nothing on the console", async () => {
    const lines: string[] = [];
    const logger = createLogger({
      destination: new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    });
    const app = createHttpApp({ health: [], logger });
    app.get("/boom", () => {
      throw new Error("handler failed");
    });
    const server = await serveFetch((req, env) => app.fetch(req, env));
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await fetch(`${server.url}/boom`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ ok: false, error: "internal error" });
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      await server.close();
    }
    const failed = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "request failed");
    expect(failed).toMatchObject({ level: 50, requestId: expect.any(String) });
    expect(failed.err.message).toBe("handler failed");
    expect(failed.err.stack).toContain("at ");
  });
});

describe("the metrics listener with a token", () => {
  it("wants the bearer token", async () => {
    const ts = await startTestSystem({ env: { METRICS_TOKEN: "metrics-token-123" } });
    try {
      expect((await fetch(ts.system.metricsUrl)).status).toBe(401);
      const wrong = { headers: { Authorization: "Bearer metrics-token-124" } };
      expect((await fetch(ts.system.metricsUrl, wrong)).status).toBe(401);
      const right = { headers: { Authorization: "Bearer metrics-token-123" } };
      expect((await fetch(ts.system.metricsUrl, right)).status).toBe(200);
    } finally {
      await ts.cleanup();
    }
  });
});

describe("the playground", () => {
  it("stays on loopback when HOST is a public address and PLAYGROUND_PUBLIC is not set", async () => {
    const ts = await startTestSystem({ env: { HOST: "0.0.0.0" } });
    try {
      expect(ts.system.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      expect(logLines(ts)).toContainEqual(
        expect.objectContaining({
          level: 40,
          host: "0.0.0.0",
          msg: expect.stringMatching(/PLAYGROUND_PUBLIC/),
        }),
      );
    } finally {
      await ts.cleanup();
    }
  });

  it("gives nobody a role against a real provider unless the ids are configured", async () => {
    const ts = await startTestSystem({
      env: PLAYGROUND_ON_REAL_PROVIDER,
    });
    try {
      const res = await fetch(`${ts.system.url}/playground/api/users`);
      const { users } = (await res.json()) as { users: Array<{ role: string }> };
      expect(users.map((u) => u.role)).toEqual(["customer", "customer", "customer", "customer"]);
      expect(ts.system.deps.settings.adminIds).toEqual([]);
      expect((await fetch(`${ts.system.url}/sandbox/api/v1/_sandbox/accounts`)).status).toBe(404);
    } finally {
      await ts.cleanup();
    }
  });
});

describe("npm start with a bad variable", () => {
  it("exits 2 naming the variable, without a stack trace", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: { PATH: process.env.PATH ?? "", PORT: "99999", HOST: "999.1.1.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(output).toMatch(/PORT: /);
    expect(output).toMatch(/HOST: /);
    expect(output).not.toMatch(/\n\s+at /);
  }, 30_000);
});
