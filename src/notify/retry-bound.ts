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
