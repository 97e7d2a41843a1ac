import { createServer, type Socket } from "node:net";
import { HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.ts";
import { createMemoryNotificationQueue } from "../../src/notify/index.ts";
import {
  botApiCallBoundMs,
  DEFAULT_BOT_API_POLICY,
  mayHaveArrived,
  minSendLockMs,
  sendOnceSignal,
} from "../../src/telegram/api.ts";
import { createNotifier, createNotifierApi } from "../support/notify.ts";

/** A Bot API that accepts connections and never answers; every socket it took is counted. */
async function withSilentBotApi(run: (port: number, sockets: Socket[]) => Promise<void>) {
  const sockets: Socket[] = [];
  const silent = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  try {
    await run((silent.address() as { port: number }).port, sockets);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  }
}

/** A loopback port nobody listens on: every connection is refused. */
async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as { port: number }).port;
  await new Promise((r) => closed.close(r));
  return port;
}

const apiAt = (port: number, maxRetryAttempts: number) =>
  createNotifierApi("42:send-lock", {
    apiRoot: `http://127.0.0.1:${port}`,
    timeoutMs: 200,
    maxRetryAttempts,
    maxDelaySeconds: 0.1,
  });

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (e: unknown) => e,
  );

/**
 * The notifier's send lock outlives any Bot API call it guards: calls are bounded, and a lock
 * shorter than the bound is refused, so an outage can never end in a second push of the same
 * notification when the network returns.
 */
describe("Bot API calls are bounded and the send lock outlives them", () => {
  it("a sendMessage to a Bot API that never answers gives up after its attempts", async () => {
    await withSilentBotApi(async (port, sockets) => {
      const err = await failureOf(apiAt(port, 1).sendMessage(1, "hello"));
      expect(err).toBeInstanceOf(HttpError);
      expect((err as Error).message).toMatch(/timed out after 200 ms \(attempt 2 of 2\)/);
      expect(sockets).toHaveLength(2);
    });
  });

  it("a send-once call whose answer never comes is not sent again, and may have arrived", async () => {
    await withSilentBotApi(async (port, sockets) => {
      const api = apiAt(port, 2);
      const err = await failureOf(api.sendMessage(1, "hello", undefined, sendOnceSignal()));
      expect((err as Error).message).toMatch(/attempt 1 of 3; not repeated: it may have arrived/);
      expect(mayHaveArrived(err)).toBe(true);
      expect(sockets).toHaveLength(1); // before: 3 requests, each of which Telegram may carry out
    });
  });

  it("a send-once call that could not connect is retried: it never reached the Bot API", async () => {
    const api = apiAt(await closedPort(), 2);
    const err = await failureOf(api.sendMessage(1, "hello", undefined, sendOnceSignal()));
    expect((err as Error).message).toMatch(/attempt 3 of 3\)/);
    expect(mayHaveArrived(err)).toBe(false);
  });

  it("a network error is retried a bounded number of times, not forever", async () => {
    const api = apiAt(await closedPort(), 2);
    await expect(api.sendMessage(1, "hello")).rejects.toThrow(/attempt 3 of 3/);
  });

  it("the default send lock covers two calls of the default policy; a shorter one is refused", () => {
    const config = loadConfig({});
    expect(config.notifier.lockMs).toBeGreaterThanOrEqual(
      2 * botApiCallBoundMs(DEFAULT_BOT_API_POLICY),
    );
    expect(config.notifier.lockMs).toBeGreaterThanOrEqual(minSendLockMs(config.bot.api));
    expect(() => loadConfig({ NOTIFY_LOCK_MS: "20000" })).toThrow(
      /NOTIFY_LOCK_MS: must be at least/,
    );
    // Longer Telegram timeouts raise the floor.
    expect(() => loadConfig({ TELEGRAM_TIMEOUT_MS: "30000", NOTIFY_LOCK_MS: "60000" })).toThrow(
      /NOTIFY_LOCK_MS/,
    );
    expect(loadConfig({ TELEGRAM_TIMEOUT_MS: "30000" }).notifier.lockMs).toBe(
      minSendLockMs({ ...DEFAULT_BOT_API_POLICY, timeoutMs: 30_000 }),
    );
  });

  it("with WhatsApp, the send lock also outlives two WhatsApp sends of its bounds", () => {
    // Pushes into WhatsApp chats are Cloud API sends (WHATSAPP_ATTEMPTS × WHATSAPP_TIMEOUT_MS and
    // pauses): a lock sized on Telegram's bounds alone could run out under a slow Meta.
    const whatsapp = {
      WHATSAPP_PHONE_NUMBER_ID: "106540352242922",
      WHATSAPP_ACCESS_TOKEN: "EAAG-access-token-123456",
      WHATSAPP_APP_SECRET: "app-secret-0123456789abcdef",
      WHATSAPP_VERIFY_TOKEN: "verify-token-42",
    };
    const config = loadConfig(whatsapp);
    const wa = config.whatsapp?.api;
    expect(wa).toBeDefined();
    const floor = minSendLockMs(config.bot.api, wa);
    const send = wa!.attempts * wa!.timeoutMs + (wa!.attempts - 1) * wa!.maxBackoffMs;
    expect(floor).toBeGreaterThanOrEqual(2 * send);
    expect(floor).toBeGreaterThan(minSendLockMs(config.bot.api));
    expect(config.notifier.lockMs).toBeGreaterThanOrEqual(floor);
    // The Telegram-only floor is not enough with WhatsApp running.
    const telegramFloor = String(minSendLockMs(config.bot.api));
    expect(() => loadConfig({ ...whatsapp, NOTIFY_LOCK_MS: telegramFloor })).toThrow(
      /NOTIFY_LOCK_MS: must be at least .*WHATSAPP_TIMEOUT_MS/,
    );
    // Longer WhatsApp timeouts raise the floor; Telegram alone keeps its own.
    const slower = loadConfig({ ...whatsapp, WHATSAPP_TIMEOUT_MS: "30000" });
    expect(slower.notifier.lockMs).toBe(
      minSendLockMs(slower.bot.api, { ...wa!, timeoutMs: 30_000 }),
    );
    expect(slower.notifier.lockMs).toBeGreaterThan(config.notifier.lockMs);
    expect(loadConfig({}).notifier.lockMs).toBe(Math.max(60_000, minSendLockMs(config.bot.api)));
  });

  it("the notifier refuses a lock shorter than its calls can take", () => {
    const make = (lockMs: number) =>
      createNotifier({
        queue: createMemoryNotificationQueue(),
        orders: { get: async () => null },
        api: { sendMessage: async () => ({ message_id: 1 }), editMessageText: async () => true },
        consumerName: "t",
        lockMs,
        minLockMs: minSendLockMs(DEFAULT_BOT_API_POLICY),
      });
    expect(() => make(30_000)).toThrow(/send lock 30000 ms is shorter/);
    expect(() => make(minSendLockMs(DEFAULT_BOT_API_POLICY))).not.toThrow();
  });
});
