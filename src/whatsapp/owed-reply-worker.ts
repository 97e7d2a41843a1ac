import type { Logger } from "../logger.ts";
import type { RedisClient } from "../redis/connection.ts";
import { NothingSent, refusalKind, WhatsAppApiError } from "./errors.ts";
import {
  createMemoryOwedReplies,
  createRedisOwedReplies,
  type OwedReplies,
  type OwedReply,
} from "./owed-replies.ts";
import { pollLoop } from "./poll-loop.ts";
import { HeldSend } from "./rate-hold.ts";
import type { WhatsAppRouter } from "./router.ts";

/**
 * Sends the answers owed while a rate limit held them (router-owed.ts), each chat's in order, one
 * instance per chat (a lease, renewed right before each send). A try the hold still refuses (or
 * that sent nothing for another reason) is made again later, the chat's next answers waiting
 * behind it; one that may have arrived (a lost answer) is never sent again, nor one Meta refuses
 * for good; an answer still owed a day after (the customer's 24-hour window long closed) is given up.
 */

/** The answers' store: Redis's, else this process's. */
export const owedRepliesStore = (redis: RedisClient | undefined, prefix: string, logger: Logger) =>
  redis ? createRedisOwedReplies(redis, prefix, logger) : createMemoryOwedReplies();

export interface OwedReplyOptions {
  /** Given up when still owed this long after it was owed (default a day). */
  owedForMs?: number;
  /** A taker's lease: longer than a send may take (the client's timeout × attempts). */
  leaseMs?: number;
  /** How often due chats are looked for. */
  pollMs?: number;
}

/** A try that sent nothing, not held: tried again after this. */
const RETRY_MS = 30_000;

/** Whether a failure says this answer will never go. */
function refusedForGood(err: unknown): boolean {
  if (!(err instanceof WhatsAppApiError) || err.mayHaveArrived || err.status === 0) return false;
  const kind = refusalKind(err.code);
  return kind === "recipient" || (kind === "message" && err.status >= 400 && err.status < 500);
}

/** Whether a failed try certainly sent nothing (else it may have arrived: not sent again). */
const sentNothing = (err: unknown) =>
  err instanceof NothingSent || (err instanceof WhatsAppApiError && !err.mayHaveArrived);

export function owedReplySender(deps: {
  owed: OwedReplies;
  router: Pick<WhatsAppRouter, "sendOwed">;
  now: () => number;
  logger: Logger;
  options?: OwedReplyOptions;
  /**
   * The chat's owed answers are all sent (or given up): its waiting question reached the customer
   * only now, so its idle time starts now (bot/idle.ts `postpone`, wired by the composition root).
   */
  delivered?: (chatId: number) => Promise<unknown>;
}) {
  const { owed, logger } = deps;
  const leaseMs = deps.options?.leaseMs ?? 120_000;
  const owedForMs = deps.options?.owedForMs ?? 86_400_000;

  /** One try of the chat's oldest answer: "next" when it is done with (sent or given up). */
  async function one(chatId: number, e: OwedReply): Promise<"next" | "later"> {
    const fields = { chatId, messageId: e.messageId };
    try {
      await deps.router.sendOwed(chatId, e);
      logger.info(fields, "whatsapp owed answer sent");
      return "next";
    } catch (err) {
      const late = deps.now() - e.at >= owedForMs;
      if (!sentNothing(err) || refusedForGood(err) || late) {
        // A send that may have arrived is never made again: it may show twice.
        logger.error({ ...fields, err: String(err) }, "whatsapp owed answer not sent; given up");
        return "next";
      }
      const wait = err instanceof HeldSend ? err.leftMs : RETRY_MS;
      await owed.later(chatId, deps.now() + wait);
      logger.debug({ ...fields, err: String(err) }, "whatsapp owed answer not sent yet");
      return "later";
    }
  }

  /** Sent (or given up) here, not yet removed (its Redis away): removed, never sent again. */
  const doneHere = new Map<number, number>();

  /** The chat's answers in order, under the lease `lease` (its score), until one must wait. */
  async function drain(chatId: number, lease: number): Promise<void> {
    let held = lease;
    let done = false;
    for (;;) {
      const e = await owed.head(chatId);
      if (e === null) return done ? caughtUp(chatId) : undefined;
      if (doneHere.get(chatId) !== e.messageId) {
        const until = deps.now() + leaseMs;
        if (!(await owed.take(chatId, held, until))) return;
        held = until;
        if ((await one(chatId, e)) === "later") return;
        doneHere.set(chatId, e.messageId);
      }
      await owed.pop(chatId);
      doneHere.delete(chatId);
      done = true;
    }
  }

  /** The chat owes nothing now: its question's idle time starts (a failure only logged). */
  async function caughtUp(chatId: number): Promise<void> {
    await deps.delivered?.(chatId).catch((err: unknown) => {
      logger.warn({ chatId, err: String(err) }, "whatsapp owed answers sent, idle time not moved");
    });
  }

  /** One pass: every chat due now. */
  async function runOnce(max = 20): Promise<number> {
    const lease = deps.now() + leaseMs;
    const chats = await owed.claim(deps.now(), lease, max);
    for (const chatId of chats) {
      // Stopping: given back at once for another instance.
      if (loop.halted()) await owed.take(chatId, lease, deps.now());
      else await drain(chatId, lease);
    }
    return chats.length;
  }

  const loop = pollLoop({
    pass: () => runOnce(),
    pollMs: deps.options?.pollMs ?? 1_000,
    onError: (err) => logger.warn({ err: String(err) }, "whatsapp owed answers not read"),
  });
  return { runOnce, start: loop.start, stop: loop.stop };
}
