/**
 * When the aggregator last answered, and the wallet figure it gave (`credit_available`): what
 * readiness and the float gauge read. Asking is bounded: one wallet call in flight at a time, waited
 * for at most `probeTimeoutMs` (the call itself keeps the client's own timeout and retries), and
 * not more often than the figure goes stale, so neither scrapes nor health checks add load.
 */
export interface ProviderWatch {
  /** An answer from elsewhere (an execute answer's wallet figure). */
  record(creditAvailablePaisa: number): void;
  /** True when the aggregator answered within `freshMs`, asking it now when the last answer is older. */
  answering(): Promise<boolean>;
  /** The last figure and when it came; undefined before the first answer. */
  last(): { creditAvailablePaisa: number; at: number } | undefined;
}

export function createProviderWatch(opts: {
  walletBalance: () => Promise<{ creditAvailablePaisa: number }>;
  now: () => number;
  /** An answer older than this is not "recent" (readiness) and is asked again. */
  freshMs?: number;
  probeTimeoutMs?: number;
}): ProviderWatch {
  const freshMs = opts.freshMs ?? 60_000;
  const probeTimeoutMs = opts.probeTimeoutMs ?? 5_000;
  let last: { creditAvailablePaisa: number; at: number } | undefined;
  let inFlight: Promise<void> | undefined;

  const fresh = () => last !== undefined && opts.now() - last.at <= freshMs;

  function probe(): Promise<void> {
    inFlight ??= opts
      .walletBalance()
      .then((w) => {
        last = { creditAvailablePaisa: w.creditAvailablePaisa, at: opts.now() };
      })
      .catch(() => {})
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  return {
    record(creditAvailablePaisa) {
      last = { creditAvailablePaisa, at: opts.now() };
    },
    async answering() {
      if (fresh()) return true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        probe(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, probeTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      return fresh();
    },
    last: () => last,
  };
}
