import type { Logger } from "../logger.ts";
import { chatIdOfWaId } from "./chat-ids.ts";
import type { WaChatStore } from "./chat-store.ts";
import { lateRetryDelayMs, refusalKind, WA_ERROR, WhatsAppApiError } from "./errors.ts";
import type { LateResendStore, OwedResend } from "./late-resend-store.ts";
import type { WhatsAppRouter } from "./router.ts";
import type { WaWebhookEvents } from "./types.ts";

/**
 * A message Meta accepted and later reported `failed` (the window closed by Meta's clock: 131047;
 * Meta's own trouble or a rate limit: "try again"; the marketing cap 131049: "try again later")
 * may be an order's final push, already marked sent by the notifier: this is the only way its
 * words still reach the customer. The webhook only owes it (a durable entry per wamid, written
 * before the status is recorded, so a failure to owe it is a 503 and Meta delivers the status
 * again) and answers at once; the worker below sends it, on one instance at a time (a lease),
 * again after a failure that sent nothing (a rate hold, the template paused, Meta unavailable),
 * until `retryForMs` after it was first due.
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

  async function one(e: OwedResend): Promise<void> {
    try {
      const template = e.code === WA_ERROR.reengagement;
      const result = await deps.router.resendFailed(e.chatId, e.wamid, { template });
      await owed.done(e.wamid);
      logger.info({ wamid: e.wamid, code: e.code, result }, "whatsapp failed message resent");
    } catch (err) {
      const uncertain = err instanceof WhatsAppApiError ? err.mayHaveArrived : false;
      const next = { ...e, tries: e.tries + 1, uncertain: e.uncertain + (uncertain ? 1 : 0) };
      const fields = { wamid: e.wamid, code: e.code, tries: next.tries, err: String(err) };
      const spent = next.uncertain >= maxUncertain || deps.now() - e.at >= options.retryForMs;
      if (refusedForGood(err) || spent) {
        await owed.done(e.wamid);
        logger.error(fields, "whatsapp failed message not sent again; given up");
        return;
      }
      await owed.later(next, deps.now() + backoffMs(next.tries));
      logger.warn(fields, "whatsapp failed message not sent again yet; will retry");
    }
  }

  /** One pass: every entry due now, in turn (the client's pacer spaces the sends). */
  async function runOnce(max = 20): Promise<number> {
    const taken = await owed.claim(deps.now(), deps.now() + leaseMs, max);
    for (const e of taken) await one(e);
    return taken.length;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  const tick = () => {
    running = runOnce()
      .catch((err) => logger.warn({ err: String(err) }, "whatsapp late resends not read"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.pollMs ?? 1_000);
      });
  };
  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
