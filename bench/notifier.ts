import { Api } from "grammy";
import type { Redis } from "ioredis";
import {
  type RecordedCall,
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../dev/playground/emulator/index.ts";
import type { BotContext } from "../src/bot/context.ts";
import { createI18n, DEFAULT_LOCALE } from "../src/bot/i18n.ts";
import { notificationRender } from "../src/bot/notification-render.ts";
import { createNotifier } from "../src/notify/notifier.ts";
import type { PacerLimitsInput } from "../src/notify/pace-store.ts";
import { createSendPacer } from "../src/notify/pacer.ts";
import { redisPaceStore } from "../src/notify/redis-pace-store.ts";
import { createRedisNotificationQueue } from "../src/notify/redis-queue.ts";
import type { Notification } from "../src/orders/model.ts";
import { createRedisOrderStore } from "../src/orders/redis-store.ts";
import { createNotifierApi } from "../test/support/notify.ts";
import { childMain } from "./lib/child.ts";
import { type BenchClock, scaledClock } from "./lib/clock.ts";
import { intEnv } from "./lib/env.ts";
import { benchOrder, benchReference } from "./lib/orders.ts";
import { profiled } from "./lib/profiler.ts";
import { benchPrefix, connectRedis, deleteKeys } from "./lib/redis.ts";

/**
 * Notifier: N queued status pushes drained by the product's notifier (Redis Streams queue, Redis
 * order store, the bot's Fluent texts, grammY Api with auto-retry over loopback HTTP) into the Bot
 * API emulator enforcing Telegram's limits (30 messages/s overall, 1/s per chat with a burst of 3,
 * edits counted like messages, 429 + retry_after beyond). Two notifier instances (two consumers,
 * two Redis connections: two processes as far as Redis can tell) share one pacing budget through
 * redisPaceStore.
 *
 * Every push is exactly one Bot API message, so N pushes take N/30 s at the limit: 70% are final
 * outcomes of orders without a receipt (one sendMessage), 30% are "pending" edits of an order's
 * receipt (one editMessageText). 10% of the pushes go to ten busy chats (agents recharging for
 * their customers, 1 message/s each at most), the rest to ordinary chats with three each, all
 * shuffled.
 *
 * Time: the emulator, the notifier, its pacer and the order store share one clock running
 * BENCH_NOTIFY_SPEED times faster than real time (default 5; 1 = real time, 10,000 pushes then
 * take 5.5 minutes). See lib/clock.ts for why the figure keeps its meaning. Baselines in the same
 * run: a bare loop sending at exactly the limit on the same emulator and clock (the best a sender
 * can do here), and, at real time, the notifier with pacing off (reacting to 429 only, as before).
 */

const TOKEN = "7000000002:bench-notifier";
const LIMIT_PER_SECOND = 30;
const BUSY_CHATS = 10;

interface Push {
  index: number;
  chatId: number;
  kind: "send" | "edit";
  receiptId?: number;
}

/** A seeded shuffle, so every run queues the same mix in the same order. */
function shuffle<T>(items: T[], seed = 42): T[] {
  let s = seed;
  const rand = () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** The rate of accepted messages in clock time, and its worst windows. */
function rateOf(calls: RecordedCall[], windowMs = 10_000) {
  const times = calls
    .filter((c) => c.ok && (c.method === "sendMessage" || c.method === "editMessageText"))
    .map((c) => c.at)
    .sort((a, b) => a - b);
  const first = times[0] ?? 0;
  const last = times.at(-1) ?? 0;
  const perSecond = times.length > 1 ? ((times.length - 1) / (last - first)) * 1000 : Number.NaN;
  // Sliding windows over whole windowMs spans: the busiest and the quietest stretch.
  let maxWindow = 0;
  let minWindow = Number.POSITIVE_INFINITY;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[j]! < times[i]! - windowMs) j++;
    const count = i - j + 1;
    if (times[i]! - first >= windowMs) {
      maxWindow = Math.max(maxWindow, count);
      minWindow = Math.min(minWindow, count);
    }
  }
  // Messages per 5 s of clock time, from the first message on (to see where the rate dips).
  const timeline: number[] = [];
  for (const t of times) {
    const slot = Math.floor((t - first) / 5000);
    timeline[slot] = (timeline[slot] ?? 0) + 1;
  }
  return {
    messages: times.length,
    seconds: (last - first) / 1000,
    timeline: Array.from(timeline, (v) => v ?? 0),
    perSecond,
    busiest10s: maxWindow / (windowMs / 1000),
    quietest10s: Number.isFinite(minWindow) ? minWindow / (windowMs / 1000) : Number.NaN,
  };
}

async function setupPushes(
  em: RunningEmulator,
  redis: Redis,
  prefix: string,
  count: number,
  clock: BenchClock,
  firstChat: number,
): Promise<{ pushes: Push[]; queued: Notification[] }> {
  const emulator = em.emulator;
  const busy = Math.round(count * 0.1);
  const ordinaryChats = Math.ceil((count - busy) / 3);
  const pushes: Push[] = [];
  for (let i = 0; i < count; i++) {
    const chatId =
      i < busy
        ? firstChat + (i % BUSY_CHATS)
        : firstChat + BUSY_CHATS + ((i - busy) % ordinaryChats);
    pushes.push({ index: i, chatId, kind: i % 10 < 3 ? "edit" : "send" });
  }
  for (const id of new Set(pushes.map((p) => p.chatId))) {
    emulator.users.upsert(id, { first_name: `U${id}`, started: true });
  }
  // Receipts for the edits, sent with the limits off (they are the bot's earlier messages).
  emulator.setLimits(false);
  for (const p of pushes) {
    if (p.kind !== "edit") continue;
    const res = await emulator.app.request(`/bot${TOKEN}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        chat_id: p.chatId,
        text: `Order ${benchReference(p.index)}: processing`,
      }),
    });
    const body = (await res.json()) as { ok: boolean; result: { message_id: number } };
    if (!body.ok) throw new Error("could not send a receipt");
    p.receiptId = body.result.message_id;
  }
  const store = createRedisOrderStore({ redis, prefix, now: clock.now });
  const at = Math.floor(clock.now());
  for (let i = 0; i < pushes.length; i += 500) {
    await Promise.all(
      pushes.slice(i, i + 500).map((p) =>
        store.create(
          benchOrder(
            p.index,
            p.kind === "edit" ? "pending" : p.index % 10 === 9 ? "failed" : "success",
            {
              chatId: p.chatId,
              at,
              ...(p.receiptId === undefined ? {} : { receiptMessageId: p.receiptId }),
            },
          ),
        ),
      ),
    );
  }
  const queued: Notification[] = shuffle([...pushes]).map((p) => ({
    kind: "status",
    reference: benchReference(p.index),
    status: p.kind === "edit" ? "pending" : p.index % 10 === 9 ? "failed" : "success",
    chatId: p.chatId,
    at,
  }));
  return { pushes, queued };
}

/** Every push delivered exactly once: one accepted send naming the order, or one accepted edit of its receipt. */
function verify(pushes: Push[], calls: RecordedCall[]) {
  const sends = new Map<string, number>();
  const edits = new Map<string, number>();
  for (const c of calls) {
    if (!c.ok) continue;
    if (c.method === "sendMessage") {
      const ref = /\b(1\d{14})\b/.exec(String(c.params.text))?.[1];
      if (ref) sends.set(ref, (sends.get(ref) ?? 0) + 1);
    } else if (c.method === "editMessageText") {
      const key = `${c.params.chat_id}:${c.params.message_id}`;
      edits.set(key, (edits.get(key) ?? 0) + 1);
    }
  }
  let lost = 0;
  let duplicated = 0;
  for (const p of pushes) {
    const n =
      p.kind === "send"
        ? (sends.get(benchReference(p.index)) ?? 0)
        : (edits.get(`${p.chatId}:${p.receiptId}`) ?? 0);
    if (n === 0) lost++;
    if (n > 1) duplicated += n - 1;
  }
  return { lost, duplicated };
}

async function drainWithNotifiers(opts: {
  count: number;
  clock: BenchClock;
  consumers: number;
  pacing: PacerLimitsInput | false;
  firstChat: number;
  name: string;
}) {
  const { clock, count } = opts;
  const prefix = benchPrefix(`notify-${opts.name}`);
  const em = await startBotApiEmulatorServer({
    token: TOKEN,
    limits: {},
    now: clock.now,
    callLogLimit: count * 2 + 10_000,
  });
  const connections: Redis[] = [];
  const connect = () => {
    const r = connectRedis();
    connections.push(r);
    return r;
  };
  try {
    const redis = connect();
    const { pushes, queued } = await setupPushes(em, redis, prefix, count, clock, opts.firstChat);
    const store = createRedisOrderStore({ redis, prefix, now: clock.now });
    const seedQueue = createRedisNotificationQueue({ redis, prefix });
    for (let i = 0; i < queued.length; i += 1000)
      await seedQueue.enqueue(queued.slice(i, i + 1000));
    em.emulator.setLimits({});
    const runStart = clock.now();

    const i18n = createI18n<BotContext>(() => DEFAULT_LOCALE);
    const notifiers = Array.from({ length: opts.consumers }, (_, k) => {
      const conn = connect();
      return createNotifier({
        queue: createRedisNotificationQueue({ redis: conn, prefix }),
        orders: createRedisOrderStore({ redis: conn, prefix, now: clock.now }),
        api: createNotifierApi(TOKEN, { apiRoot: em.apiRoot }),
        render: notificationRender(i18n),
        consumerName: `bench-${k}`,
        blockMs: 200,
        now: clock.now,
        sleep: clock.sleep,
        pacer:
          opts.pacing === false
            ? false
            : createSendPacer({
                store: redisPaceStore(conn, prefix),
                limits: opts.pacing,
                now: clock.now,
                sleep: clock.sleep,
              }),
      });
    });
    const startedAt = Date.now();
    const expectedRealMs = (count / LIMIT_PER_SECOND) * (1000 / clock.speed);
    await profiled(`notify-${opts.name}`, async () => {
      for (const n of notifiers) n.start();
      const deadline = startedAt + expectedRealMs * 3 + 30_000;
      for (;;) {
        const backlog = await seedQueue.backlog();
        if (backlog === 0) break;
        if (Date.now() > deadline) throw new Error(`notifier did not drain: ${backlog} left`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await Promise.all(notifiers.map((n) => n.stop()));
    });
    const realSeconds = (Date.now() - startedAt) / 1000;
    // The receipts sent during set-up (limits off) are not part of the run.
    const calls = em.emulator.calls().filter((c) => c.at >= runStart);
    const stats = em.emulator.stats();
    return {
      pushes: count,
      consumers: opts.consumers,
      clockSpeed: clock.speed,
      realSeconds,
      rate: rateOf(calls),
      tooManyRequests: stats.tooManyRequests,
      ...verify(pushes, calls),
      deadLetters: (await store.listUnmatched(1)).length + (await seedQueue.listDead(10)).length,
    };
  } finally {
    await em.close();
    for (const c of connections) c.disconnect();
    await deleteKeys(prefix);
  }
}

/** The baseline: one loop sending `count` messages at exactly the limit, to distinct chats. */
async function barePacedSender(count: number, clock: BenchClock) {
  const em = await startBotApiEmulatorServer({
    token: TOKEN,
    limits: {},
    now: clock.now,
    callLogLimit: count + 1000,
  });
  try {
    const chats = 500;
    for (let c = 0; c < chats; c++) em.emulator.users.upsert(9_000_000 + c, { first_name: "B" });
    const api = new Api(TOKEN, { apiRoot: em.apiRoot });
    const interval = 1000 / LIMIT_PER_SECOND;
    const t0 = clock.now();
    let refused = 0;
    for (let i = 0; i < count; i++) {
      const due = t0 + i * interval;
      const wait = due - clock.now();
      if (wait > 0) await clock.sleep(wait);
      await api.sendMessage(9_000_000 + (i % chats), `bare ${i}`).catch(() => refused++);
    }
    return {
      pushes: count,
      rate: rateOf(em.emulator.calls()),
      tooManyRequests: em.emulator.stats().tooManyRequests,
      refused,
    };
  } finally {
    await em.close();
  }
}

export async function runNotifierBench() {
  const count = intEnv("BENCH_NOTIFY_PUSHES", 10_000);
  const speed = intEnv("BENCH_NOTIFY_SPEED", 5);
  const consumers = intEnv("BENCH_NOTIFY_CONSUMERS", 2);
  const baselineCount = intEnv("BENCH_NOTIFY_BASELINE_PUSHES", 2_000);
  const beforeCount = intEnv("BENCH_NOTIFY_UNPACED_PUSHES", 600);
  const pacing: PacerLimitsInput = {
    globalPerSecond: LIMIT_PER_SECOND,
    globalBurst: 5,
    perChatPerSecond: 1,
    perChatBurst: 2,
  };

  const baseline = await barePacedSender(baselineCount, scaledClock(speed));
  console.error(
    `[notify] bare paced sender: ${baseline.rate.perSecond.toFixed(2)}/s, 429s ${baseline.tooManyRequests}`,
  );
  const paced = await drainWithNotifiers({
    count,
    clock: scaledClock(speed),
    consumers,
    pacing,
    firstChat: 100_000,
    name: "paced",
  });
  console.error(
    `[notify] notifier (paced): ${paced.rate.perSecond.toFixed(2)}/s, 429s ${paced.tooManyRequests}, lost ${paced.lost}, duplicated ${paced.duplicated}, ${paced.realSeconds.toFixed(0)} s real`,
  );
  const unpaced =
    beforeCount > 0
      ? await drainWithNotifiers({
          count: beforeCount,
          clock: scaledClock(1),
          consumers,
          pacing: false,
          firstChat: 500_000,
          name: "unpaced",
        })
      : undefined;
  if (unpaced) {
    console.error(
      `[notify] notifier (pacing off, real time): ${unpaced.rate.perSecond.toFixed(2)}/s, 429s ${unpaced.tooManyRequests}, lost ${unpaced.lost}, duplicated ${unpaced.duplicated}`,
    );
  }
  return { limitPerSecond: LIMIT_PER_SECOND, pacing, baseline, paced, unpaced };
}

childMain(import.meta.url, runNotifierBench);
