import type { Channel } from "./channel.ts";

/**
 * What the notifier's parts share while it runs: whether it was stopped, and the pause a 429 asks
 * for, per channel (channel.ts). A 429 met by a push or by a receipt edit pauses that channel's
 * sends alike; the other channel's keep going (Telegram's flood wait is not WhatsApp's).
 */
export interface RunState {
  stopped: boolean;
  /**
   * A 429 in `channel`: paused for its retry_after in full (at most MAX_RETRY_AFTER_MS; 1 s when
   * it gave none), and the hold shared with the other instances (`share`). `heldUntil`: the hold
   * came from them (the pacer's SendsHeld): paused until then, not shared again.
   */
  rateLimited(channel: Channel, retryAfterMs: number | undefined, heldUntil?: number): void;
  /** Milliseconds of `channel`'s pause left (zero or less: not paused). */
  pauseLeft(channel: Channel): number;
}

/**
 * The longest retry_after honoured: Telegram's flood waits run to minutes, rarely more; a wild
 * value must not stop every push for a day.
 */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export function createRunState(
  now: () => number,
  share?: (channel: Channel, until: number) => void,
): RunState {
  const pausedUntil = new Map<Channel, number>();
  const pause = (channel: Channel, until: number) =>
    pausedUntil.set(channel, Math.max(pausedUntil.get(channel) ?? 0, until));
  return {
    stopped: true,
    rateLimited(channel, retryAfterMs, heldUntil) {
      if (heldUntil !== undefined) {
        pause(channel, Math.min(heldUntil, now() + MAX_RETRY_AFTER_MS));
        return;
      }
      const until = now() + Math.min(retryAfterMs ?? 1_000, MAX_RETRY_AFTER_MS);
      pause(channel, until);
      share?.(channel, until);
    },
    pauseLeft: (channel) => (pausedUntil.get(channel) ?? 0) - now(),
  };
}

/**
 * Writes a delivery's record (marker, lock release) through a Redis restart or failover: tried
 * again with back-off, up to about a minute, unless the notifier was stopped meanwhile.
 */
export async function persist(state: RunState, write: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (state.stopped || attempt >= 40) throw err;
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** attempt, 2_000)));
    }
  }
}
