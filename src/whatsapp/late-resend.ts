import type { Logger } from "../logger.ts";
import { chatIdOfWaId } from "./chat-ids.ts";
import type { WaChatStore } from "./chat-store.ts";
import {
  lateRetryDelayMs,
  NothingSent,
  refusalKind,
  WA_ERROR,
  WhatsAppApiError,
} from "./errors.ts";
import type { Carried, LateResendStore, OwedResend } from "./late-resend-store.ts";
import { pollLoop } from "./poll-loop.ts";
import type { WhatsAppRouter } from "./router.ts";
import type { WaWebhookEvents } from "./types.ts";

/**
 * A message Meta accepted and later reported `failed` (the window closed by Meta's clock: 131047;
 * Meta's own trouble or a rate limit: "try again"; the marketing cap 131049: "try again later")
 * may be an order's final push, already marked sent by the notifier: this is the only way its
 * words still reach the customer. The webhook only owes it (a durable entry per wamid, written
 * before the status is recorded, so a failure to owe it is a 503 and Meta delivers the status
 * again) and answers at once; the worker below sends it, on one instance at a time (a lease per
 * entry, renewed right before its send), again after a failure of the send that sent nothing (a
 * rate hold, the template paused, Meta unavailable), until `retryForMs` after its chain was first
 * due (a resend Meta fails late as well carries the first entry's start and counts). Once Meta
 * took a resend it counts as sent, whatever fails after (review s24-f).
 */

/** Counts each status once (`whatsapp_statuses_total`). */
type CountStatus = (status: string, code: number | undefined) => void;

/** The webhook's statuses: recorded, counted once, and a late `failed` owed again when Meta says to. */
export function statusAcceptor(deps: {
  store: WaChatStore;
  owed: LateResendStore;
  now: () => number;
  logger: Logger;
  count: CountStatus;
}) {
  return async (statuses: WaWebhookEvents["statuses"]): Promise<void> => {
    for (const s of statuses) {
      const chatId = chatIdOfWaId(s.recipientId);
      const code = s.errors?.[0]?.code;
      const delay = s.status === "failed" ? lateRetryDelayMs(code) : undefined;
      // Owed before the status is kept: a redelivery (Meta's, after a 503) finds it owed once.
      if (chatId !== null && delay !== undefined && code !== undefined)
        await deps.owed.owe({
          ...{ wamid: s.wamid, chatId, code, at: deps.now() + delay },
          ...{ tries: 0, uncertain: 0 },
        });
      // Counted once: a redelivered status (Meta redelivers for days) is known to its chat.
      if (chatId !== null && !(await deps.store.putStatus(chatId, s.wamid, s.status))) continue;
      deps.count(s.status, code);
      if (s.status === "failed")
        deps.logger.warn(
          { wamid: s.wamid, code, resend: delay !== undefined },
          "whatsapp message failed to deliver",
        );
    }
  };
}

/** How a worker runs: its bound and pace. */
export interface LateResendOptions {
  /** Given up when still failing this long after it was first due (the notifier's bound). */
  retryForMs: number;
  /** Sends that may have arrived (a lost answer) before giving up: each may show it twice. */
  maxUncertain?: number;
  /** A taker's lease: longer than a send may take (the client's timeout × attempts). */
  leaseMs?: number;
  /** How often the due entries are looked for. */
  pollMs?: number;
}

/** After a failed try: 5 s, doubling, at most 10 minutes. */
const backoffMs = (tries: number) => Math.min(5_000 * 2 ** Math.max(0, tries - 1), 600_000);

/** Whether a failure says this message will never go (so it is not tried again). */
function refusedForGood(err: unknown): boolean {
  if (!(err instanceof WhatsAppApiError) || err.mayHaveArrived || err.status === 0) return false;
  const kind = refusalKind(err.code);
  return kind === "recipient" || (kind === "message" && err.status >= 400 && err.status < 500);
}

/**
 * Whether a failed try certainly sent nothing: Meta's answer says so, or the router failed before
 * any send (`NothingSent`). Anything else (a lost answer, an error no one knows) may have arrived.
 */
const sentNothing = (err: unknown) =>
  err instanceof NothingSent || (err instanceof WhatsAppApiError && !err.mayHaveArrived);

/** When a try that sent nothing is made again: 131049 (the cap counts per 24 h) after a day. */
function retryInMs(err: unknown, tries: number): number {
  const code = err instanceof WhatsAppApiError ? err.code : undefined;
  if (refusalKind(code) === "later") return lateRetryDelayMs(code) ?? backoffMs(tries);
  return backoffMs(tries);
}

/** A done mark that failed is tried again this often before it is left to the lease. */
const DONE_TRIES = 3;

/** The worker: the due entries sent again, each by one instance (the claim's lease). */
export function lateResender(deps: {
  owed: LateResendStore;
  router: Pick<WhatsAppRouter, "resendFailed">;
  now: () => number;
  logger: Logger;
  options: LateResendOptions;
}) {
  const { owed, logger, options } = deps;
  const leaseMs = options.leaseMs ?? 120_000;
  const maxUncertain = options.maxUncertain ?? 3;
  /** Sent, not yet marked done (its Redis away): this instance only marks it, never sends it. */
  const sentHere = new Set<string>();

  /** Marks it done; a failure is tried again, never the send (which went out). */
  async function finish(e: OwedResend, carry?: Carried): Promise<void> {
    for (let n = 1; ; n += 1) {
      try {
        await owed.done(e.wamid, carry);
        sentHere.delete(e.wamid);
        return;
      } catch (err) {
        if (n < DONE_TRIES) continue;
        // Left leased: this instance marks it at its next claim; another one (after the lease)
        // finds the try counted against `maxUncertain` (`take`), so it goes at most that often.
        sentHere.add(e.wamid);
        logger.error({ wamid: e.wamid, err: String(err) }, "whatsapp resend not marked done");
        return;
      }
    }
  }

  async function failed(e: OwedResend, err: unknown): Promise<void> {
    const certain = sentNothing(err);
    // `take` counted this try as uncertain before the send: given back when nothing went out.
    const uncertain = certain ? e.uncertain : e.uncertain + 1;
    const next = { ...e, tries: e.tries + 1, uncertain };
    const fields = { wamid: e.wamid, code: e.code, tries: next.tries, err: String(err) };
    const spent = uncertain >= maxUncertain || deps.now() - (e.first ?? e.at) >= options.retryForMs;
    if (refusedForGood(err) || spent) {
      await owed.done(e.wamid);
      logger.error(fields, "whatsapp failed message not sent again; given up");
      return;
    }
    await owed.later(next, deps.now() + retryInMs(err, next.tries));
    logger.warn(fields, "whatsapp failed message not sent again yet; will retry");
  }

  /** One entry under the lease `lease` (its score): renewed right before the send, or skipped. */
  async function one(e: OwedResend, lease: number): Promise<void> {
    if (sentHere.has(e.wamid)) return finish(e);
    // A link of a chain (a resend Meta failed late as well) past its bound, or a message that
    // may have arrived `maxUncertain` times: not sent again.
    const late = e.first !== undefined && deps.now() - e.first >= options.retryForMs;
    if (late || e.uncertain >= maxUncertain) {
      await owed.done(e.wamid);
      logger.error(
        { wamid: e.wamid, code: e.code },
        "whatsapp failed message not sent again; given up",
      );
      return;
    }
    // The try is counted as one that may arrive before it is made: a crash or a lost done mark
    // after the send then counts against `maxUncertain`.
    const trying = { ...e, uncertain: e.uncertain + 1 };
    if (!(await owed.take(trying, lease, deps.now() + leaseMs))) return;
    let sent: Awaited<ReturnType<WhatsAppRouter["resendFailed"]>>;
    try {
      const template = e.code === WA_ERROR.reengagement;
      sent = await deps.router.resendFailed(e.chatId, e.wamid, { template });
    } catch (err) {
      return failed(e, err);
    }
    logger.info(
      { wamid: e.wamid, code: e.code, result: sent.result },
      "whatsapp failed message resent",
    );
    const chain = { first: e.first ?? e.at, tries: e.tries + 1, uncertain: e.uncertain };
    await finish(e, sent.wamids.length > 0 ? { wamids: sent.wamids, ...chain } : undefined);
  }

  /** One pass: every entry due now, in turn (the client's pacer spaces the sends). */
  async function runOnce(max = 20): Promise<number> {
    const lease = deps.now() + leaseMs;
    const taken = await owed.claim(deps.now(), lease, max);
    for (const e of taken) {
      if (loop.halted()) await owed.take(e, lease, deps.now());
      else await one(e, lease);
    }
    return taken.length;
  }

  const loop = pollLoop({
    pass: () => runOnce(),
    pollMs: options.pollMs ?? 1_000,
    onError: (err) => logger.warn({ err: String(err) }, "whatsapp late resends not read"),
  });
  return { runOnce, start: loop.start, stop: loop.stop };
}
