import { createHash } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { Redis } from "ioredis";
import { PLAYGROUND_TOKEN } from "../../src/local-mode.ts";
import type { RedisClient } from "../../src/redis/connection.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createRedisInboundQueue } from "../../src/whatsapp/inbound-queue.ts";
import { verifySignature } from "../../src/whatsapp/signature.ts";
import { whatsappWebhook } from "../../src/whatsapp/webhook.ts";
import { startProfile, stopProfile } from "./profiler.ts";
import { serveHelper } from "./rpc.ts";
import { benchLogger, startBenchSystem } from "./system.ts";
import { WA_BENCH } from "./whatsapp-creds.ts";

/**
 * The product side of the WhatsApp benchmark (bench/whatsapp.ts), in a process of its own so its
 * CPU is the product's alone: startSystem with workers on, Telegram through its webhook
 * (PUBLIC_URL) with the Bot API emulator in the driver's process, WhatsApp with the Cloud API
 * stand-in in the driver's process (WHATSAPP_API_ROOT), both over loopback. Two routes on a
 * listener of their own in the same process:
 *  - POST /bench/wa-floor: the floor: the exact bytes, the product's X-Hub-Signature-256 check,
 *    one XADD of the body (capped stream), 200. The least a webhook that checks Meta's signature
 *    and queues durably before its 200 can do.
 *  - /bench/wa-webhook: the product's webhook (whatsappWebhook: size cap, signature, JSON,
 *    normalise) with the product's accept for messages (the enqueue script: SET NX + INCR + ZADD
 *    + XADD) into a queue of its own that no consumer reads: the webhook's cost alone.
 */

const prefix = process.env.BENCH_PREFIX;
const port = process.env.BENCH_PORT;
const emulatorRoot = process.env.BENCH_EMULATOR_ROOT;
const graphRoot = process.env.BENCH_GRAPH_ROOT;
if (!prefix || !port || !emulatorRoot || !graphRoot)
  throw new Error(
    "BENCH_PREFIX, BENCH_PORT, BENCH_EMULATOR_ROOT and BENCH_GRAPH_ROOT are required",
  );

const started = startBenchSystem({
  prefix,
  workers: true,
  env: {
    PORT: port,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    BOT_TOKEN: PLAYGROUND_TOKEN,
    TELEGRAM_API_ROOT: emulatorRoot,
    WHATSAPP_PHONE_NUMBER_ID: WA_BENCH.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: WA_BENCH.accessToken,
    WHATSAPP_APP_SECRET: WA_BENCH.appSecret,
    WHATSAPP_VERIFY_TOKEN: WA_BENCH.verifyToken,
    WHATSAPP_API_ROOT: graphRoot,
  },
});

/**
 * The floor and the webhook alone on a listener of their own (the product's app has built its
 * router once Telegram's first update arrived: no route can be added to it then), in this process.
 */
async function serveWebhookRoutes(redis: RedisClient): Promise<string> {
  const app = new Hono();
  const secret = WA_BENCH.appSecret;
  app.post("/bench/wa-floor", async (c) => {
    const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
    if (!verifySignature(secret, bytes, c.req.header("x-hub-signature-256")))
      return c.text("unauthorized", 401);
    await redis.xadd(`${prefix}wa-floor`, "MAXLEN", "~", "1000", "*", "b", Buffer.from(bytes));
    return c.text("EVENT_RECEIVED", 200);
  });
  const queue = createRedisInboundQueue({
    redis,
    prefix: `${prefix}wb:`,
    consumer: "bench",
    logger: benchLogger(),
  });
  app.route(
    "/bench/wa-webhook",
    whatsappWebhook({
      appSecret: secret,
      verifyToken: WA_BENCH.verifyToken,
      bodyLimitBytes: 1024 * 1024,
      // The product's accept (src/system/whatsapp.ts) for messages; the bodies carry no statuses.
      accept: async (events) => {
        for (const m of events.messages) {
          const chatId = m.waId ? chatIdOfWaId(m.waId) : null;
          if (chatId !== null) await queue.enqueue(chatId, m);
        }
      },
      logger: benchLogger(),
    }),
  );
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const ready = started.then((system) => {
  if (!system.redis) throw new Error("the WhatsApp benchmark needs Redis");
  return serveWebhookRoutes(system.redis);
});

/**
 * Redis commands this process sends, by name, while counting is on (a pass of its own, apart from
 * the timed ones): every command goes through Redis#sendCommand, pipelines' and MULTI's too.
 */
const counts = new Map<string, number>();
let counting = false;
const send = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, command, stream) {
  if (counting) counts.set(command.name, (counts.get(command.name) ?? 0) + 1);
  return send.call(this, command, stream);
};

/** Telegram's webhook path and secret, as src/system/start.ts derives them from the token. */
function telegramHook() {
  const hash = createHash("sha256").update(PLAYGROUND_TOKEN).digest("hex");
  return { path: `/telegram-webhook/${hash.slice(0, 32)}`, secret: hash.slice(32, 64) };
}

serveHelper(
  ready.then(() => undefined),
  {
    async info() {
      const system = await started;
      return {
        url: system.url,
        benchUrl: await ready,
        whatsappPath: system.config.whatsapp?.webhookPath,
        telegram: telegramHook(),
      };
    },
    cpu() {
      const u = process.cpuUsage();
      return { cpuMs: (u.user + u.system) / 1000, systemMs: u.system / 1000 };
    },
    countStart() {
      counts.clear();
      counting = true;
    },
    countStop() {
      counting = false;
      return Object.fromEntries(counts);
    },
    profileStart: () => startProfile(),
    profileStop: (name) => stopProfile(String(name)),
    async stop() {
      const system = await started;
      await system.stop();
    },
  },
);
