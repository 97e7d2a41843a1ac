import type { Logger } from "../logger.ts";
import { mayHaveArrived, sendOnceSignal } from "../telegram/api.ts";
import { withWords } from "../telegram/words.ts";
import type { Push } from "./deliver.ts";
import type { PushMetrics } from "./metrics.ts";
import type { NotifierApi } from "./options.ts";
import type { NotificationQueue } from "./queue.ts";
import { backingOff, resendDelayMs } from "./retry-bound.ts";
import { persist, type RunState } from "./run-state.ts";

/**
 * The send of a push (a NEW message), at most once where Telegram lets us know:
 *  - the sending lock is taken right before the Bot API call, so the lock left behind by an
 *    attempt that never finished marks exactly the sends that may have reached the chat;
 *  - the call is made with sendOnceSignal: no blind resend after a lost answer;
 *  - a lost answer with a receipt to edit is not pushed again (the receipt edit shows the
 *    outcome); without one (API orders, admin alerts), or after a sender died mid-send, the push is
 *    sent again and counted as a possible duplicate: a lost result is worse than a repeat; but
 *    only until maxUncertainSends such sends are on the lock's record (across reclaims and
 *    instances), then the push is dead-lettered: a timeout that keeps losing answers must not
 *    send a copy every reclaim for hours. Those sends are spread out (resendDelayMs: doubling
 *    from a minute, capped at an hour), so a Telegram outage of 5xx answers does not use them up
 *    in minutes: a reclaim before the record's retry time sends nothing, and is told so from the
 *    record before it takes a slot or the lock (handle.ts); should the record change in between
 *    (another instance sent meanwhile), the lock's answer says so and the claim is put back;
 *  - a receipt edit that was to carry the outcome of a lost answer but cannot be made (the
 *    receipt deleted, too old: markReceiptGone) leaves the push to be sent anew, as one without
 *    a receipt, under the same lock, marker and bound;
 *  - the buttons under the push are made only once the lock says it goes out: making them has
 *    side effects (the number saved, a reminder recorded) that a withheld push must not have.
 */

import { PushSettled } from "./push-settled.ts";

export { PushSettled };

/** Whether the send may have reached the chat: then the lock is kept as the record of it. */
export interface SendingState {
  sending: boolean;
  /**
   * The push's outcome is unknown (its answer was lost) and the receipt edit stands in for it:
   * the chat is told only once that edit shows, so no sent marker is written before then
   * (receipt-edits.ts writes it), and the edit is retried as long as a push would be.
   */
  carried?: true;
  /**
   * The send made was the resend the record's retry time asked for: if it fails before reaching
   * the chat, the record goes back without that time (unlockSending `resent`): no longer owed.
   */
  resent?: true;
}

export interface PushDeps {
  queue: NotificationQueue;
  api: NotifierApi;
  /** Waits for a slot under Telegram's limits (the pacer). */
  pace: (chatId: number) => Promise<void>;
  lockMs: number;
  /**
   * Sends of one push that may have arrived (answers lost, senders that died mid-send) after
   * which it is not sent again but dead-lettered (the notifier's maxAttempts).
   */
  maxUncertainSends: number;
  pushMetrics: PushMetrics;
  logger: Logger | undefined;
  state: RunState;
  /** The notifier's clock: the retry times of sends that may have arrived are on it. */
  now: () => number;
}

/**
 * The push of one notification key (`kind` labels its metrics). `stillTrue`, asked once the
 * sending lock is taken (and on enough replicas): whether the store still holds what the push
 * announces; false: nothing is sent (PushSettled "withheld").
 */
export type PushFor = (
  key: string,
  kind: string,
  sending: SendingState,
  stillTrue?: () => Promise<boolean>,
) => Push;

export function createPushFor(deps: PushDeps): PushFor {
  const { queue, api, pushMetrics, state } = deps;
  const log = deps.logger;
  const sendOnce = sendOnceSignal();
  return (key, kind, sending, stillTrue) => async (chatId, text, markup, receipt, words) => {
    await deps.pace(chatId);
    const claim = await queue.lockSending(key, deps.lockMs);
    const { lock, uncertain } = claim;
    if (lock === "held") throw new PushSettled("retry");
    if (lock === "sent") throw new PushSettled("duplicate");
    // After the lock: under Sentinel its WAIT also covers the order's write, if the store has it.
    if (stillTrue && !(await stillTrue())) {
      // Nothing sent now; an earlier attempt's record stays (the handler puts it back).
      pushMetrics.withheld(kind);
      log?.warn({ key, lock }, "push withheld: the order no longer has the status it announces");
      throw new PushSettled("withheld");
    }
    // The receipt carries the outcome of a lost answer, unless its edit found it gone.
    const carries = receipt && claim.receiptGone !== true;
    if (lock === "unanswered" && carries) {
      // Its answer was lost and the marker not written: the receipt edit shows the outcome. The
      // record goes back to "unanswered" (the lock just taken would read "held", then "abandoned").
      sending.sending = true;
      sending.carried = true;
      await persist(state, () => queue.unlockSending(key)).catch(() => undefined);
      return;
    }
    if (uncertain >= deps.maxUncertainSends) {
      // Sent that often already without an answer: the chat most likely has it, and a failure
      // that keeps losing answers would otherwise resend it every reclaim for hours. A dead
      // letter (replayable: the record's count starts again) instead of one more copy.
      sending.sending = true;
      await persist(state, () => queue.giveUpSending(key)).catch(() => undefined);
      log?.error({ key, lock, uncertain }, "push given up: sent again and again without an answer");
      throw new PushSettled("spent", uncertain);
    }
    if (lock === "unanswered" && backingOff(claim.retryAt, deps.now())) {
      // Backing off (the handler, which checks this before the slot and the lock, read the record
      // before another instance's send wrote a new time): nothing sent now; the handler puts the
      // record back as it was (retry time included) and the queue brings the entry back later.
      throw new PushSettled("retry");
    }
    if (lock === "unanswered" || lock === "abandoned") {
      // The chat may have it. A push whose sender died is sent again even with a receipt: the
      // death may have come before the request left, and a lost result is worse than a repeat.
      pushMetrics.outcomeUnknown(kind, "sent_again");
      pushMetrics.possibleDuplicate(kind);
      log?.warn(
        { key, lock, uncertain },
        "push sent again after an attempt with an unknown outcome",
      );
    }
    // Made after the lock said go: their side effects belong to a push that is sent.
    const replyMarkup = await markup?.();
    sending.sending = true;
    if (lock === "unanswered" && claim.retryAt !== undefined) sending.resent = true;
    try {
      // The words' language rides with the call, not in it (a WhatsApp template must name it).
      await withWords(words, () =>
        api.sendMessage(
          chatId,
          text,
          replyMarkup ? { reply_markup: replyMarkup } : undefined,
          sendOnce,
        ),
      );
    } catch (err) {
      if (!mayHaveArrived(err)) {
        sending.sending = false; // not in the chat: the lock goes
        throw err;
      }
      // Telegram may have shown it: never sent blindly again. The lock stays as the record, with
      // when it may be sent again if no receipt carries it.
      const retryAt = carries ? undefined : deps.now() + resendDelayMs(uncertain + 1);
      const next = {
        ...(retryAt === undefined ? {} : { retryAt }),
        receiptGone: !carries && receipt,
      };
      await persist(state, () => queue.markUncertain(key, next)).catch(() => undefined);
      log?.warn(
        {
          key,
          receipt,
          retryAt,
          err: err instanceof Error ? err.message.slice(0, 200) : String(err),
        },
        carries
          ? "push answer lost; the receipt edit shows the outcome instead of a second push"
          : "push answer lost; it will be sent again (possible duplicate)",
      );
      if (!carries) throw err;
      sending.carried = true;
      pushMetrics.outcomeUnknown(kind, "receipt");
    }
  };
}
