import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, secretsOf } from "../../src/config/index.ts";
import { createLogger } from "../../src/logger.ts";

const realProvider = {
  PROVIDER_URL: "https://p.example/api/v1",
  PROVIDER_TOKEN: "tok-123456",
  WEBHOOK_SECRET: "sec-1234567890abcdef",
  REDIS_URL: "redis://127.0.0.1:6379",
};
const whatsapp = {
  WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
  WHATSAPP_ACCESS_TOKEN: "EAAG-access-token-123456",
  WHATSAPP_APP_SECRET: "app-secret-0123456789abcdef",
  WHATSAPP_VERIFY_TOKEN: "verify-token-42",
};
const telegram = { BOT_TOKEN: "123456:bot-token" };

const problemsOf = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  return "";
};
const production = {
  playground: false,
  embeddedSandbox: false,
  local: false,
  playgroundPublic: false,
  redis: true,
};

describe("config: channels against a real provider", () => {
  it("starts with WhatsApp alone, in production mode", () => {
    const c = loadConfig({ ...realProvider, ...whatsapp });
    expect(c.mode).toEqual(production);
    expect(c.bot.telegram).toBe(false);
    expect(c.whatsapp).toEqual({
      phoneNumberId: "106540352242922",
      accessToken: "EAAG-access-token-123456",
      appSecret: "app-secret-0123456789abcdef",
      verifyToken: "verify-token-42",
      apiRoot: "https://graph.facebook.com",
      apiVersion: "v24.0",
      webhookPath: "/webhooks/whatsapp",
      webhookMaxBodyBytes: 1024 * 1024,
      template: { name: "order_update", languages: { en: "en_US", hi: "hi", ne: "en_US" } },
      api: { timeoutMs: 10_000, attempts: 3, maxBackoffMs: 5_000 },
      messagesPerSecond: 80,
    });
  });

  it("starts with Telegram alone, WhatsApp off", () => {
    const c = loadConfig({ ...realProvider, ...telegram });
    expect(c.mode).toEqual(production);
    expect(c.bot.telegram).toBe(true);
    expect(c.whatsapp).toBeUndefined();
  });

  it("starts with both", () => {
    const c = loadConfig({ ...realProvider, ...telegram, ...whatsapp });
    expect(c.mode).toEqual(production);
    expect(c.bot.telegram).toBe(true);
    expect(c.whatsapp?.phoneNumberId).toBe("106540352242922");
  });

  it("refuses neither, naming both channels, unless PLAYGROUND=1", () => {
    const msg = problemsOf(realProvider);
    expect(msg).toContain("BOT_TOKEN");
    expect(msg).toContain("WHATSAPP_ACCESS_TOKEN");
    expect(msg).toContain("PLAYGROUND=1");
    const c = loadConfig({ ...realProvider, PLAYGROUND: "1" });
    expect(c.mode.playground).toBe(true);
    expect(c.bot.telegram).toBe(false);
  });

  it("keeps the playground beside WhatsApp only when PLAYGROUND=1 asks", () => {
    expect(loadConfig({ ...realProvider, ...whatsapp, PLAYGROUND: "1" }).mode.playground).toBe(
      true,
    );
  });

  it("without a provider: WhatsApp alone is no playground; nothing at all still is", () => {
    const wa = loadConfig(whatsapp);
    expect(wa.mode).toMatchObject({ playground: false, embeddedSandbox: true, local: false });
    expect(loadConfig({}).mode).toMatchObject({ playground: true, local: true });
    expect(loadConfig({}).bot.telegram).toBe(false);
    expect(loadConfig({}).whatsapp).toBeUndefined();
  });
});

describe("config: WhatsApp's own rules", () => {
  it("names every missing credential when only some are set", () => {
    const { WHATSAPP_APP_SECRET: _, WHATSAPP_VERIFY_TOKEN: __, ...partial } = whatsapp;
    const msg = problemsOf({ ...realProvider, ...telegram, ...partial });
    expect(msg).toContain("WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN: required");
    expect(msg).not.toContain("WHATSAPP_ACCESS_TOKEN, ");
    // The channel was meant: the "no channel" problem is not added on top.
    const alone = problemsOf({ ...realProvider, WHATSAPP_ACCESS_TOKEN: "EAAG-x-123456" });
    expect(alone).toContain(
      "WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN: required",
    );
    expect(alone).not.toContain("a channel is required");
  });

  it("refuses a short app secret", () => {
    expect(
      problemsOf({ ...realProvider, ...whatsapp, WHATSAPP_APP_SECRET: "short-secret" }),
    ).toContain("WHATSAPP_APP_SECRET: must be at least 16 characters");
  });

  it.each([
    ["webhooks/whatsapp", "must start with /"],
    ["/", "must not be /"],
    ["/webhooks/provider", "must differ from WEBHOOK_PATH"],
    ["/telegram-webhook/abc", "taken"],
    ["/dashboard", "taken"],
  ])("refuses WHATSAPP_WEBHOOK_PATH=%s", (path, why) => {
    expect(problemsOf({ ...realProvider, ...whatsapp, WHATSAPP_WEBHOOK_PATH: path })).toContain(
      why,
    );
  });

  it("reads the optional settings", () => {
    const c = loadConfig({
      ...realProvider,
      ...whatsapp,
      WHATSAPP_API_ROOT: "http://127.0.0.1:9999/",
      WHATSAPP_API_VERSION: "v23.0",
      WHATSAPP_WEBHOOK_PATH: "/hooks/wa/",
      WHATSAPP_TEMPLATE_NAME: "recharge_update",
      WHATSAPP_TEMPLATE_LANGUAGES: "en:en, hi:hi ,ne:en",
      WHATSAPP_TIMEOUT_MS: "2500",
      WHATSAPP_ATTEMPTS: "5",
      WHATSAPP_MESSAGES_PER_SECOND: "20",
    });
    expect(c.whatsapp).toMatchObject({
      apiRoot: "http://127.0.0.1:9999",
      apiVersion: "v23.0",
      webhookPath: "/hooks/wa",
      template: { name: "recharge_update", languages: { en: "en", hi: "hi", ne: "en" } },
      api: { timeoutMs: 2500, attempts: 5 },
      messagesPerSecond: 20,
    });
  });

  it.each([
    ["WHATSAPP_TEMPLATE_LANGUAGES", "hi:hi"],
    ["WHATSAPP_TEMPLATE_LANGUAGES", "en=en_US"],
    ["WHATSAPP_API_VERSION", "24"],
    ["WHATSAPP_API_ROOT", "ftp://x"],
    ["WHATSAPP_PHONE_NUMBER_ID", "+977-98"],
    ["WHATSAPP_TEMPLATE_NAME", "Order Update"],
    ["WHATSAPP_ATTEMPTS", "0"],
    ["WHATSAPP_MESSAGES_PER_SECOND", "0"],
  ])("refuses %s=%s", (name, value) => {
    expect(problemsOf({ ...realProvider, ...whatsapp, [name]: value })).toContain(name);
  });

  it("keeps WhatsApp's secrets out of log lines", () => {
    const config = loadConfig({ ...realProvider, ...whatsapp });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger({ secrets: secretsOf(config), destination: sink });
    log.info({ config }, "started");
    log.info({ opts: { accessToken: whatsapp.WHATSAPP_ACCESS_TOKEN } }, "client");
    log.info(`calling with ${whatsapp.WHATSAPP_ACCESS_TOKEN} and ${whatsapp.WHATSAPP_APP_SECRET}`);
    const out = lines.join("");
    expect(lines).toHaveLength(3);
    for (const secret of [
      whatsapp.WHATSAPP_ACCESS_TOKEN,
      whatsapp.WHATSAPP_APP_SECRET,
      whatsapp.WHATSAPP_VERIFY_TOKEN,
    ])
      expect(out).not.toContain(secret);
  });
});
