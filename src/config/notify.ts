import { z } from "zod";
import { type BotApiPolicy, minSendLockMs, type WhatsAppSendBounds } from "../telegram/policy.ts";
import { emptyToUndefined, int, type Parsed } from "./fields.ts";

/**
 * The notifier: when a stuck push is taken over, how long one process holds a push, and how long
 * a push failing for passing reasons (network, 5xx, 429) is retried before it is dead-lettered.
 */
export const notifyEnv = {
  NOTIFY_CLAIM_IDLE_MS: int(30_000, 1000),
  /** Default 6 hours; at least a minute. */
  NOTIFY_RETRY_FOR_MS: int(6 * 3_600_000, 60_000),
  /** Default: the shortest lock that outlives a delivery's Bot API calls (minSendLockMs). */
  NOTIFY_LOCK_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).optional()),
};
type NotifyEnv = Parsed<typeof notifyEnv>;

/** `whatsapp`: the WhatsApp channel's send bounds when it runs (its pushes are sends too). */
export function notifyRules(
  e: NotifyEnv,
  botApi: BotApiPolicy,
  whatsapp?: WhatsAppSendBounds,
): string[] {
  const minLockMs = minSendLockMs(botApi, whatsapp);
  if (e.NOTIFY_LOCK_MS !== undefined && e.NOTIFY_LOCK_MS < minLockMs)
    return [
      `NOTIFY_LOCK_MS: must be at least ${minLockMs} (two Bot API calls of TELEGRAM_ATTEMPTS × TELEGRAM_TIMEOUT_MS plus waits${whatsapp ? ", or two WhatsApp sends of WHATSAPP_ATTEMPTS × WHATSAPP_TIMEOUT_MS plus waits if longer" : ""}, and a margin)`,
    ];
  return [];
}

export function notifierSettings(
  e: NotifyEnv,
  botApi: BotApiPolicy,
  whatsapp?: WhatsAppSendBounds,
) {
  return {
    /** Unacknowledged pushes older than this are taken over (a crashed or stuck process). */
    claimIdleMs: e.NOTIFY_CLAIM_IDLE_MS,
    /** One process at a time sends a given push; the lock outlives its sends (notifyRules). */
    lockMs: e.NOTIFY_LOCK_MS ?? Math.max(60_000, minSendLockMs(botApi, whatsapp)),
    /** A push failing for passing reasons is retried until it is this old, then dead-lettered. */
    retryForMs: e.NOTIFY_RETRY_FOR_MS,
  };
}
