import type { ApiFailure } from "./api-errors.ts";

/**
 * Whether a failed delivery says nothing about the message itself: the network, a timeout,
 * Telegram's servers (5xx) or its rate limit (429), our Redis. Such a failure is retried for as
 * long as the notifier's retryForMs (hours): an outage must not use up a push's tries. A 4xx
 * other than 429 (the Bot API refused this message) and a bug its data triggers (TypeError and
 * the like, a schema's refusal) are about the message: a few tries, then a dead letter.
 * The hours are for failures that sent nothing: a push whose failure may have reached the chat
 * (a lost answer, a 5xx after the request left) is also bounded by its count of such sends on
 * the sending lock's record (push.ts), each retry being one more copy in the chat.
 */
export function isPassing(err: unknown, failure: ApiFailure): boolean {
  const { code } = failure;
  if (code !== undefined) return code >= 500 || code === 429;
  return !(
    err instanceof TypeError ||
    err instanceof RangeError ||
    err instanceof ReferenceError ||
    err instanceof SyntaxError ||
    (err instanceof Error && err.name === "ZodError")
  );
}

/** The wait after the first send of a push that may have arrived, before it is sent again. */
export const RESEND_FIRST_MS = 60_000;
/** The longest wait between two such sends. */
export const RESEND_MAX_MS = 3_600_000;

/**
 * How long after its `sends`-th send that may have arrived (a lost answer, a 5xx) a push without a
 * receipt to carry it is sent again: doubling from a minute, capped at an hour, so its 8 sends
 * span about two hours (1, 3, 7, 15, 31, 63 and 123 minutes after the first). Resent at every
 * reclaim (30 s), a Telegram outage of four minutes used them all up and dead-lettered the push,
 * admin alerts included; spread out, an outage of up to two hours delivers it once Telegram is
 * back, with no more copies than before.
 */
export function resendDelayMs(sends: number): number {
  return Math.min(RESEND_MAX_MS, RESEND_FIRST_MS * 2 ** Math.max(0, sends - 1));
}

/**
 * Whether a push whose lost send's record asks for `retryAt` still waits at `now`. The time is on
 * the clock of the instance that wrote it, read on this one's: a time more than RESEND_MAX_MS
 * ahead was not asked for by a clock like ours (no wait is longer) and is taken as due now, so a
 * writer whose clock runs far ahead cannot hold everyone's resend back until the age bound (a skew
 * under an hour still delays the resend by the skew).
 */
export function backingOff(retryAt: number | undefined, now: number): boolean {
  return retryAt !== undefined && retryAt > now && retryAt - now <= RESEND_MAX_MS;
}
