import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotApiEmulatorServer } from "../../dev/playground/emulator/index.ts";
import { type RunningStandIn, startWhatsAppStandInServer } from "../../dev/whatsapp/index.ts";
import { loadConfig } from "../../src/config/index.ts";
import { createLogger } from "../../src/logger.ts";
import { type System, startSystem } from "../../src/system/index.ts";
import { ChatUser } from "../support/chat.ts";
import { deleteKeys, REDIS_URL } from "../support/redis.ts";
import { type RunningSandbox, startSandbox, TOKEN } from "../support/sandbox.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";

/**
 * Production starts (a real provider, Redis, no playground) with WhatsApp alone, Telegram alone
 * and both: each starts, answers on its channels, and WhatsApp alone never calls a Bot API.
 */

const WA = {
  phoneNumberId: "109876543210",
  accessToken: "wa-production-access-token",
  appSecret: "wa-production-app-secret-0123",
  verifyToken: "wa-production-verify",
};
const BOT_TOKEN = "123456:channels-start-token";

function quiet() {
  return createLogger({
    level: "silent",
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
    secrets: [BOT_TOKEN, WA.accessToken, WA.appSecret],
  });
}

describe("a production start on WhatsApp, Telegram or both", () => {
  let sandbox: RunningSandbox;
  let wa: RunningStandIn;
  const prefix = `test:channels:${process.pid}:`;
  const running: System[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox();
    wa = await startWhatsAppStandInServer({ ...WA });
  });
  afterAll(async () => {
    for (const s of running) await s.stop();
    await wa.close();
    await sandbox.close();
    await deleteKeys(`${prefix}*`);
  });

  const start = async (env: Record<string, string>, name: string) => {
    const config = loadConfig({
      PROVIDER_URL: sandbox.base,
      PROVIDER_TOKEN: TOKEN,
      WEBHOOK_SECRET: "channels-start-webhook-secret",
      REDIS_URL,
      REDIS_PREFIX: `${prefix}${name}:`,
      PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "silent",
      ...env,
    });
    expect(config.mode.playground).toBe(false);
    const system = await startSystem({ config, logger: quiet() });
    running.push(system);
    return system;
  };
  const whatsappEnv = () => ({
    WHATSAPP_PHONE_NUMBER_ID: WA.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: WA.accessToken,
    WHATSAPP_APP_SECRET: WA.appSecret,
    WHATSAPP_VERIFY_TOKEN: WA.verifyToken,
    WHATSAPP_API_ROOT: wa.graphRoot,
  });

  it("WhatsApp alone: no BOT_TOKEN, Meta's verification answered, a customer gets the menu", async () => {
    // TELEGRAM_API_ROOT points at a closed port: any Bot API call would fail the start.
    const system = await start(
      { ...whatsappEnv(), TELEGRAM_API_ROOT: "http://127.0.0.1:9" },
      "alone",
    );
    wa.standIn.setWebhookUrl(`${system.url}/webhooks/whatsapp`);
    const verified = await wa.standIn.verifyWebhook();
    expect(verified.status).toBe(200);
    expect(verified.body).toBe(verified.challenge);
    expect((await wa.standIn.verifyWebhook("wrong-token")).status).toBe(403);
    const customer = new WhatsAppChatUser(wa.standIn, "9779841500001", { name: "Hari" });
    const menu = await customer.say("hi", /Namaste Hari/);
    expect(menu.kind).toBe("list");
    const ready = await fetch(`${system.url}/readyz`);
    expect(ready.status).toBe(200);
  });

  it("Telegram alone and both: the bot answers on each configured channel", async () => {
    const emu = await startBotApiEmulatorServer({ token: BOT_TOKEN });
    try {
      const tgOnly = await start(
        { BOT_TOKEN, TELEGRAM_API_ROOT: emu.apiRoot, ACCESS_MODE: "prepaid" },
        "telegram",
      );
      expect(tgOnly.parts.whatsapp).toBeUndefined();
      await new ChatUser(emu.emulator, 5100).say("/start", /Namaste/);
      // One poller per token (Telegram refuses a second getUpdates): the next start replaces it.
      await tgOnly.stop();
      const both = await start(
        { BOT_TOKEN, TELEGRAM_API_ROOT: emu.apiRoot, ...whatsappEnv() },
        "both",
      );
      wa.standIn.setWebhookUrl(`${both.url}/webhooks/whatsapp`);
      const tg = new ChatUser(emu.emulator, 5101);
      await tg.say("/start", /Namaste/);
      const customer = new WhatsAppChatUser(wa.standIn, "9779841500002", { name: "Maya" });
      await customer.say("hi", /Namaste Maya/);
    } finally {
      await emu.close();
    }
  });
});
