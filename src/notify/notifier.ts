import { createMoneyPathMetrics } from "../orders/metrics.ts";
import {
  classifyApiError,
  isGoneChat,
  isSettledEdit,
  isUneditable,
  sentNothing,
} from "./api-errors.ts";
import { channelOf } from "./channel.ts";
import { createConsumerLoop } from "./consumer-loop.ts";
import { createDeliver } from "./deliver.ts";
import { createHandle } from "./handle.ts";
import { createPushMetrics } from "./metrics.ts";
import { type NotifierOptions, notifierSettings } from "./options.ts";
import { createSendPacer } from "./pacer.ts";
import { createPushFor } from "./push.ts";
import { createReceiptEditLane } from "./receipt-edits.ts";
import { createRunState } from "./run-state.ts";

/**
 * The notifier: drains the notification queue into chats.
 *
 *  - Shown once where Telegram lets us know, counted where it does not: right before sending a new
 *    message (final push, admin alert) it takes a short sending lock, which also checks the
 *    (order, status) "sent" marker, sends, writes the marker (WAITed for under Sentinel), then
 *    acknowledges. A push is sent once (sendOnceSignal: no blind resend after a lost answer). When
 *    Telegram's answer was lost, an order with a receipt is not pushed again: the receipt edit
 *    shows the outcome (a receipt found gone, deleted or too old, leaves the push to be sent
 *    anew). A push without a receipt (API orders, admin alerts), and any push whose
 *    sender died between its lock and its marker (the lock left behind says so), is sent again,
 *    since a lost result is worse than a duplicate, and counted
 *    (notify_push_possible_duplicates_total). Receipt edits for intermediate statuses need
 *    neither: repeating an edit changes nothing.
 *  - A status change edits the order's receipt message in place ("message is not modified" is
 *    fine); a final outcome also sends a NEW message so the phone buzzes. An intermediate status
 *    already overtaken by a later one is skipped, so a late retry cannot edit the receipt backwards.
 *  - Pushes first: a final outcome's push is sent at once, its receipt edit afterwards. Edits go
 *    through the receipt edit lane (receipt-edits.ts): they take what the pushes leave of the
 *    budget, only the newest text per receipt is sent, and the queue entry is acknowledged only
 *    once the receipt shows it, so an edit is never lost (a redelivered final whose push went out
 *    edits the receipt again instead of pushing again).
 *  - Every send and edit into a Telegram chat first takes a slot from the pacer (pacer.ts): about
 *    30 messages per second for the bot and 1 per second per chat, so Telegram has no reason to
 *    answer 429. By default the buckets are in this process's memory; give a pacer over
 *    redisPaceStore to share one budget between processes. WhatsApp chats' sends are paced by the
 *    WhatsApp client under Meta's limits (system/whatsapp.ts), not from Telegram's budget.
 *  - 403 (the user blocked the bot): the chat is marked inactive and the notification dropped,
 *    until the user writes again (bot/reactivate.ts) or a later push is accepted.
 *    429 anyway (another sender used the budget; the retry policy gave up): the worker pauses that
 *    channel's sends (channel.ts) for retry_after in full (capped at an hour); Telegram's hold is
 *    written into the pacer's store so every instance sharing it holds its sends too (pacer.ts
 *    `hold`); the entry stays pending and is retried. The other channel's pushes keep going.
 *    Other failures are retried (entry left pending, reclaimed after claimIdleMs): those that say
 *    nothing about the message (network, 5xx, 429) until the entry is retryForMs old (hours), those
 *    about the message maxAttempts times, a push that may have arrived (answer lost) until
 *    maxAttempts such sends, backing off between them (retry-bound.ts: about two hours for all
 *    of them); then dead-lettered, for an admin to replay
 *    (replay-dead.ts; the sent markers keep a replay from pushing twice).
 */

/**
 * Composes the notifier's parts: what a notification becomes (deliver.ts), the send of a push
 * (push.ts), the receipt edit lane (receipt-edits.ts), one entry's handling (handle.ts) and the
 * consumer loop (consumer-loop.ts).
 */
export function createNotifier(opts: NotifierOptions) {
  const { queue, api } = opts;
  const log = opts.logger;
  const now = opts.now ?? Date.now;
  const settings = notifierSettings(opts);
  const metrics = opts.metrics ?? createMoneyPathMetrics(opts.registry);
  const pacer =
    opts.pacer === false
      ? undefined
      : (opts.pacer ?? createSendPacer({ now, ...(opts.sleep ? { sleep: opts.sleep } : {}) }));
  // Telegram's 429 hold goes into the pacer's store: every instance sharing it waits it out too.
  // The pacer is Telegram's (its limits, its flood wait): WhatsApp's sends are paced and held by
  // the WhatsApp client and router (system/whatsapp.ts, whatsapp/rate-hold.ts), not here.
  const state = createRunState(now, (channel, until) => {
    if (channel !== "telegram") return;
    pacer
      ?.hold(until)
      .catch((err: unknown) =>
        log?.warn({ err: err instanceof Error ? err.message : String(err) }, "429 hold not shared"),
      );
  });
  const edits = createReceiptEditLane({
    api,
    pacer,
    channelOf,
    queue,
    orders: opts.orders,
    classify: classifyApiError,
    isSettled: isSettledEdit,
    isUneditable,
    isGone: isGoneChat,
    sentNothing,
    retryForMs: settings.retryForMs,
    onRateLimited: (channel, e) => state.rateLimited(channel, e.retryAfterMs, e.heldUntil),
    pauseLeft: (channel) => state.pauseLeft(channel),
    metrics,
    logger: log,
    now,
    sleep: opts.sleep,
    maxAttempts: settings.maxAttempts,
    maxPauseMs: settings.maxPauseMs,
    // Well inside the claim idle time, so no other consumer takes an entry still waiting here.
    keepEveryMs: settings.claimIdleMs / 3,
  });
  const pushFor = createPushFor({
    queue,
    api,
    pace: async (chatId) => {
      if (channelOf(chatId) === "telegram") await pacer?.acquire(chatId);
    },
    lockMs: settings.lockMs,
    maxUncertainSends: settings.maxAttempts,
    pushMetrics: createPushMetrics(opts.registry),
    logger: log,
    state,
    now,
  });
  const deliver = createDeliver({
    queue,
    orders: opts.orders,
    render: opts.render,
    renderNotice: opts.renderNotice,
    finalButtons: opts.finalButtons,
    editsReceipts: opts.editsReceipts ?? (() => true),
    sentLog: opts.sentLog,
    now,
  });
  const handle = createHandle({
    queue,
    deliver,
    pushFor,
    orders: opts.orders,
    edits,
    metrics,
    logger: log,
    state,
    maxAttempts: settings.maxAttempts,
    retryForMs: settings.retryForMs,
    now,
  });
  return createConsumerLoop({
    queue,
    consumerName: opts.consumerName,
    handle,
    edits,
    settings,
    state,
    logger: log,
    now,
    sleep: opts.sleep,
  });
}

export type Notifier = ReturnType<typeof createNotifier>;
