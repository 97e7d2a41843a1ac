/**
 * The Bot API call policy as numbers, below the configuration (which checks NOTIFY_LOCK_MS against
 * it) and the bot (which enforces it).
 *
 * How long any one Bot API call may take, retries included. @grammyjs/auto-retry retries network
 * errors forever with a back-off growing to an hour: with Telegram unreachable the start hung with
 * no log line and a sendMessage stayed pending for minutes, so a notifier's send lock could run out
 * under it and a second process send the same push when the network came back. Every call made
 * through bot.api or a ctx.api (commands, conversations, the notifier) goes through
 * `boundedRetry` (src/telegram/api.ts), so none can outlive `botApiCallBoundMs(policy)`.
 */
export interface BotApiPolicy {
  /** One attempt (one HTTP request) is aborted after this long. */
  timeoutMs: number;
  /** Attempts in all (1 = no retry). Network errors, timeouts, 5xx and 429 are retried. */
  attempts: number;
  /** Longest wait between attempts; a 429 asking for longer is returned to the caller at once. */
  maxDelayMs: number;
}

export const DEFAULT_BOT_API_POLICY: BotApiPolicy = {
  timeoutMs: 5_000,
  attempts: 3,
  maxDelayMs: 5_000,
};

/** The longest a call can take: every attempt timing out, with the longest wait between them. */
export function botApiCallBoundMs(p: BotApiPolicy): number {
  return p.attempts * p.timeoutMs + (p.attempts - 1) * p.maxDelayMs;
}

/**
 * WhatsApp's bounds of one Cloud API send (src/whatsapp/client.ts; WHATSAPP_TIMEOUT_MS and
 * WHATSAPP_ATTEMPTS): a call into a WhatsApp chat is answered by sends under these.
 */
export interface WhatsAppSendBounds {
  timeoutMs: number;
  attempts: number;
  /** Longest pause between two attempts. */
  maxBackoffMs: number;
}

/** The longest one WhatsApp send can take: every attempt timing out, with the longest pauses. */
export function whatsappSendBoundMs(w: WhatsAppSendBounds): number {
  return w.attempts * w.timeoutMs + (w.attempts - 1) * w.maxBackoffMs;
}

/**
 * The notifier's send lock must outlive what it guards: up to two Bot API calls per delivery (edit
 * the receipt, send the push) plus the pacer's waits for a slot (a margin). A lock that ran out
 * while a call was still pending lets another consumer send the same push.
 *
 * A push into a WhatsApp chat is one or more Cloud API sends behind the Bot API call (the text and
 * its list, or the template after a 131047): the WhatsApp router gives up with the Bot API call's
 * signal (its sends and the WhatsApp pacer's wait are cut), so the call's bound holds there too;
 * the lock also outlives two whole WhatsApp sends, so it does not rest on that alone.
 */
const NOTIFIER_CALLS_PER_DELIVERY = 2;
const SEND_LOCK_MARGIN_MS = 10_000;
export function minSendLockMs(p: BotApiPolicy, whatsapp?: WhatsAppSendBounds): number {
  const call = Math.max(botApiCallBoundMs(p), whatsapp ? whatsappSendBoundMs(whatsapp) : 0);
  return NOTIFIER_CALLS_PER_DELIVERY * call + SEND_LOCK_MARGIN_MS;
}
