import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { run } from "@grammyjs/runner";
import { serve } from "@hono/node-server";
import type { Registry } from "prom-client";
import { type BotApiEmulator, createBotApiEmulator } from "../dev/playground/emulator/index.ts";
import { startWhatsAppStandInServer } from "../dev/whatsapp/server.ts";
import { account } from "../src/ledger/chart.ts";
import { createRedisLedger } from "../src/ledger/redis-store.ts";
import { PLAYGROUND_TOKEN } from "../src/local-mode.ts";
import { formatRupees } from "../src/money.ts";
import { createProviderClient } from "../src/provider/index.ts";
import { asSingleKeyClient } from "../src/redis/connection.ts";
import { wireRequest } from "../test/support/execute-terms.ts";
import type { SystemView as System } from "../test/support/system-view.ts";
import { MOBILE_FLOW, mobileNumberOf } from "./lib/bot-driver.ts";
import { childMain } from "./lib/child.ts";
import { intEnv } from "./lib/env.ts";
import { profiled } from "./lib/profiler.ts";
import { benchPrefix, deleteKeys } from "./lib/redis.ts";
import { type SandboxProcess, startSandboxProcess } from "./lib/sandbox-process.ts";
import {
  FLOOR_PAID,
  FLOOR_PAY_LABEL,
  FLOOR_TAP_LABEL,
  FLOOR_TAPPED,
  stackFloorBot,
} from "./lib/stack-floor.ts";
import { type Summary, summarize } from "./lib/stats.ts";
import { startBenchSystem } from "./lib/system.ts";
import { WA_BENCH } from "./lib/whatsapp-creds.ts";

/**
 * User-felt latency, the product as `npm start` builds it with workers on (the bot long-polls a
 * Bot API emulator over loopback HTTP, the notifier and the webhook route run as in production),
 * on Redis, against the sandbox aggregator in a process of its own (`npm run
 * sandbox`): the real aggregator is remote, so the execute's handling and the webhooks it sends
 * are not the product's CPU.
 *
 *  1. Tap on Confirm -> the receipt on screen: N users walk the mobile top-up to the confirm
 *     screen (untimed), then all tap Confirm at once; from the tap to the receipt message in the
 *     chat. In the same round, before it, the stack floor (stack-floor.ts: a grammY session and a
 *     conversations v2 conversation in Redis, nothing else) gets N taps at once on its own
 *     emulator over the same transport and answers each by editing the tapped message: what the
 *     mandated stack alone costs for such a burst on this machine.
 *  2. Final webhook -> push sent: the orders of step 1 are made final at the sandbox at a steady
 *     rate, each for a different chat; from asking the sandbox for the status change (it sends the
 *     encrypted webhook at once) to the final push in the chat: delivery, decrypt, the confirming
 *     status query, the compare-and-set, the outbox, the notifier's receipt edit and push, all
 *     included.
 */

const RECEIPT = /Order \d+/;
/** The amount MOBILE_FLOW types. */
const AMOUNT_PAISA = 15_000;
const FINAL_PUSH = /^(?:✅|❌) Order (\d+) (succeeded|failed)\./;

export interface LatencyOut {
  users: number;
  rounds: number;
  /** Where the product's Bot API emulator was served (BENCH_LATENCY_EMULATOR, see `Rig`). */
  emulator: Rig;
  /** Where the sandbox aggregator ran. */
  sandbox: string;
  confirmToReceiptMs: Summary;
  /** The stack floor, the same rounds: a tap on the echo's button -> the message edited. */
  floorTapToEditMs: Summary;
  /**
   * Issue 31 target 3's tap floor, the same rounds, the same number of taps at once: the stack
   * floor's tap plus one execute round trip to the same sandbox process and one ledger script (a
   * transfer on the product's ledger store) before the edit.
   */
  tapFloorMs: Summary;
  tapFloorCpuMsPerTap: number;
  /** The tap floor's executes by outcome (accepted / rejected / unknown): all must be answered. */
  tapFloorExecutes: Record<string, number>;
  /**
   * This process's CPU (user + system) from the first tap of a burst to its last answer, per tap,
   * mean over the rounds: what one tap costs, the emulator's share included for both. Taps that
   * arrive together wait for each other's CPU, so the last one waits about users x this; unlike
   * the wall times it does not grow with what else the machine runs.
   */
  confirmCpuMsPerTap: number;
  /** The same CPU per tap, round by round (the first round runs cold code). */
  cpuMsPerTapByRound: { confirm: number[]; tapFloor: number[]; floor: number[] };
  /**
   * Requests the product's own HTTP listener served per tap during the Confirm bursts (its
   * access log and Prometheus middleware ran for each): the mounted emulator's Bot API calls
   * count here; with the emulator served bare, only what the product itself is asked (none).
   */
  confirmHttpRequestsPerTap: number;
  floorCpuMsPerTap: number;
  webhooksPerSecond: number;
  webhooks: number;
  webhookToPushMs: Summary;
  /** Of which: until the order is stored final (delivery, decrypt, confirming query, write). */
  webhookToFinalMs: Summary;
  /** And from the order stored final to the push in the chat (outbox, notifier, pacer, send). */
  finalToPushMs: Summary;
  pushesLate: number;
}

/** The floor's users: a block of ids apart from the product's (7 300 001 on). */
const FLOOR_FIRST_ID = 7_350_001;
/** The tap floor's users: the floor's, this much higher. */
const PAY_OFFSET = 20_000;

/** Each user says hello to the floor bot (untimed): its echo carries the buttons. */
async function greet(emu: BotApiEmulator, ids: number[]): Promise<void> {
  for (const id of ids) emu.users.upsert(id, { first_name: `Floor${id}` });
  await Promise.all(
    ids.map(async (id) => {
      emu.sendText(id, "hello");
      await emu.waitForBotMessage(id, /^hello$/, { timeoutMs: 60_000 });
    }),
  );
  await sleep(500);
}

export async function runLatency(): Promise<LatencyOut> {
  const users = intEnv("BENCH_LATENCY_USERS", 100);
  const rounds = intEnv("BENCH_LATENCY_ROUNDS", 3);
  const rate = intEnv("BENCH_LATENCY_WEBHOOKS_PER_SECOND", 20);
  const prefix = benchPrefix("latency");
  // The aggregator is remote in production: its CPU is not the product's (sandbox-process.ts).
  const sandbox = await startSandboxProcess({
    token: "bench-latency-token",
    secret: randomBytes(16).toString("hex"),
    env: {
      // It answers at once and never refuses for rate; its timers stay out of the way.
      SANDBOX_RATE_LIMIT: "0",
      SANDBOX_TO_PENDING_MS: "3600000",
      SANDBOX_TO_FINAL_MS: "3600000",
    },
  });
  const rig = rigOf(process.env.BENCH_LATENCY_EMULATOR);
  let product: Awaited<ReturnType<typeof startProduct>> | undefined;
  let floor: Awaited<ReturnType<typeof startFloor>> | undefined;
  try {
    product = await startProduct(rig, prefix, sandbox);
    const { system, emu } = product;
    await sandbox.setWebhook(`${system.url}${system.config.webhook.path}`);
    // Each benchmark user places one order; the wallet must cover thousands of them.
    await sandbox.setBalance(1_000_000_000_000);
    floor = await startFloor(system, prefix, sandbox);

    // 1. Confirm -> receipt, all users of a round at once; the stack floor's tap -> edit likewise,
    // in the same round (the same machine load), on an emulator of its own in this process.
    const confirm: number[] = [];
    const floorTaps: number[] = [];
    const payTaps: number[] = [];
    const cpu = { confirm: [] as number[], floor: [] as number[], pay: [] as number[] };
    const productHttp: number[] = [];
    const steps = MOBILE_FLOW.slice(0, -1);
    const tapConfirm = MOBILE_FLOW.at(-1)!;
    for (let round = 0; round < rounds; round++) {
      const last = round === rounds - 1;
      const floorEmu = floor.emulator;
      const floorIds = Array.from({ length: users }, (_, i) => FLOOR_FIRST_ID + round * users + i);
      await greet(floorEmu, floorIds);
      const floorBurst = await profiledIf(last, "latency-floor", () =>
        burst(floorIds, (id) => floorEmu.clickButton(id, FLOOR_TAP_LABEL), floorEmu, FLOOR_TAPPED),
      );
      floorTaps.push(...floorBurst.times);
      cpu.floor.push(floorBurst.cpuMs / users);

      // The tap floor: other users of the same floor bot tap Pay (execute + ledger, then edit).
      const payIds = floorIds.map((id) => id + PAY_OFFSET);
      await greet(floorEmu, payIds);
      const payBurst = await profiledIf(last, "latency-tap-floor", () =>
        burst(payIds, (id) => floorEmu.clickButton(id, FLOOR_PAY_LABEL), floorEmu, FLOOR_PAID),
      );
      payTaps.push(...payBurst.times);
      cpu.pay.push(payBurst.cpuMs / users);

      // Numbers ending in 0000 fail at the sandbox: start at 1.
      const ids = Array.from({ length: users }, (_, i) => 7_300_001 + round * users + i);
      for (const id of ids) emu.users.upsert(id, { first_name: `Lat${id}` });
      await Promise.all(
        ids.map(async (id) => {
          for (const step of steps) {
            step.act(emu, id);
            await emu.waitForBotMessage(id, step.expect, { timeoutMs: 60_000 });
          }
        }),
      );
      await sleep(500); // let the walk's tail settle so the taps start together
      const served0 = await requestsServed(system.registry);
      const confirmBurst = await profiledIf(last, "latency-confirm", () =>
        burst(ids, (id) => tapConfirm.act(emu, id), emu, RECEIPT),
      );
      productHttp.push(((await requestsServed(system.registry)) - served0) / users);
      confirm.push(...confirmBurst.times);
      checkReceipts(emu, ids);
      cpu.confirm.push(confirmBurst.cpuMs / users);
    }
    await floor.stop();
    floor = undefined;
    // Every order is now queued at the sandbox (its timers are an hour long in the benchmark).
    await sleep(2_000);
    // The number each user typed is 984 followed by the user id (mobileNumberOf): the chat.
    const finals = (await sandbox.transactions())
      .filter((t) => t.status === "queued" || t.status === "pending")
      .map((t) => ({ tx: t.transactionId, chatId: Number(t.connectionNo.slice(3)) }))
      // The tap floor's executes are the sandbox's too: only the product's orders have a chat.
      .filter((o) => o.chatId < FLOOR_FIRST_ID);

    // 2. Final webhooks at a steady rate, one per chat. The clock starts as the status change is
    // asked of the sandbox (one loopback round trip to its admin API before it sends the webhook).
    const gapMs = 1000 / rate;
    const start = performance.now();
    const waits = finals.map(async (o, i) => {
      const ahead = start + i * gapMs - performance.now();
      if (ahead > 0) await sleep(ahead);
      const t0 = performance.now();
      const wallT0 = Date.now();
      await sandbox.forceStatus(o.tx, "success");
      const m = await emu.waitForBotMessage(o.chatId, FINAL_PUSH, { timeoutMs: 120_000 });
      const ms = performance.now() - t0;
      return { ms, wallT0, pushedAt: wallT0 + ms, reference: FINAL_PUSH.exec(m.text)?.[1] };
    });
    const pushed = await Promise.all(waits);
    const push = pushed.map((p) => p.ms);
    // The order's history says when it was stored final (whole milliseconds of the same clock).
    const orders = system.orders;
    const split = await Promise.all(
      pushed.map(async (p) => {
        const order = p.reference ? await orders.get(p.reference) : null;
        const at = order?.history.find((h) => h.status === "success")?.at;
        return at === undefined ? undefined : { toFinal: at - p.wallT0, toPush: p.pushedAt - at };
      }),
    );
    const known = split.filter((x) => x !== undefined);
    return {
      users,
      rounds,
      emulator: rig,
      sandbox: "a process of its own (dev/sandbox/standalone.ts)",
      confirmToReceiptMs: summarize(confirm),
      floorTapToEditMs: summarize(floorTaps),
      tapFloorMs: summarize(payTaps),
      tapFloorCpuMsPerTap: mean(cpu.pay),
      tapFloorExecutes: floorExecutes,
      confirmCpuMsPerTap: mean(cpu.confirm),
      confirmHttpRequestsPerTap: mean(productHttp),
      cpuMsPerTapByRound: { confirm: cpu.confirm, tapFloor: cpu.pay, floor: cpu.floor },
      floorCpuMsPerTap: mean(cpu.floor),
      webhooksPerSecond: rate,
      webhooks: push.length,
      webhookToPushMs: summarize(push),
      webhookToFinalMs: summarize(known.map((x) => x.toFinal)),
      finalToPushMs: summarize(known.map((x) => x.toPush)),
      pushesLate: push.filter((ms) => ms > 250).length,
    };
  } finally {
    await floor?.stop();
    await product?.stop();
    await sandbox.close();
    await deleteKeys(prefix);
  }
}

/**
 * Where the product's Bot API emulator is served (BENCH_LATENCY_EMULATOR):
 *  - "bare" (the default): a bare `serve()` of an emulator in this process, as the floors' is, and
 *    the product started with BOT_TOKEN and TELEGRAM_API_ROOT, as production starts it against a
 *    Bot API. In production Telegram's servers answer those calls: handling them is not the
 *    product's CPU, and here it is this process's as much as the floors' emulator's is.
 *  - "mounted": the rig before h-bench3: PLAYGROUND, the emulator mounted in the product's own
 *    Hono app, so each of its requests (getUpdates, the answers, the edits, the receipt's send)
 *    also runs the product's access log, Prometheus middleware and headers, about 10 % of the
 *    Confirm burst (docs/performance.md, h-tap2 and h-bench3). Kept to compare the two.
 */
type Rig = "bare" | "mounted";

function rigOf(raw: string | undefined): Rig {
  const v = raw?.trim() || "bare";
  if (v !== "bare" && v !== "mounted")
    throw new Error(`BENCH_LATENCY_EMULATOR must be "bare" or "mounted", not "${v}"`);
  return v;
}

/** The product against the sandbox process, and the emulator its chats are driven through. */
async function startProduct(rig: Rig, prefix: string, sandbox: SandboxProcess) {
  const provider = {
    PROVIDER_URL: sandbox.baseUrl,
    PROVIDER_TOKEN: sandbox.token,
    WEBHOOK_SECRET: sandbox.secret,
  };
  if (rig === "mounted") {
    const system = await startBenchSystem({ prefix, workers: true, env: provider });
    const emu = system.emulator;
    if (!emu) throw new Error("the latency benchmark needs the Bot API emulator");
    return { system, emu, stop: () => system.stop() };
  }
  // The playground also embeds the WhatsApp Cloud API stand-in, which makes the bot's Bot API
  // client route through the WhatsApp channel's fetch: served bare too, so the product is wired
  // as in the mounted rig (no WhatsApp traffic is sent).
  const emulator = createBotApiEmulator({ token: PLAYGROUND_TOKEN });
  const telegram = await serveBare(emulator);
  const whatsapp = await startWhatsAppStandInServer({ ...WA_BENCH });
  const stopOutside = async () => {
    await telegram.close();
    await whatsapp.close();
  };
  let system: System;
  try {
    system = await startBenchSystem({
      prefix,
      workers: true,
      env: {
        ...provider,
        BOT_TOKEN: PLAYGROUND_TOKEN,
        TELEGRAM_API_ROOT: telegram.root,
        WHATSAPP_PHONE_NUMBER_ID: WA_BENCH.phoneNumberId,
        WHATSAPP_ACCESS_TOKEN: WA_BENCH.accessToken,
        WHATSAPP_APP_SECRET: WA_BENCH.appSecret,
        WHATSAPP_VERIFY_TOKEN: WA_BENCH.verifyToken,
        WHATSAPP_API_ROOT: whatsapp.graphRoot,
      },
    });
  } catch (err) {
    await stopOutside();
    throw err;
  }
  const path = system.config.whatsapp?.webhookPath;
  if (path) whatsapp.standIn.setWebhookUrl(`${system.url}${path}`);
  return {
    system,
    emu: emulator,
    async stop() {
      await system.stop();
      await stopOutside();
    },
  };
}

/**
 * The server's keep-alive: longer than the client's. grammY's fetch (node-fetch on Node's global
 * agent) drops an idle socket 1 s before the 5 s Node's server announces, and client and server
 * share this process: when the process is not run across both deadlines (a loaded machine), the
 * next request is written on the socket the server's timer then closes: ECONNRESET, grammY's
 * "Network request for 'sendMessage' failed", which aborted the floor bot's greeting (no retry
 * there). With the server's idle limit far above the client's, only the client closes an idle
 * socket; which sockets are reused is unchanged (the client's 5 s decides).
 */
const EMULATOR_KEEP_ALIVE_MS = 65_000;

/** An emulator on a bare `serve()` over loopback: no middleware but the emulator's own. */
async function serveBare(emulator: BotApiEmulator) {
  const server = serve({ fetch: emulator.app.fetch, port: 0, hostname: "127.0.0.1" });
  if ("keepAliveTimeout" in server) server.keepAliveTimeout = EMULATOR_KEEP_ALIVE_MS;
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    root: `http://127.0.0.1:${port}`,
    async close() {
      // Released long polls get their empty answer; idle keep-alive sockets are closed with it.
      emulator.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ("closeIdleConnections" in server) server.closeIdleConnections();
      });
    },
  };
}

/**
 * All users act at once; each one's time from its act to the bot message matching `done`, and the
 * process's CPU time over the whole burst.
 */
async function burst(
  ids: number[],
  act: (id: number) => unknown,
  emu: BotApiEmulator,
  done: RegExp,
): Promise<{ times: number[]; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const times = await Promise.all(
    ids.map(async (id) => {
      const t0 = performance.now();
      act(id);
      await emu.waitForBotMessage(id, done, { timeoutMs: 60_000 });
      return performance.now() - t0;
    }),
  );
  const used = process.cpuUsage(cpu0);
  return { times, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * What each user sees once the burst is over (untimed): the receipt names the order, the number
 * typed, the amount (MOBILE_FLOW types 150) and a status, so a wrong or empty receipt fails the run rather than being timed.
 */
function checkReceipts(emu: BotApiEmulator, ids: number[]): void {
  for (const id of ids) {
    const chat = emu.chat(id).filter((m) => m.from === "bot");
    const receipt = chat.findLast((m) => RECEIPT.test(m.text));
    const lines = receipt?.text.split("\n") ?? [];
    const ok =
      /^🧾 Order \d+$/.test(lines[0] ?? "") &&
      lines[1]?.includes(` · ${mobileNumberOf(id)} · ${formatRupees(AMOUNT_PAISA)}`) &&
      lines.some((l) => /^Status: \S/.test(l));
    if (!ok) throw new Error(`user ${id}: not a receipt: ${JSON.stringify(receipt?.text)}`);
  }
}

/** Requests the product's listener has served: its latency histogram's counts (src/http/latency.ts). */
async function requestsServed(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric("http_request_duration_seconds")?.get();
  const values: { value: number; metricName?: string }[] = metric?.values ?? [];
  return values.filter((v) => v.metricName?.endsWith("_count")).reduce((a, v) => a + v.value, 0);
}

/** The tap floor's executes by outcome, over the whole run. */
const floorExecutes: Record<string, number> = {};

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** The last round's burst is profiled (JIT warm) when BENCH_PROFILE names it. */
function profiledIf<T>(when: boolean, name: string, fn: () => Promise<T>): Promise<T> {
  return when ? profiled(name, fn) : fn();
}

/**
 * The stack floor (stack-floor.ts) as the product runs: long polling through @grammyjs/runner,
 * over loopback HTTP to a Bot API emulator served from this process (an emulator of its own: one
 * token's update queue has one reader), its session and conversation in the same Redis.
 */
async function startFloor(system: System, prefix: string, sandbox: SandboxProcess) {
  const redis = system.redis && asSingleKeyClient(system.redis);
  if (!system.redis || !redis) throw new Error("the latency benchmark needs Redis");
  // The tap floor's money work: the product's provider client (a keep-alive pool, as the product
  // has) to the same sandbox process, and the product's ledger store on the same Redis, under
  // the floor's own key prefix.
  const provider = createProviderClient({ baseUrl: sandbox.baseUrl, token: sandbox.token });
  const ledger = createRedisLedger({ redis: system.redis, prefix: `${prefix}floor-` });
  let seq = 0;
  const pay = async (chatId: number) => {
    const n = ++seq;
    const reference = String(900_000_000 + n);
    const moved = await ledger.transfer({
      id: `floor:${reference}`,
      debit: account.merchant.funding,
      credit: account.customer(chatId),
      amountPaisa: 15_000,
      kind: "credit",
    });
    if (!moved.ok)
      throw new Error(`the tap floor's ledger script refused: ${JSON.stringify(moved)}`);
    const r = await provider.execute(
      wireRequest({
        category: "mobile",
        operatorId: 5,
        operatorTypeId: 1,
        connectionNo: mobileNumberOf(chatId),
        referenceNo: reference,
        amountPaisa: 15_000,
      }),
    );
    floorExecutes[r.kind] = (floorExecutes[r.kind] ?? 0) + 1;
  };
  const emulator = createBotApiEmulator({ token: PLAYGROUND_TOKEN });
  const served = await serveBare(emulator);
  const bot = stackFloorBot({
    redis,
    prefix,
    client: { apiRoot: served.root },
    tap: true,
    pay,
    concurrent: true,
  });
  const runner = run(bot, { runner: { silent: true } });
  return {
    emulator,
    async stop() {
      if (runner.isRunning()) await runner.stop();
      await served.close();
      await provider.close();
    },
  };
}

childMain(import.meta.url, runLatency);
