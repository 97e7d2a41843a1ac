/**
 * What the notifier's parts share while it runs: whether it was stopped, and the pause a 429 asks
 * for. A 429 met by a push or by a receipt edit pauses the reading of new work alike.
 */
export interface RunState {
  stopped: boolean;
  /**
   * A 429: paused for its retry_after in full (at most MAX_RETRY_AFTER_MS; 1 s when it gave
   * none), and the hold shared with the other instances (`share`). `heldUntil`: the hold came
   * from them (the pacer's SendsHeld): paused until then, not shared again.
   */
  rateLimited(retryAfterMs: number | undefined, heldUntil?: number): void;
  /** Milliseconds of pause left (zero or less: not paused). */
  pauseLeft(): number;
}

/**
 * The longest retry_after honoured: Telegram's flood waits run to minutes, rarely more; a wild
 * value must not stop every push for a day.
 */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export function createRunState(now: () => number, share?: (until: number) => void): RunState {
  let pausedUntil = 0;
  return {
    stopped: true,
    rateLimited(retryAfterMs, heldUntil) {
      if (heldUntil !== undefined) {
        pausedUntil = Math.max(pausedUntil, Math.min(heldUntil, now() + MAX_RETRY_AFTER_MS));
        return;
      }
      const until = now() + Math.min(retryAfterMs ?? 1_000, MAX_RETRY_AFTER_MS);
      pausedUntil = Math.max(pausedUntil, until);
      share?.(until);
    },
    pauseLeft: () => pausedUntil - now(),
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
