import { type Api, GrammyError, HttpError, type Transformer } from "grammy";
import type { BotApiPolicy } from "./policy.ts";

// The policy's numbers live below config (src/telegram/policy.ts); re-exported for the bot's callers.
export {
  type BotApiPolicy,
  botApiCallBoundMs,
  DEFAULT_BOT_API_POLICY,
  minSendLockMs,
} from "./policy.ts";

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("Request aborted while waiting between retries"));
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error("Request aborted while waiting between retries"));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** getUpdates holds the request open for its long-poll timeout; the per-attempt limit comes on top. */
function attemptTimeoutMs(p: BotApiPolicy, method: string, payload: unknown): number {
  if (method !== "getUpdates") return p.timeoutMs;
  const poll = (payload as { timeout?: unknown } | undefined)?.timeout;
  return (typeof poll === "number" ? poll * 1000 : 0) + p.timeoutMs;
}

/**
 * Calls made with this signal are sent at most once: Telegram has no idempotency key for
 * sendMessage, so a request whose answer was lost (timeout after it went out, connection reset,
 * 5xx) may have been carried out, and sending it again would show the message twice. Such a call
 * is not repeated here: the error goes to the caller (`mayHaveArrived` tells it so), which decides
 * (the notifier edits the receipt instead, or sends again and counts a possible duplicate). A
 * request that certainly never reached the Bot API (no connection made) and a 429 are still retried.
 */
const sendOnceSignals = new WeakSet<object>();
/** The signal type grammY's methods take (typed after the abort-controller polyfill). */
export type ApiSignal = NonNullable<Parameters<Api["sendMessage"]>[3]>;
export function sendOnceSignal(): ApiSignal {
  const signal = new AbortController().signal;
  sendOnceSignals.add(signal);
  return signal as unknown as ApiSignal;
}

/** Errors of a connection that was never made: the request did not reach the server. */
export const NEVER_CONNECTED: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function neverReached(err: HttpError): boolean {
  const cause = err.error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = cause?.code ?? cause?.cause?.code;
  return typeof code === "string" && NEVER_CONNECTED.has(code);
}

/**
 * How a Bot API server of our own (the WhatsApp router) begins the description of a 5xx when it
 * knows nothing was sent (the message never left, or its send was refused before it went out):
 * tried again like any 5xx, but not a lost answer. Telegram's own 5xx never carry it.
 */
export const NOT_SENT_PREFIX = "Not sent: ";

/**
 * Whether a failed call may nevertheless have been carried out by Telegram: its answer was lost
 * (timeout, reset, unreadable) or was a 5xx. A 4xx (429 included), a connection never made and a
 * 5xx that says it sent nothing (NOT_SENT_PREFIX) mean it was not.
 */
export function mayHaveArrived(err: unknown): boolean {
  if (err instanceof GrammyError)
    return err.error_code >= 500 && !err.description.startsWith(NOT_SENT_PREFIX);
  if (err instanceof HttpError) return !neverReached(err);
  return false;
}

/**
 * An API transformer that bounds every call (see BotApiPolicy) and reports every answer from the
 * Bot API (`onAnswer`, any status: Telegram was reachable). Install it in place of auto-retry.
 */
export function boundedRetry(
  policy: BotApiPolicy,
  opts: { onAnswer?: () => void } = {},
): Transformer {
  const backoff = (attempt: number) => Math.min(policy.maxDelayMs, 500 * 2 ** (attempt - 1));
  return async (prev, method, payload, grammySignal) => {
    // grammY types its signal with the abort-controller polyfill's types; at run time it is Node's.
    const signal = grammySignal as unknown as AbortSignal | undefined;
    const once = signal !== undefined && sendOnceSignals.has(signal);
    type PrevSignal = Parameters<typeof prev>[2];
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= policy.attempts;
      const limitMs = attemptTimeoutMs(policy, method, payload);
      // By hand: the caller's signal may be the abort-controller polyfill (runner), which
      // AbortSignal.any does not follow.
      const attemptAbort = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attemptAbort.abort();
      }, limitMs);
      const onAbort = () => attemptAbort.abort();
      signal?.addEventListener("abort", onAbort);
      let res: Awaited<ReturnType<typeof prev>>;
      try {
        res = await prev(method, payload, attemptAbort.signal as unknown as PrevSignal);
      } catch (err) {
        if (signal?.aborted || !(err instanceof HttpError)) throw err;
        const lost = once && !neverReached(err);
        if (last || lost) {
          const note = `attempt ${attempt} of ${policy.attempts}${lost ? "; not repeated: it may have arrived" : ""}`;
          throw timedOut
            ? new HttpError(
                `Network request for '${method}' timed out after ${limitMs} ms (${note})`,
                err.error,
              )
            : new HttpError(`${err.message} (${note})`, err.error);
        }
        await pause(backoff(attempt), signal);
        continue;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
      opts.onAnswer?.();
      if (res.ok || last) return res;
      const retryAfter = res.parameters?.retry_after;
      if (typeof retryAfter === "number") {
        if (retryAfter * 1000 > policy.maxDelayMs) return res;
        await pause(retryAfter * 1000, signal);
        continue;
      }
      if (res.error_code >= 500 && !once) {
        await pause(backoff(attempt), signal);
        continue;
      }
      return res;
    }
  };
}

/**
 * When the Bot API last answered. /healthz reports it; a background probe keeps it fresh while the
 * bot is idle (webhook mode makes no calls without traffic).
 */
export function createTelegramContact(now: () => number = Date.now) {
  let lastAnswerAt: number | undefined;
  return {
    seen: () => {
      lastAnswerAt = now();
    },
    lastAnswerAt: () => lastAnswerAt,
    /** True when the Bot API answered within the last `ms`. */
    recent: (ms: number) => lastAnswerAt !== undefined && now() - lastAnswerAt <= ms,
  };
}
export type TelegramContact = ReturnType<typeof createTelegramContact>;
