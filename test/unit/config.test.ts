import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ConfigError, DEV_WEBHOOK_SECRET, loadConfig, secretsOf } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";

describe("config", () => {
  it("needs nothing: playground, embedded sandbox, memory stores", () => {
    const c = loadConfig({});
    expect(c.mode).toEqual({ playground: true, embeddedSandbox: true, redis: false });
    expect(c.http.port).toBe(8080);
    expect(c.webhook.secret).toBe(DEV_WEBHOOK_SECRET);
    expect(c.webhook.path).toBe("/webhooks/provider");
    expect(c.catalog.ntcMobileMaxAmount).toBe(3000);
  });

  it("parses lists, numbers and URLs", () => {
    const c = loadConfig({
      BOT_TOKEN: "123:abc",
      PROVIDER_URL: "https://provider.example/api/v1/",
      PROVIDER_TOKEN: "tok-123456",
      WEBHOOK_SECRET: "sec-123456",
      AGENT_IDS: "1, 2,3",
      ADMIN_IDS: "",
      PORT: "9000",
      REDIS_URL: "redis://127.0.0.1:6379/0",
    });
    expect(c.mode).toEqual({ playground: false, embeddedSandbox: false, redis: true });
    expect(c.provider.baseUrl).toBe("https://provider.example/api/v1");
    expect(c.bot.agentIds).toEqual([1, 2, 3]);
    expect(c.bot.adminIds).toEqual([]);
    expect(c.http.port).toBe(9000);
  });

  it("reads the notifier's and reconciler's timings, the grace defaulting to the execute timeout", () => {
    const d = loadConfig({ PROVIDER_EXECUTE_TIMEOUT_MS: "12000" });
    expect(d.notifier).toEqual({ claimIdleMs: 30_000, lockMs: 60_000 });
    expect(d.reconciler.notFoundGraceMs).toBe(12_000);
    const c = loadConfig({
      NOTIFY_CLAIM_IDLE_MS: "5000",
      NOTIFY_LOCK_MS: "9000",
      RECONCILE_NOT_FOUND_GRACE_MS: "0",
    });
    expect(c.notifier).toEqual({ claimIdleMs: 5000, lockMs: 9000 });
    expect(c.reconciler.notFoundGraceMs).toBe(0);
    expect(() => loadConfig({ NOTIFY_CLAIM_IDLE_MS: "10" })).toThrow(/NOTIFY_CLAIM_IDLE_MS/);
  });

  it("names every bad variable", () => {
    try {
      loadConfig({ PORT: "eighty", AGENT_IDS: "1,bob", PROVIDER_URL: "https://x.example/v2" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      expect(msg).toContain("PORT");
      expect(msg).toContain("AGENT_IDS");
      expect(msg).toContain("PROVIDER_URL");
    }
  });

  it("requires the provider token and webhook secret with a real provider", () => {
    expect(() => loadConfig({ PROVIDER_URL: "https://p.example/api/v1" })).toThrow(
      /PROVIDER_TOKEN[\s\S]*WEBHOOK_SECRET/,
    );
  });
});

describe("logger", () => {
  it("never writes a configured secret, by path or by value", () => {
    const config = loadConfig({
      BOT_TOKEN: "123456:SECRET-bot-token",
      WEBHOOK_SECRET: "whsec-abcdef",
    });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = createLogger({ secrets: secretsOf(config), destination: sink });
    log.info({ headers: { "x-auth-token": "sandbox-token" } }, "request");
    log.info({ token: "anything" }, "token field");
    log.error(
      new Error("GET https://api.telegram.org/bot123456:SECRET-bot-token/getMe failed"),
      "oops",
    );
    log.info({ url: "x", note: "the secret is whsec-abcdef" }, "inline");
    const all = lines.join("");
    expect(lines).toHaveLength(4);
    expect(all).not.toContain("SECRET-bot-token");
    expect(all).not.toContain("whsec-abcdef");
    expect(all).not.toContain("sandbox-token");
    expect(all).toContain("[redacted]");
  });
});
