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
 *    buckets, members of one sorted set, checked and taken atomically). The caller's clock is
 *    passed in, so processes should be NTP-synchronised; a skew of a few ms only eats into the
 *    burst allowance.
 *
 * Two kinds of slot: a "push" (a new message: a final outcome, an admin alert) and an "edit" (a
 * receipt brought up to date). Pushes go first. Inside a process pushes and edits wait in two FIFO
 * lines and only the head of the push line, or of the edit line when no push waits, asks the
 * store, so sixteen waiters do not poll it sixteen times per slot. Across processes an edit may only
 * take a global slot while `pushReserve` slots of the burst stay free, so a push from any process
 * finds one at once while the edits of another process wait: edits get what pushes leave of the
 * budget, never more than the budget. A caller whose CHAT is not free leaves its line, sleeps until
 * its chat is, and takes its place in the line again, so one busy chat never holds up the others
 * and is not sent to the back of a long line each time. A granted slot comes with the buckets'
 * timestamps, and the process waits for what they tell before asking again (others only push them
 * later): a receipt edit and the push right after it (the chat's burst spent) ask once each
 * instead of being refused first.
 *
 * A hold (`hold`): Telegram's 429 asks for `retry_after` seconds without requests to it (more
 * prolong the flood wait), and the wait is the bot's, not one process's. The hold is written into
 * the store ("not before <time>", and the global timestamp pushed to it, never backwards), so
 * every process's pacer keeps it: an ask inside it is refused with SendsHeld, a 429 of its own
 * (its caller pauses as for Telegram's), instead of waiting minutes in the line.
 */

export const pacerLimitsSchema = z.object({
  /** Messages per second for the whole bot; Telegram: about 30. */
  globalPerSecond: z.number().positive().default(30),
  /** Messages that may go back to back after a quiet spell (keep it well under 30). */
  globalBurst: z.number().int().min(1).default(5),
  /** Messages per second into one chat; Telegram: about 1. */
  perChatPerSecond: z.number().positive().default(1),
  /** Back-to-back messages into one chat (the final push plus its receipt edit is 2). */
  perChatBurst: z.number().int().min(1).default(2),
  /**
   * Global slots of the burst an edit may not take: they are kept for pushes (at most
   * globalBurst - 1 apply; with a burst of 1 pushes come first only inside a process).
   */
  pushReserve: z.number().int().min(0).default(2),
});
export type PacerLimitsInput = z.input<typeof pacerLimitsSchema>;
type PacerLimits = z.output<typeof pacerLimitsSchema>;

/** A push is a new message that makes the phone buzz; an edit brings a message up to date. */
type SlotKind = "push" | "edit";

type TakeResult =
  /**
   * Taken. When the store tells, the buckets' theoretical arrival times after this slot (the
   * caller's clock): lower bounds for the next ask, since other processes only push them later.
   */
  | { ok: true; globalTat?: number; chatTat?: number }
  /**
   * Milliseconds until each bucket would have a slot (0: that one is free now); `heldUntil`: a
   * hold stands until then (the caller's clock).
   */
  | { ok: false; globalWaitMs: number; chatWaitMs: number; heldUntil?: number };

/** Where the buckets live. `take` checks both and takes a slot from both, or from neither. */
export interface PaceStore {
  take(chatId: number, now: number, limits: PacerLimits, kind?: SlotKind): Promise<TakeResult>;
  /** No slot before `until`: a later hold kept, an earlier one pushed to it. */
  hold(until: number, limits: PacerLimits): Promise<void>;
}

/**
 * Refused: sends are held (a 429's flood wait, this process's or another's) until `heldUntil`.
 * Shaped as the Bot API's 429 (error_code, parameters.retry_after), so callers treat it as one.
 */
export class SendsHeld extends Error {
  readonly error_code = 429;
  readonly description: string;
  readonly parameters: { retry_after: number };
  constructor(
    readonly heldUntil: number,
    now: number,
  ) {
    const s = Math.max(0, heldUntil - now) / 1000;
    super(`Too Many Requests: sends held ${Math.ceil(s)} s more (a 429's retry_after)`);
    this.name = "SendsHeld";
    this.description = this.message;
    this.parameters = { retry_after: s };
  }
}

interface AcquireOptions {
  /** Default "push". */
  kind?: SlotKind;
  /** Gives up waiting (acquire then rejects with the signal's reason); no slot is taken. */
  signal?: AbortSignal;
}

export interface SendPacer {
  /** Resolves when a message into `chatId` may be sent now; the slot is taken. */
  acquire(chatId: number, opts?: AcquireOptions): Promise<void>;
  /** No slot before `until` in any process sharing the store (acquire rejects with SendsHeld). */
  hold(until: number): Promise<void>;
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

const buckets = (l: PacerLimits, kind: SlotKind = "push") => {
  const interval = 1000 / l.globalPerSecond;
  const reserve = kind === "edit" ? Math.min(l.pushReserve, l.globalBurst - 1) : 0;
  return {
    global: { interval, tolerance: (l.globalBurst - 1 - reserve) * interval },
    chat: {
      interval: 1000 / l.perChatPerSecond,
      tolerance: (l.perChatBurst - 1) * (1000 / l.perChatPerSecond),
    },
  };
};

/** Milliseconds until `tat` allows a slot (0 when it does now). */
const waitFor = (tat: number, now: number, b: Bucket) =>
  Math.max(0, Math.max(tat, now) - now - b.tolerance);

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Waiter {
  /** Arrival order: a waiter back from waiting for its chat takes its old place in the line. */
  seq: number;
  chatId: number;
  kind: SlotKind;
  resolve: () => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
}

export function createSendPacer(opts: SendPacerOptions = {}): SendPacer {
  const limits = pacerLimitsSchema.parse(opts.limits ?? {});
  const store = opts.store ?? memoryPaceStore();
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const lines: Record<SlotKind, Waiter[]> = { push: [], edit: [] };
  let pumping = false;
  let arrivals = 0;
  /** Cuts short the pump's wait for an edit's slot when a push arrives. */
  let pushArrived: (() => void) | undefined;
  // What this process learnt from its own grants (lower bounds: other processes only add to them).
  let knownGlobalTat = 0;
  let knownHeldUntil = 0;
  const knownChatTat = new Map<number, number>();
  const learn = (chatId: number, r: { globalTat?: number; chatTat?: number }, t: number) => {
    if (r.globalTat !== undefined) knownGlobalTat = Math.max(knownGlobalTat, r.globalTat);
    if (r.chatTat === undefined || r.chatTat <= t) return;
    knownChatTat.set(chatId, r.chatTat);
    if (knownChatTat.size > 10_000)
      for (const [id, at] of knownChatTat) if (at <= t) knownChatTat.delete(id);
  };

  const leave = (w: Waiter) => {
    const line = lines[w.kind];
    const at = line.indexOf(w);
    if (at >= 0) line.splice(at, 1);
  };

  const join = (w: Waiter) => {
    if (w.signal?.aborted) {
      w.reject(w.signal.reason); // a second rejection of the same promise changes nothing
      return;
    }
    const line = lines[w.kind];
    // In arrival order (a newcomer goes last): with thousands of edits waiting under a long peak,
    // one back from its chat's wait must not queue behind all of them again.
    let at = line.length;
    while (at > 0 && (line[at - 1]?.seq ?? 0) > w.seq) at--;
    line.splice(at, 0, w);
    if (w.kind === "push") pushArrived?.();
    if (!pumping) void pump();
  };

  /** Serves the lines' heads one at a time, pushes first, until both lines are empty. */
  async function pump(): Promise<void> {
    pumping = true;
    try {
      for (;;) {
        const w = lines.push[0] ?? lines.edit[0];
        if (!w) return;
        if (w.signal?.aborted) {
          leave(w);
          w.reject(w.signal.reason);
          continue;
        }
        // What our own grants already tell: no ask that is sure to be refused. An edit's global
        // wait is still asked (its sleep must stay short enough for a push to cut in).
        const b = buckets(limits, w.kind);
        const t = now();
        if (knownHeldUntil > t) {
          leave(w);
          w.reject(new SendsHeld(knownHeldUntil, t));
          continue;
        }
        const known: TakeResult = {
          ok: false,
          globalWaitMs: w.kind === "push" ? waitFor(knownGlobalTat, t, b.global) : 0,
          chatWaitMs: waitFor(knownChatTat.get(w.chatId) ?? 0, t, b.chat),
        };
        let r: TakeResult = known;
        if (known.globalWaitMs === 0 && known.chatWaitMs === 0) {
          try {
            r = await store.take(w.chatId, t, limits, w.kind);
          } catch (err) {
            leave(w);
            w.reject(err);
            continue;
          }
        }
        if (!r.ok && r.heldUntil !== undefined && r.heldUntil > t) {
          knownHeldUntil = Math.max(knownHeldUntil, r.heldUntil);
          continue; // refused above, with the others waiting
        }
        if (r.ok) {
          learn(w.chatId, r, t);
          leave(w);
          w.resolve(); // given up meanwhile: that slot goes unused, harmless
          continue;
        }
        if (lines[w.kind][0] !== w) continue; // gave up while asking: nothing to wait for
        if (r.chatWaitMs > r.globalWaitMs) {
          // Its chat is the one to wait for: out of the line, back in its place when the chat is free.
          leave(w);
          void sleep(Math.max(1, r.chatWaitMs)).then(() => join(w));
          continue;
        }
        // The global bucket is the one to wait for: the head keeps its place. A push arriving
        // while an edit waits is served first (its slot is due sooner than the edit's), also one
        // that arrived while the edit was asking.
        if (w.kind === "edit" && lines.push.length > 0) continue;
        const wait = sleep(Math.max(1, r.globalWaitMs));
        if (w.kind === "edit") {
          await Promise.race([
            wait,
            new Promise<void>((resolve) => {
              pushArrived = resolve;
            }),
          ]);
          pushArrived = undefined;
        } else {
          await wait;
        }
      }
    } finally {
      pumping = false;
    }
  }

  return {
    limits,
    async hold(until) {
      if (until <= Math.max(knownHeldUntil, now())) return; // known already (learnt from the store)
      knownHeldUntil = until;
      await store.hold(until, limits);
    },
    acquire(chatId, { kind = "push", signal } = {}) {
      return new Promise<void>((resolve, reject) => {
        const w: Waiter = { seq: arrivals++, chatId, kind, resolve, reject, signal };
        if (signal) {
          // Out of the line at once, whether waiting in it or aside for its chat.
          const onAbort = () => {
            leave(w);
            reject(signal.reason);
          };
          signal.addEventListener("abort", onAbort, { once: true });
          w.resolve = () => {
            signal.removeEventListener("abort", onAbort);
            resolve();
          };
        }
        join(w);
      });
    },
  };
}

/** Buckets in this process's memory. Idle chats are forgotten (an empty bucket is no bucket). */
export function memoryPaceStore(): PaceStore {
  let globalTat = 0;
  let heldUntil = 0;
  const chats = new Map<number, number>();
  let lastSweep = 0;
  return {
    async hold(until, limits) {
      heldUntil = Math.max(heldUntil, until);
      globalTat = Math.max(globalTat, until + buckets(limits).global.tolerance);
    },
    async take(chatId, now, limits, kind) {
      const b = buckets(limits, kind);
      const chatTat = chats.get(chatId) ?? 0;
      const globalWaitMs = waitFor(globalTat, now, b.global);
      const chatWaitMs = waitFor(chatTat, now, b.chat);
      if (heldUntil > now) return { ok: false, globalWaitMs, chatWaitMs, heldUntil };
      if (globalWaitMs > 0 || chatWaitMs > 0) return { ok: false, globalWaitMs, chatWaitMs };
      globalTat = Math.max(globalTat, now) + b.global.interval;
      const tat = Math.max(chatTat, now) + b.chat.interval;
      chats.set(chatId, tat);
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        for (const [id, at] of chats) if (at < now) chats.delete(id);
      }
      return { ok: true, globalTat, chatTat: tat };
    },
  };
}

// KEYS: the buckets (a sorted set: member "g" the bot's, member <chat id> each chat's, scored by
// its theoretical arrival time). ARGV: now, global interval, global tolerance, chat interval,
// chat tolerance, chat id, sweep ('1': drop the buckets that ran empty). Member "h": a hold's end
// (`hold`: ZADD GT), refused until then with that time as a fourth answer. One read and one write
// for both buckets (two string keys cost 4 commands, as Redis counts a script's own: MGET and two
// SETs); a sorted set has no expiry per member, so each process sweeps the empty ones once a
// minute. Times are float milliseconds, written with string.format so they keep their fraction
// (Lua's default number format would round them to 14 digits). A grant returns the buckets' new
// timestamps.
const TAKE = `
local now = tonumber(ARGV[1])
local gi, gt, ci, ct = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local tats = redis.call('ZMSCORE', KEYS[1], 'g', ARGV[6], 'h')
local g = math.max(tonumber(tats[1] or '0') or 0, now)
local c = math.max(tonumber(tats[2] or '0') or 0, now)
local gw = math.max(0, g - now - gt)
local cw = math.max(0, c - now - ct)
local h = tonumber(tats[3] or '0') or 0
if h > now then
  return {0, string.format('%.3f', gw), string.format('%.3f', cw), string.format('%.3f', h)}
end
if gw > 0 or cw > 0 then return {0, string.format('%.3f', gw), string.format('%.3f', cw)} end
if ARGV[7] == '1' then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1]) end
local ng, nc = string.format('%.3f', g + gi), string.format('%.3f', c + ci)
redis.call('ZADD', KEYS[1], ng, 'g', nc, ARGV[6])
return {1, ng, nc}
`;

const paceTake = luaScript<"buckets", [number, string, string, string?]>(
  "raPaceTake",
  ["buckets"],
  TAKE,
);

/** How often a process drops the buckets that ran empty. */
const SWEEP_EVERY_MS = 60_000;

/** Buckets in Redis, shared by every process using the same prefix (REDIS_PREFIX). */
export function redisPaceStore(redis: RedisClient, prefix: string): PaceStore {
  const k = keyspace(prefix);
  // On the callers' clock (a benchmark's may run faster than real time).
  let lastSweep: number | undefined;
  return {
    async hold(until, limits) {
      // ZADD GT: each member only moves forward; the global one to where a push's slot is free
      // at `until` (the sends after it then come at the steady rate, no burst into Telegram).
      const g = until + buckets(limits).global.tolerance;
      await redis.zadd(k.paceBuckets, "GT", until.toFixed(3), "h", g.toFixed(3), "g");
    },
    async take(chatId, now, limits, kind) {
      const b = buckets(limits, kind);
      lastSweep ??= now;
      const sweep = now - lastSweep >= SWEEP_EVERY_MS;
      const [ok, gw, cw, held] = await paceTake.run(
        redis,
        { buckets: k.paceBuckets },
        now.toFixed(3),
        String(b.global.interval),
        String(b.global.tolerance),
        String(b.chat.interval),
        String(b.chat.tolerance),
        String(chatId),
        sweep ? "1" : "0",
      );
      if (ok !== 1) {
        const r = { ok: false as const, globalWaitMs: Number(gw), chatWaitMs: Number(cw) };
        return held === undefined ? r : { ...r, heldUntil: Number(held) };
      }
      if (sweep) lastSweep = now;
      return { ok: true, globalTat: Number(gw), chatTat: Number(cw) };
    },
  };
}
