import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * Proactive pacing of the notifier's Bot API calls, so Telegram never has to answer 429.
 *
 * Telegram asks bots to stay under about 30 messages per second overall and about 1 per second in
 * one chat (edits count like messages). Reacting to 429 is too late: by then Telegram has refused
 * the call and may make the bot wait for long. The pacer takes a slot BEFORE every send or edit,
 * from two buckets at once: the bot's global one and the chat's own. The buckets are GCRA
 * ("theoretical arrival time") buckets: one timestamp per bucket, a slot is free when the timestamp
 * is at most `(burst - 1) / rate` ahead of now.
 *
 * Where the buckets live decides who shares them:
 *  - memoryPaceStore(): one process; several processes would each take the whole budget;
 *  - redisPaceStore(): every process of the bot shares one budget (one Lua script per slot, both
 *    buckets checked and taken atomically). The caller's clock is passed in, so processes should be
 *    NTP-synchronised; a skew of a few ms only eats into the burst allowance.
 *
 * Inside a process, callers wait in one FIFO line: only the head asks the store, so sixteen workers
 * waiting for the global bucket do not poll it sixteen times per slot. A caller whose CHAT is not
 * free leaves the line, sleeps until its chat is, and queues again, so one busy chat never holds up
 * the others. A granted slot comes with when each bucket frees its next one, and the process waits
 * for those before asking again: a receipt edit and the push right after it (the chat's burst
 * spent) ask once each instead of being refused first (three Redis commands per refusal).
 */

export const pacerLimitsSchema = z.object({
  /** Messages per second for the whole bot; Telegram: about 30. */
  globalPerSecond: z.number().positive().default(30),
  /** Messages that may go back to back after a quiet spell (keep it well under 30). */
  globalBurst: z.number().int().min(1).default(5),
  /** Messages per second into one chat; Telegram: about 1. */
  perChatPerSecond: z.number().positive().default(1),
  /** Back-to-back messages into one chat (a receipt edit plus the final push is 2). */
  perChatBurst: z.number().int().min(1).default(2),
});
export type PacerLimitsInput = z.input<typeof pacerLimitsSchema>;
export type PacerLimits = z.output<typeof pacerLimitsSchema>;

export type TakeResult =
  /**
   * Taken. When the store tells, the earliest times (the caller's clock) each bucket could give
   * its next slot: others may only push them later, so waiting for them never waits too long.
   */
  | { ok: true; globalFreeAt?: number; chatFreeAt?: number }
  /** Milliseconds until each bucket would have a slot (0: that one is free now). */
  | { ok: false; globalWaitMs: number; chatWaitMs: number };

/** Where the buckets live. `take` checks both and takes a slot from both, or from neither. */
export interface PaceStore {
  take(chatId: number, now: number, limits: PacerLimits): Promise<TakeResult>;
}

export interface SendPacer {
  /** Resolves when a message into `chatId` may be sent now; the slot is taken. */
  acquire(chatId: number): Promise<void>;
  readonly limits: PacerLimits;
}

export interface SendPacerOptions {
  store?: PaceStore;
  limits?: PacerLimitsInput;
  now?: () => number;
  /** How to wait; a test or benchmark with its own clock passes one that matches it. */
  sleep?: (ms: number) => Promise<void>;
}

interface Bucket {
  /** Milliseconds between slots. */
  interval: number;
  /** How far the theoretical arrival time may run ahead of now. */
  tolerance: number;
}

const buckets = (l: PacerLimits) => ({
  global: {
    interval: 1000 / l.globalPerSecond,
    tolerance: (l.globalBurst - 1) * (1000 / l.globalPerSecond),
  },
  chat: {
    interval: 1000 / l.perChatPerSecond,
    tolerance: (l.perChatBurst - 1) * (1000 / l.perChatPerSecond),
  },
});

/** Milliseconds until `tat` allows a slot (0 when it does now). */
const waitFor = (tat: number, now: number, b: Bucket) =>
  Math.max(0, Math.max(tat, now) - now - b.tolerance);

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createSendPacer(opts: SendPacerOptions = {}): SendPacer {
  const limits = pacerLimitsSchema.parse(opts.limits ?? {});
  const store = opts.store ?? memoryPaceStore();
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  let tail: Promise<void> = Promise.resolve();
  // What this process learnt from its own grants (lower bounds: other processes only add to them).
  let globalFreeAt = 0;
  const chatFreeAt = new Map<number, number>();
  const learn = (chatId: number, r: { globalFreeAt?: number; chatFreeAt?: number }, t: number) => {
    if (r.globalFreeAt !== undefined) globalFreeAt = Math.max(globalFreeAt, r.globalFreeAt);
    if (r.chatFreeAt === undefined || r.chatFreeAt <= t) return;
    chatFreeAt.set(chatId, r.chatFreeAt);
    if (chatFreeAt.size > 10_000)
      for (const [id, at] of chatFreeAt) if (at <= t) chatFreeAt.delete(id);
  };
  /** Sleeps until `at` on our clock, if it is ahead. */
  const until = async (at: number | undefined) => {
    const ms = (at ?? 0) - now();
    if (ms > 0) await sleep(ms);
  };

  /** Joins the FIFO line; resolves with the function that lets the next caller ask. */
  const enterLine = (): Promise<() => void> => {
    let leave!: () => void;
    const mine = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const ahead = tail;
    tail = ahead.then(() => mine);
    return ahead.then(() => leave);
  };

  return {
    limits,
    async acquire(chatId) {
      for (;;) {
        await until(chatFreeAt.get(chatId));
        chatFreeAt.delete(chatId);
        const leave = await enterLine();
        let chatWaitMs = 0;
        try {
          for (;;) {
            await until(globalFreeAt);
            const t = now();
            const r = await store.take(chatId, t, limits);
            if (r.ok) {
              learn(chatId, r, t);
              return;
            }
            if (r.chatWaitMs > r.globalWaitMs) {
              chatWaitMs = r.chatWaitMs;
              break;
            }
            // The global bucket is the one to wait for: keep our place at the head of the line.
            await sleep(Math.max(1, r.globalWaitMs));
          }
        } finally {
          leave();
        }
        await sleep(Math.max(1, chatWaitMs));
      }
    },
  };
}

/** Buckets in this process's memory. Idle chats are forgotten (an empty bucket is no bucket). */
export function memoryPaceStore(): PaceStore {
  let globalTat = 0;
  const chats = new Map<number, number>();
  let lastSweep = 0;
  return {
    async take(chatId, now, limits) {
      const b = buckets(limits);
      const chatTat = chats.get(chatId) ?? 0;
      const globalWaitMs = waitFor(globalTat, now, b.global);
      const chatWaitMs = waitFor(chatTat, now, b.chat);
      if (globalWaitMs > 0 || chatWaitMs > 0) return { ok: false, globalWaitMs, chatWaitMs };
      globalTat = Math.max(globalTat, now) + b.global.interval;
      const tat = Math.max(chatTat, now) + b.chat.interval;
      chats.set(chatId, tat);
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        for (const [id, tat] of chats) if (tat < now) chats.delete(id);
      }
      return {
        ok: true,
        globalFreeAt: globalTat - b.global.tolerance,
        chatFreeAt: tat - b.chat.tolerance,
      };
    },
  };
}

// KEYS: global bucket, chat bucket. ARGV: now, global interval, global tolerance, chat interval,
// chat tolerance. Times are float milliseconds, written with string.format so they keep their
// fraction (Lua's default number format would round them to 14 digits). A grant returns when each
// bucket frees its next slot.
const TAKE = `
local now = tonumber(ARGV[1])
local gi, gt, ci, ct = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local tats = redis.call('MGET', KEYS[1], KEYS[2])
local g = math.max(tonumber(tats[1] or '0'), now)
local c = math.max(tonumber(tats[2] or '0'), now)
local gw = math.max(0, g - now - gt)
local cw = math.max(0, c - now - ct)
if gw > 0 or cw > 0 then return {0, string.format('%.3f', gw), string.format('%.3f', cw)} end
redis.call('SET', KEYS[1], string.format('%.3f', g + gi), 'PX', math.ceil(g + gi - now) + 1000)
redis.call('SET', KEYS[2], string.format('%.3f', c + ci), 'PX', math.ceil(c + ci - now) + 1000)
return {1, string.format('%.3f', g + gi - gt), string.format('%.3f', c + ci - ct)}
`;

const paceTake = luaScript<"global" | "chat", [number, string, string]>(
  "raPaceTake",
  ["global", "chat"],
  TAKE,
);

/** Buckets in Redis, shared by every process using the same prefix (REDIS_PREFIX). */
export function redisPaceStore(redis: RedisClient, prefix: string): PaceStore {
  const k = keyspace(prefix);
  return {
    async take(chatId, now, limits) {
      const b = buckets(limits);
      const [ok, gw, cw] = await paceTake.run(
        redis,
        { global: k.paceGlobal, chat: k.paceChat(chatId) },
        now.toFixed(3),
        String(b.global.interval),
        String(b.global.tolerance),
        String(b.chat.interval),
        String(b.chat.tolerance),
      );
      return ok === 1
        ? { ok: true, globalFreeAt: Number(gw), chatFreeAt: Number(cw) }
        : { ok: false, globalWaitMs: Number(gw), chatWaitMs: Number(cw) };
    },
  };
}
