/**
 * The Bot API client's abort signal on a call the WhatsApp router answers. boundedRetry
 * (src/telegram/api.ts) bounds every call by aborting it; the router must then give up as a fetch
 * would, or a push outlives the notifier's send lock and another instance sends it again.
 */

interface EventSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

const isEventSignal = (s: unknown): s is EventSignal =>
  typeof s === "object" &&
  s !== null &&
  typeof (s as EventSignal).addEventListener === "function" &&
  typeof (s as EventSignal).removeEventListener === "function";

/**
 * A Node AbortSignal that follows `given`: grammY on Node hands fetch the abort-controller
 * polyfill's signal, which Node's AbortSignal.any (the WhatsApp client's) does not take.
 * `release` stops following it once the call is over.
 */
export function followSignal(given: unknown): { signal: AbortSignal; release(): void } | undefined {
  if (given instanceof AbortSignal) return { signal: given, release() {} };
  if (!isEventSignal(given)) return undefined;
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  if (given.aborted) ctl.abort();
  else given.addEventListener("abort", onAbort);
  return { signal: ctl.signal, release: () => given.removeEventListener("abort", onAbort) };
}

/**
 * `work`, or a rejection as soon as `signal` aborts (work started goes on, its sends cut by the
 * same signal). The rejection carries no "never connected" code: the Bot API client reads it as a
 * lost answer (mayHaveArrived), as it reads a Telegram request that timed out, since a message may
 * have gone out before the cut.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, method: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(
        new Error(`WhatsApp: '${method}' given up by its caller; a message may have gone out`),
      );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
