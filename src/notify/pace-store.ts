import { z } from "zod";

/**
 * The pacer's buckets (pacer.ts): the limits, the GCRA arithmetic, where the buckets live (a store:
 * this one in memory, redis-pace-store.ts shared in Redis), and the refusal a hold gives.
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
export type PacerLimits = z.output<typeof pacerLimitsSchema>;

/** A push is a new message that makes the phone buzz; an edit brings a message up to date. */
export type SlotKind = "push" | "edit";

export type TakeResult =
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

export interface Bucket {
  /** Milliseconds between slots. */
  interval: number;
  /** How far the theoretical arrival time may run ahead of now. */
  tolerance: number;
}

export const buckets = (l: PacerLimits, kind: SlotKind = "push") => {
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
export const waitFor = (tat: number, now: number, b: Bucket) =>
  Math.max(0, Math.max(tat, now) - now - b.tolerance);

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
