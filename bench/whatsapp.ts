import { randomBytes } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { type BotApiEmulator, createBotApiEmulator } from "../dev/playground/emulator/index.ts";
import {
  metaJson,
  type RunningStandIn,
  signature,
  startWhatsAppStandInServer,
} from "../dev/whatsapp/index.ts";
import { PLAYGROUND_TOKEN } from "../src/local-mode.ts";
import { epochKey } from "../src/redis/chat-turns.ts";
import { keyspace } from "../src/redis/keyspace.ts";
import { chatIdOfWaId } from "../src/whatsapp/chat-ids.ts";
import { MOBILE_FLOW } from "./lib/bot-driver.ts";
import { childMain } from "./lib/child.ts";
import { intEnv } from "./lib/env.ts";
import { profileWanted } from "./lib/profiler.ts";
import { benchPrefix, connectRedis, deleteKeys } from "./lib/redis.ts";
import { type Helper, startHelper } from "./lib/rpc.ts";
import { type Summary, summarize } from "./lib/stats.ts";
import { WA_BENCH } from "./lib/whatsapp-creds.ts";

/**
 * WhatsApp: CPU per inbound message and inbound-to-reply latency (issue 28, issue 31 target 4).
 * The product runs in a process of its own (lib/whatsapp-server.ts: startSystem, workers on,
 * Redis), so its CPU is read alone; the Cloud API stand-in and the Bot API emulator run here and
 * are reached over loopback HTTP, as Meta and Telegram are reached in production.
 *
 *  1. Webhook: signed Meta bodies (one text message each, a new wamid and phone each) POSTed over
 *     loopback, `concurrency` at a time, to the floor (the product's signature check over the
 *     exact bytes + one XADD of the body) and to the product's webhook (size cap, signature, JSON,
 *     normalise, the enqueue script), alternating in `rounds`; the server's CPU per message and
 *     the sender's p50/p99 to the 200. A third route: a "delivered" status POSTed to the product's
 *     own webhook path (Meta sends sent, delivered and read for every reply: part of each step).
 *  2. The chat step "hi" -> the menu, the whole path on each channel at the same steady rate,
 *     each step a different chat (WhatsApp's per-chat pacing is 1/s), alternating in rounds:
 *     Telegram: the emulator POSTs the update to the product's Telegram webhook -> the bot ->
 *     sendMessage reaching the emulator. WhatsApp: the stand-in POSTs the signed webhook -> the
 *     enqueue script -> XREADGROUP consumer -> the same bot -> the router -> the client's send
 *     reaching the stand-in. Latency from the user's act to the reply in the emulator / stand-in;
 *     CPU per step is the product process's CPU over the round (WhatsApp's sent / delivered /
 *     read status webhooks included: Meta sends them for every reply) less its idle rate.
 */

const SERVER = fileURLToPath(new URL("./lib/whatsapp-server.ts", import.meta.url));

export interface WebhookRun {
  /** product: the webhook alone (bench listener); status: a status webhook on the product's own path. */
  route: "floor" | "product" | "status";
  messages: number;
  concurrency: number;
  cpuUsPerMessage: number;
  latencyMs: Summary;
  non2xx: number;
}

export interface StepRun {
  channel: "telegram" | "whatsapp";
  steps: number;
  perSecond: number;
  cpuUsPerStep: number;
  /** The same, idle CPU not subtracted. */
  rawCpuUsPerStep: number;
  /** Of the raw figure, the kernel's (system time: loopback TCP for HTTP and Redis). */
  systemUsPerStep: number;
  latencyMs: Summary;
}

export interface WhatsAppOut {
  webhook: WebhookRun[];
  steps: StepRun[];
  idleCpuUsPerSecond: number;
  step: string;
  firstReplies: { telegram: string; whatsapp: string };
  /** Per step, a pass of its own with counting on: Redis commands by name, HTTP calls. */
  perStep: Record<StepRun["channel"], Traffic>;
  /** What the first user's chat holds after every round (bot / business messages): one per step. */
  repliesPerChat: { telegram: number; whatsapp: number };
  /**
   * Issue 31 target 7: one more round per channel with twice the chats (`users` more, first
   * contact untimed), CPU per step against the rounds' median at `users`.
   */
  growth: { users: number; doubled: Record<StepRun["channel"], StepRun> };
  /** Issue 31 target 6: Redis bytes per open conversation, mid-flow, on each channel. */
  conversationBytes: Record<StepRun["channel"], ConversationBytes>;
}

export interface ConversationBytes {
  chats: number;
  /** The largest chat's total, and the mean. */
  max: number;
  mean: number;
  /** Keys counted per chat (that existed), and their bytes by kind, the largest chat's. */
  keysPerChat: number;
  byKind: Record<string, number>;
}

export async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function startEmulator() {
  const emulator = createBotApiEmulator({ token: PLAYGROUND_TOKEN });
  const server = serve({ fetch: emulator.app.fetch, port: 0, hostname: "127.0.0.1" });
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    emulator,
    root: `http://127.0.0.1:${port}`,
    async close() {
      emulator.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export const cpuMs = async (helper: Helper) => (await helper.call<{ cpuMs: number }>("cpu")).cpuMs;
const systemMs = async (helper: Helper) =>
  (await helper.call<{ systemMs: number }>("cpu")).systemMs;

/** A Meta webhook body around `value` (messages or statuses), signed as Meta signs it. */
function signed(value: Record<string, unknown>): { body: string; sig: string } {
  const body = metaJson({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: WA_BENCH.displayPhoneNumber,
                phone_number_id: WA_BENCH.phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  });
  return { body, sig: signature(WA_BENCH.appSecret, body) };
}

const newWamid = () => `wamid.HBgM${randomBytes(24).toString("base64url")}`;
const unixNow = () => String(Math.floor(Date.now() / 1000));

/** One text message from `waId`. */
function signedText(waId: string, text: string) {
  return signed({
    contacts: [{ profile: { name: "Bench" }, wa_id: waId }],
    messages: [
      { from: waId, id: newWamid(), timestamp: unixNow(), type: "text", text: { body: text } },
    ],
  });
}

/** One "delivered" status of a reply to `waId` (as the stand-in sends them, pricing included). */
function signedStatus(waId: string) {
  const pricing = {
    billable: false,
    pricing_model: "PMP",
    category: "service",
    type: "free_customer_service",
  };
  return signed({
    statuses: [
      { id: newWamid(), status: "delivered", timestamp: unixNow(), recipient_id: waId, pricing },
    ],
  });
}

let phoneSeq = 0;
const nextPhone = () => `97798${String(10_000_000 + (phoneSeq++ % 80_000_000)).padStart(8, "0")}`;

async function webhookLoad(
  helper: Helper,
  url: string,
  route: WebhookRun["route"],
  messages: number,
  concurrency: number,
): Promise<WebhookRun> {
  const bodies = Array.from({ length: messages }, () =>
    route === "status" ? signedStatus(nextPhone()) : signedText(nextPhone(), "hi"),
  );
  const times: number[] = [];
  let non2xx = 0;
  let next = 0;
  const cpu0 = await cpuMs(helper);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < messages; i = next++) {
        const { body, sig } = bodies[i]!;
        const t0 = performance.now();
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": sig },
          body,
        });
        await res.arrayBuffer();
        times.push(performance.now() - t0);
        if (res.status !== 200) non2xx++;
      }
    }),
  );
  const cpu = (await cpuMs(helper)) - cpu0;
  return {
    route,
    messages,
    concurrency,
    cpuUsPerMessage: (cpu * 1000) / messages,
    latencyMs: summarize(times),
    non2xx,
  };
}

export interface Traffic {
  steps: number;
  redisCommands: number;
  redisByCommand: Record<string, number>;
  /** HTTP requests the product received (webhooks: the message, and WhatsApp's statuses). */
  httpIn: number;
  /** HTTP requests the product made (Bot API / Cloud API calls). */
  httpOut: number;
}

export interface StepChannel {
  channel: StepRun["channel"];
  /** The user's act; resolves when the reply reached the Bot API / Cloud API stand-in. */
  step(user: number): Promise<unknown>;
  /** Until the product has nothing more coming for the steps (WhatsApp: the statuses). */
  settled(): Promise<void>;
  /** HTTP requests so far: to the product, and from it. */
  http(): { in: number; out: number };
}

export function telegramChannel(emu: BotApiEmulator, firstId: number): StepChannel {
  return {
    channel: "telegram",
    async step(user) {
      const id = firstId + user;
      emu.users.upsert(id, { first_name: `Tg${id}` });
      // "hi" on WhatsApp is /start (src/whatsapp/update.ts: a greeting opens the menu).
      const sent = emu.sendText(id, "/start");
      return emu.waitForBotMessage(id, undefined, { afterId: sent.message_id, timeoutMs: 30_000 });
    },
    settled: async () => {},
    http: () => {
      const st = emu.stats();
      const calls = Object.values(st.methodCalls).reduce((a, b) => a + b, 0);
      return { in: st.webhookDeliveries, out: calls };
    },
  };
}

export function whatsappChannel(standIn: RunningStandIn, firstPhone: number): StepChannel {
  return {
    channel: "whatsapp",
    async step(user) {
      const waId = String(firstPhone + user);
      const wamid = await standIn.standIn.userSends({ waId, name: `Wa${waId}` }, "hi");
      return standIn.standIn.waitForMessage(waId, undefined, {
        afterWamid: wamid,
        timeoutMs: 30_000,
      });
    },
    settled: () => standIn.standIn.settled(),
    http: () => ({
      in: standIn.standIn.webhookDeliveries().length,
      out: standIn.standIn.sendCount() + standIn.standIn.readMarks().length,
    }),
  };
}

/** `users` steps at `perSecond`, each a different chat; returns the product's CPU and the times. */
export async function stepRound(
  helper: Helper,
  ch: StepChannel,
  users: number,
  perSecond: number,
  idleShare: number,
  profile?: string,
): Promise<StepRun & { last?: unknown }> {
  const gap = 1000 / perSecond;
  if (profile) await helper.call("profileStart");
  const sys0 = await systemMs(helper);
  const cpu0 = await cpuMs(helper);
  const start = performance.now();
  let last: unknown;
  const times = await Promise.all(
    Array.from({ length: users }, async (_, i) => {
      const ahead = start + i * gap - performance.now();
      if (ahead > 0) await sleep(ahead);
      const t0 = performance.now();
      last = await ch.step(i);
      return performance.now() - t0;
    }),
  );
  await ch.settled();
  const elapsed = performance.now() - start;
  const cpu = (await cpuMs(helper)) - cpu0;
  const sys = (await systemMs(helper)) - sys0;
  if (profile) await helper.call("profileStop", profile);
  return {
    channel: ch.channel,
    steps: users,
    perSecond,
    rawCpuUsPerStep: (cpu * 1000) / users,
    systemUsPerStep: (sys * 1000) / users,
    cpuUsPerStep: ((cpu - idleShare * elapsed) * 1000) / users,
    latencyMs: summarize(times),
    last,
  };
}

export async function runWhatsApp(): Promise<WhatsAppOut> {
  const rounds = intEnv("BENCH_WA_ROUNDS", 3);
  const messages = intEnv("BENCH_WA_WEBHOOK_MESSAGES", 3000);
  const concurrency = intEnv("BENCH_WA_CONCURRENCY", 8);
  const users = intEnv("BENCH_WA_USERS", 200);
  const perSecond = intEnv("BENCH_WA_STEPS_PER_SECOND", 40);
  const prefix = benchPrefix("whatsapp");
  const emu = await startEmulator();
  const standIn = await startWhatsAppStandInServer({
    appSecret: WA_BENCH.appSecret,
    accessToken: WA_BENCH.accessToken,
    phoneNumberId: WA_BENCH.phoneNumberId,
    verifyToken: WA_BENCH.verifyToken,
    displayPhoneNumber: WA_BENCH.displayPhoneNumber,
  });
  let helper: Helper | undefined;
  try {
    helper = await startHelper(SERVER, {
      BENCH_PREFIX: prefix,
      BENCH_PORT: String(await freePort()),
      BENCH_EMULATOR_ROOT: emu.root,
      BENCH_GRAPH_ROOT: standIn.graphRoot,
    });
    const info = await helper.call<{ url: string; benchUrl: string; whatsappPath: string }>("info");
    standIn.standIn.setWebhookUrl(`${info.url}${info.whatsappPath}`);

    // 1. The webhook against its floor, alternating; a first pass of each warms the JIT.
    const url = (r: WebhookRun["route"]) =>
      r === "status"
        ? `${info.url}${info.whatsappPath}`
        : `${info.benchUrl}${r === "floor" ? "/bench/wa-floor" : "/bench/wa-webhook"}`;
    const routes = ["floor", "product", "status"] as const;
    for (const r of routes)
      await webhookLoad(helper, url(r), r, Math.min(1000, messages), concurrency);
    const webhook: WebhookRun[] = [];
    for (let i = 0; i < rounds; i++)
      for (const r of routes)
        webhook.push(await webhookLoad(helper, url(r), r, messages, concurrency));

    // 2. The chat step on both channels. Each user says "hi" once untimed (first contact: the
    // WhatsApp phone is registered, sessions are made), then once per round.
    const tg = telegramChannel(emu.emulator, 7_400_001);
    const wa = whatsappChannel(standIn, 9_779_850_000_001);
    const firstReplies = { telegram: "", whatsapp: "" };
    for (const ch of [tg, wa]) {
      const r = await stepRound(helper, ch, users, perSecond, 0);
      firstReplies[ch.channel] = textOf(r.last);
    }
    await sleep(1_000);
    const idle0 = await cpuMs(helper);
    const idleStart = performance.now();
    await sleep(2_000);
    const idleShare = ((await cpuMs(helper)) - idle0) / (performance.now() - idleStart);
    const steps: StepRun[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const ch of [tg, wa]) {
        const name = `whatsapp-step-${ch.channel}`;
        const profile = i === rounds - 1 && profileWanted(name) ? name : undefined;
        const { last: _, ...run } = await stepRound(
          helper,
          ch,
          users,
          perSecond,
          idleShare,
          profile,
        );
        steps.push(run);
        // WhatsApp's per-chat pacing refills at 1/s: each chat is used once per round.
        await sleep(500);
      }
    }
    const perStep = {} as WhatsAppOut["perStep"];
    for (const ch of [tg, wa])
      perStep[ch.channel] = await countedRound(helper, ch, users, perSecond);

    // Growth: `users` more chats make their first contact (untimed), then a round over all 2x.
    const doubled = {} as WhatsAppOut["growth"]["doubled"];
    for (const ch of [tg, wa]) {
      await stepRound(helper, { ...ch, step: (i) => ch.step(users + i) }, users, perSecond, 0);
      await sleep(1_000);
      const { last: _, ...run } = await stepRound(helper, ch, 2 * users, perSecond, idleShare);
      doubled[ch.channel] = run;
      await sleep(500);
    }
    const conversationBytes = await midFlowBytes(prefix, emu.emulator, standIn);
    return {
      webhook,
      steps,
      perStep,
      idleCpuUsPerSecond: idleShare * 1_000_000,
      step: '"hi" (Telegram: /start) -> the menu, each step a different chat that has said it before',
      firstReplies,
      growth: { users, doubled },
      conversationBytes,
      repliesPerChat: {
        telegram: emu.emulator.chat(7_400_001).filter((m) => m.from === "bot").length,
        whatsapp: standIn.standIn.messagesTo("9779850000001").length,
      },
    };
  } finally {
    await helper?.close();
    await standIn.close();
    await emu.close();
    await deleteKeys(prefix);
  }
}

/** One more round with the product counting its Redis commands, and the HTTP calls both ways. */
async function countedRound(
  helper: Helper,
  ch: StepChannel,
  users: number,
  perSecond: number,
): Promise<Traffic> {
  await sleep(1_000);
  const http0 = ch.http();
  await helper.call("countStart");
  await stepRound(helper, ch, users, perSecond, 0);
  const byCommand = await helper.call<Record<string, number>>("countStop");
  const http1 = ch.http();
  const per = (n: number) => n / users;
  return {
    steps: users,
    redisCommands: per(Object.values(byCommand).reduce((a, b) => a + b, 0)),
    redisByCommand: Object.fromEntries(
      Object.entries(byCommand)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, per(v)]),
    ),
    httpIn: per(http1.in - http0.in),
    httpOut: per(http1.out - http0.out),
  };
}

/**
 * Redis bytes per open conversation, mid-flow (BENCH_WA_BYTES_CHATS chats per channel): each walks
 * the mobile top-up to the amount question (Telegram: /recharge, Mobile, the number; WhatsApp:
 * "hi", the menu's Mobile top-up row, the number), then MEMORY USAGE of what that chat keeps:
 * its session, conversation and turn epoch on both; on WhatsApp also the chat store's keys (the
 * chat's hash, and per business message its wamid -> message id and its statuses); the inbound
 * queue's keys of the chat are shown apart, not counted.
 */
async function midFlowBytes(
  prefix: string,
  emu: BotApiEmulator,
  standIn: RunningStandIn,
): Promise<WhatsAppOut["conversationBytes"]> {
  const chats = intEnv("BENCH_WA_BYTES_CHATS", 20);
  const k = keyspace(prefix);
  const redis = connectRedis();
  const measure = async (keysOf: Array<Record<string, string[]>>): Promise<ConversationBytes> => {
    const totals: Array<{ total: number; keys: number; byKind: Record<string, number> }> = [];
    for (const kinds of keysOf) {
      const byKind: Record<string, number> = {};
      let keys = 0;
      for (const [kind, names] of Object.entries(kinds))
        for (const name of names) {
          const b = Number((await redis.call("MEMORY", "USAGE", name, "SAMPLES", "0")) ?? 0);
          if (b > 0) keys++;
          byKind[kind] = (byKind[kind] ?? 0) + b;
        }
      // The inbound queue's keys of the chat ("queue:…": its pending list, the seen marks of its
      // messages) are shown but not counted: the target names the conversation, the session and
      // the chat store's keys.
      const counted = Object.entries(byKind).filter(([kind]) => !kind.startsWith("queue:"));
      totals.push({ total: counted.reduce((a, [, b]) => a + b, 0), keys, byKind });
    }
    const biggest = totals.reduce((a, t) => (t.total > a.total ? t : a), totals[0]!);
    return {
      chats: totals.length,
      max: biggest.total,
      mean: totals.reduce((a, t) => a + t.total, 0) / totals.length,
      keysPerChat: biggest.keys,
      byKind: biggest.byKind,
    };
  };
  const common = (chat: string) => ({
    session: [`${k.sessionPrefix}${chat}`],
    conversation: [`${k.conversationPrefix}${chat}`],
    epoch: [epochKey(prefix, chat)],
  });
  try {
    const tgIds = Array.from({ length: chats }, (_, i) => 1_029_001 + i);
    await Promise.all(
      tgIds.map(async (id) => {
        emu.users.upsert(id, { first_name: `Mid${id}` });
        for (const step of MOBILE_FLOW.slice(0, 3)) {
          const afterId = emu.chat(id).at(-1)?.id ?? 0;
          step.act(emu, id);
          await emu.waitForBotMessage(id, step.expect, { afterId, timeoutMs: 30_000 });
        }
      }),
    );
    const phones = Array.from({ length: chats }, (_, i) => String(9_779_860_000_001 + i));
    const inbound = new Map<string, string[]>();
    await Promise.all(
      phones.map(async (waId) => {
        const w = standIn.standIn;
        const seen: string[] = [];
        inbound.set(waId, seen);
        const hi = await w.userSends({ waId, name: "Mid" }, "hi");
        seen.push(hi);
        const menu = await w.waitForMessage(waId, /Choose what you want to pay/, {
          afterWamid: hi,
          timeoutMs: 30_000,
        });
        const row = menu.buttons.find((b) => /Mobile top-up/.test(b.title));
        if (!row) throw new Error(`the WhatsApp menu has no Mobile top-up row: ${menu.text}`);
        const tap = await w.tap(waId, menu.wamid, row.id);
        seen.push(tap);
        await w.waitForMessage(waId, /Which mobile number/, { afterWamid: tap, timeoutMs: 30_000 });
        const wamid = await w.userSends({ waId, name: "Mid" }, `984${waId.slice(-7)}`);
        seen.push(wamid);
        await standIn.standIn.waitForMessage(waId, /How much\?/, {
          afterWamid: wamid,
          timeoutMs: 30_000,
        });
      }),
    );
    await standIn.standIn.settled();
    await sleep(500);
    const telegram = await measure(tgIds.map((id) => common(String(id))));
    const whatsapp = await measure(
      phones.map((waId) => {
        const chatId = chatIdOfWaId(waId)!;
        const sent = standIn.standIn.messagesTo(waId).map((m) => m.wamid);
        return {
          ...common(String(chatId)),
          chatStore: [k.waChat(chatId)],
          wamids: sent.map((w) => k.waWamid(w)),
          statuses: sent.map((w) => k.waStatus(w)),
          "queue:pending": [k.waPending(chatId)],
          "queue:seen": (inbound.get(waId) ?? []).map((w) => k.waSeen(w)),
        };
      }),
    );
    return { telegram, whatsapp };
  } finally {
    redis.disconnect();
  }
}

function textOf(m: unknown): string {
  const t = (m as { text?: unknown } | undefined)?.text;
  return typeof t === "string" ? t.slice(0, 120) : "";
}

childMain(import.meta.url, runWhatsApp);
