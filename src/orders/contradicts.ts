import type { Logger } from "../logger.ts";
import { isFinal, type Order, type OrderEvent, type OrderStatus } from "./model.ts";

/**
 * A signed claim opposite to an outcome already decided and told to the user (e.g. an execute
 * that reached the provider after the reconciler concluded it never would). Nothing may change a
 * final order automatically, so it must at least not pass silently: a person has to look.
 * `detail` adds what the claim said of money (an execute answer's debit), to tie a drift to it.
 */
export function contradicts(
  log: Logger | undefined,
  stored: Order | null,
  claimed: OrderStatus,
  detail: Record<string, string | number | undefined> = {},
): void {
  if (!stored || !isFinal(stored.status) || stored.status === claimed) return;
  log?.error(
    { reference: stored.reference, stored: stored.status, claimed, ...detail },
    "provider contradicts a final order; check it by hand",
  );
}

/**
 * An execute answer that a final order did not take: the same alarm when it opposes the order's
 * outcome: accepted or success on a failed order (the aggregator may debit it; the hold was
 * released), failed on a successful one. A queued or pending answer after the webhook's success is
 * only late, and "unknown" says nothing.
 */
export function executeContradicts(
  log: Logger | undefined,
  stored: Order | null,
  event: OrderEvent,
): void {
  const answered = event.status;
  if (!stored || answered === null || answered === "unknown") return;
  const opposed =
    stored.status === "failed"
      ? answered !== "failed"
      : stored.status === "success" && answered === "failed";
  if (!opposed) return;
  contradicts(log, stored, answered, {
    source: "execute",
    transactionId: event.transactionId,
    debitPaisa: event.wallet?.debitAmountPaisa,
  });
}
