/**
 * What the notifier's parts share while it runs: whether it was stopped, and the pause a 429 asks
 * for. A 429 met by a push or by a receipt edit pauses the reading of new work alike.
 */
export interface RunState {
  stopped: boolean;
  /** Pauses until at least `ms` from now (a longer pause already asked for stays). */
  pauseFor(ms: number): void;
  /** Milliseconds of pause left (zero or less: not paused). */
  pauseLeft(): number;
}

export function createRunState(now: () => number): RunState {
  let pausedUntil = 0;
  return {
    stopped: true,
    pauseFor(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
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
