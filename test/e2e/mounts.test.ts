import { request } from "node:http";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_SECRET_KEY } from "../../dev/khalti/index.ts";
import {
  type BotApiEmulator,
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";
import { loadConfig } from "../../src/config/index.ts";
import { PLAYGROUND_TOKEN } from "../../src/local-mode.ts";
import { createLogger } from "../../src/logger.ts";
import { startSystem } from "../../src/system/index.ts";
import { startOnFreePort } from "../support/chaos/env.ts";
import { ChatUser } from "../support/chat.ts";
import { serveKhaltiStandIn } from "../support/khalti.ts";
import { type RunningSandbox, TOKEN as SANDBOX_TOKEN, startSandbox } from "../support/sandbox.ts";
import { type SystemView as System, viewOf } from "../support/system-view.ts";

/**
 * Which of the development stand-ins a start serves, for every supported combination of settings
 * (issue 25, "free money in a supported configuration"). The Khalti stand-in credits balances
 * nobody paid, so it exists only when the whole product is local (no PROVIDER_URL, no BOT_TOKEN):
 * beside a real provider such a balance would buy real recharges. Where a "real" outside party is
 * needed, the real harness runs as a separate server on loopback: the sandbox aggregator as
 * PROVIDER_URL, the Khalti stand-in as KHALTI_BASE_URL, the Bot API emulator as TELEGRAM_API_ROOT.
 */

const BOT_TOKEN = "123456:mounts-test-token";
const CUSTOMER = 1001;

type Route =
  | "playground page"
  | "playground API"
  | "Bot API emulator"
  | "sandbox aggregator"
  | "Khalti stand-in"
  | "Khalti return page";

/** One request per route; anything but 404 means it is served. */
const PROBES: Record<Route, { method: string; path: string; body?: string }> = {
  "playground page": { method: "GET", path: "/" },
  "playground API": { method: "GET", path: "/playground/api/users" },
  "Bot API emulator": { method: "GET", path: `/telegram/bot${PLAYGROUND_TOKEN}/getMe` },
  "sandbox aggregator": { method: "GET", path: "/sandbox/api/v1/_sandbox/accounts" },
  "Khalti stand-in": {
    method: "POST",
    path: "/khalti/api/v2/epayment/lookup/",
    body: JSON.stringify({ pidx: "nope" }),
  },
  "Khalti return page": { method: "GET", path: "/pay/khalti/return?pidx=nope" },
};

async function served(system: System): Promise<Route[]> {
  const out: Route[] = [];
  for (const [route, probe] of Object.entries(PROBES) as [Route, (typeof PROBES)[Route]][]) {
    const res = await fetch(`${system.url}${probe.path}`, {
      method: probe.method,
      ...(probe.body ? { body: probe.body, headers: { "content-type": "application/json" } } : {}),
    });
    await res.arrayBuffer();
    if (res.status !== 404) out.push(route);
  }
  return out;
}

/** The status of a probe sent with another Host (a DNS-rebinding page, a request through PUBLIC_URL). */
function statusWithHost(url: string, probe: (typeof PROBES)[Route], host: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: Number(port),
        method: probe.method,
        path: probe.path,
        headers: { host, ...(probe.body ? { "content-type": "application/json" } : {}) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(probe.body);
  });
}

function quietLogger() {
  return createLogger({
    level: "silent",
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
    secrets: [],
  });
}

let sandbox: RunningSandbox;
let khalti: Awaited<ReturnType<typeof serveKhaltiStandIn>>;
let telegram: RunningEmulator;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerSecond: 0 });
  khalti = await serveKhaltiStandIn();
  telegram = await startBotApiEmulatorServer({ token: BOT_TOKEN });
});
afterAll(async () => {
  await telegram?.close();
  await khalti?.close();
  await sandbox?.close();
});

const BASE = { PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "silent", ACCESS_MODE: "prepaid" };
const realProvider = () => ({
  PROVIDER_URL: sandbox.base,
  PROVIDER_TOKEN: SANDBOX_TOKEN,
  WEBHOOK_SECRET: "a-real-webhook-secret-0123",
  ALLOW_MEMORY_STORES: "1",
});
const realKhalti = () => ({
  KHALTI_BASE_URL: khalti.apiUrl,
  KHALTI_SECRET_KEY: STANDIN_SECRET_KEY,
  TOPUP_PUBLIC_URL: "http://127.0.0.1:9",
});
const realTelegram = () => ({ BOT_TOKEN, TELEGRAM_API_ROOT: telegram.apiRoot });

interface Combination {
  name: string;
  env: () => Record<string, string>;
  served: Route[];
  /** /addmoney, /help and the command menu offer adding money. */
  topUps: boolean;
  /** Whose Bot API the bot talks to: the embedded emulator or the external one. */
  chat: "embedded" | "external";
  /** Telegram's webhook on the product's own URL (PUBLIC_URL) instead of polling. */
  webhook?: boolean;
}

const COMBINATIONS: Combination[] = [
  {
    name: "local mode (nothing set)",
    env: () => ({}),
    served: [
      "playground page",
      "playground API",
      "Bot API emulator",
      "sandbox aggregator",
      "Khalti stand-in",
      "Khalti return page",
    ],
    topUps: true,
    chat: "embedded",
  },
  {
    name: "local mode with KHALTI_BASE_URL (Khalti's own sandbox)",
    env: () => realKhalti(),
    served: [
      "playground page",
      "playground API",
      "Bot API emulator",
      "sandbox aggregator",
      "Khalti return page",
    ],
    topUps: true,
    chat: "embedded",
  },
  {
    name: "PROVIDER_URL + PLAYGROUND=1 (the aggregator's test environment)",
    env: () => ({ ...realProvider(), PLAYGROUND: "1" }),
    served: ["playground page", "playground API", "Bot API emulator"],
    topUps: false,
    chat: "embedded",
  },
  {
    name: "PROVIDER_URL + PLAYGROUND=1 + KHALTI_BASE_URL",
    env: () => ({ ...realProvider(), PLAYGROUND: "1", ...realKhalti() }),
    served: ["playground page", "playground API", "Bot API emulator", "Khalti return page"],
    topUps: true,
    chat: "embedded",
  },
  {
    name: "PROVIDER_URL + BOT_TOKEN (production, polling)",
    env: () => ({ ...realProvider(), ...realTelegram() }),
    served: [],
    topUps: false,
    chat: "external",
  },
  {
    name: "PROVIDER_URL + BOT_TOKEN + KHALTI_BASE_URL (production with top-ups)",
    env: () => ({ ...realProvider(), ...realTelegram(), ...realKhalti() }),
    served: ["Khalti return page"],
    topUps: true,
    chat: "external",
  },
  {
    name: "PROVIDER_URL + BOT_TOKEN + KHALTI_BASE_URL + PUBLIC_URL (Telegram webhook mode)",
    env: () => ({ ...realProvider(), ...realTelegram(), ...realKhalti() }),
    served: ["Khalti return page"],
    topUps: true,
    chat: "external",
    webhook: true,
  },
  {
    name: "BOT_TOKEN without PROVIDER_URL (the embedded sandbox tried from a real chat)",
    env: () => realTelegram(),
    served: ["sandbox aggregator"],
    topUps: false,
    chat: "external",
  },
];

describe.each(COMBINATIONS)("$name", (combo) => {
  let system: System;
  let emulator: BotApiEmulator;
  beforeAll(async () => {
    const env: Record<string, string> = { ...BASE, ...combo.env() };
    const startAt = async (port?: number) => {
      // PUBLIC_URL must name the port before the start.
      const at = port ? { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } : {};
      return viewOf(
        await startSystem({ config: loadConfig({ ...env, ...at }), logger: quietLogger() }),
      );
    };
    system = combo.webhook ? await startOnFreePort(startAt) : await startAt();
    const emu = combo.chat === "embedded" ? system.emulator : telegram.emulator;
    if (!emu) throw new Error("no Bot API emulator to chat through");
    emulator = emu;
  }, 30_000);
  afterAll(async () => {
    await system?.stop();
  });

  it("serves exactly the stand-ins this combination may have", async () => {
    expect(await served(system)).toEqual(combo.served);
    expect(system.khalti !== undefined).toBe(combo.served.includes("Khalti stand-in"));
    expect(system.sandbox !== undefined).toBe(combo.served.includes("sandbox aggregator"));
    expect(system.emulator !== undefined).toBe(combo.served.includes("Bot API emulator"));
    expect(system.topUps !== undefined).toBe(combo.topUps);
  });

  it("answers for its stand-ins only to this machine's own loopback Host", async () => {
    const port = new URL(system.url).port;
    const standIns = combo.served.filter((r) => r !== "Khalti return page");
    for (const route of standIns) {
      for (const host of [`evil.example:${port}`, `127.evil.example:${port}`, "bot.example.com"]) {
        expect(await statusWithHost(system.url, PROBES[route], host), `${route} ${host}`).toBe(403);
      }
    }
    // The product's own pages for the outside world are not the stand-ins' business.
    if (combo.served.includes("Khalti return page"))
      expect(
        await statusWithHost(system.url, PROBES["Khalti return page"], "bot.example.com"),
      ).not.toBe(403);
  });

  it(`${combo.topUps ? "offers" : "does not offer"} adding money in /help, /addmoney and the menu`, async () => {
    const user = new ChatUser(emulator, CUSTOMER, { first_name: "Asha" }, { timeoutMs: 8000 });
    const help = await user.say("/help", /\/recharge/);
    expect(help.text.includes("/addmoney")).toBe(combo.topUps);
    const add = await user.say("/addmoney", /./);
    if (combo.topUps) expect(add.text).toMatch(/How much do you want to add|share|register/i);
    else expect(add.text).toMatch(/Adding money online is not available here/);
    const menu = (emulator.commands() ?? []).map((c) => c.command);
    expect(menu).toContain("help");
    expect(menu.includes("addmoney")).toBe(combo.topUps);
  });
});
