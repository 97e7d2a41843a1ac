import type { Logger } from "../logger.ts";
import { contradicts } from "../orders/contradicts.ts";
import { isFinal, normalizeProviderStatus, type Order, type OrderStatus } from "../orders/model.ts";
import { payloadOf } from "../orders/payload.ts";
import { isReversalWord, reversible } from "../orders/reversal.ts";
import type { Orders } from "../orders/service.ts";
import { type Confirmations, SENT_STATES } from "./confirm.ts";
import type { WebhookPayload } from "./payload.ts";

/**
 * What a valid event does to the books: recorded through orders.apply (an unknown order is
 * recorded for an admin, so the provider does not retry forever). A FINAL claim is confirmed
 * first (confirm.ts) unless confirmFinal is off; until then a claim on a sent order, or one against
 * an admin's settlement, is only read, not written: the confirmation's write records it.
 */

export interface ApplyDeps {
  orders: Pick<Orders, "apply" | "get" | "getByTransactionId" | "takeClaimCheck">;
  confirmations: Confirmations;
  confirmFinal: boolean;
  /** How long one order's unconfirmed claim against its final outcome costs no more queries. */
  claimCooldownMs?: number;
  logger: Logger | undefined;
  now: () => number;
}

/**
 * The order an event names: by reference first, then by transaction id (as orders.apply finds it).
 * Always read, never this process's remembered copy (orders/recent.ts): a final claim on an order
 * another process has made final must cost no status query (a replayed claim would otherwise
 * make one), and a final copy may be one a failover has since taken back.
 */
async function lookUp(
  orders: ApplyDeps["orders"],
  where: { reference?: string; byTransactionId?: string },
) {
  if (where.reference !== undefined) {
    const order = await orders.get(where.reference);
    if (order) return order;
  }
  return where.byTransactionId === undefined
    ? null
    : orders.getByTransactionId(where.byTransactionId);
}

/** Records one event (the webhook answers 200 once this returns, 503 if it throws). */
export async function applyWebhookEvent(deps: ApplyDeps, p: WebhookPayload): Promise<void> {
  const { orders, now } = deps;
  const status = normalizeProviderStatus(p.status);
  const where = {
    ...(p.reference === undefined ? {} : { reference: p.reference }),
    ...(p.transactionId === undefined ? {} : { byTransactionId: p.transactionId }),
  };
  const at = now();
  if (status === null) {
    const r = await orders.apply({
      ...where,
      source: "webhook",
      payload: payloadOf(p),
      status: null,
      at,
      unrecognised: p.status.slice(0, 40),
    });
    // "refunded" on a success claims what "failed" does (orders/reversal.ts): confirmed as one.
    if (r.order && reversible(r.order) && isReversalWord(p.status))
      await claimOnFinal(deps, r.order, "failed", at);
    return;
  }
  if (!isFinal(status) || !deps.confirmFinal) {
    // Non-final claims cannot do harm (forward-only, never past final); with confirmation off a
    // final claim is trusted as the operator chose, transaction id included. Against an order
    // already final it moves nothing, and is confirmed like any (see claimOnFinal).
    const r = await orders.apply({
      ...where,
      source: "webhook",
      payload: payloadOf(p),
      status,
      at,
      expect: SENT_STATES,
      ...(isFinal(status) && p.transactionId !== undefined
        ? { transactionId: p.transactionId }
        : {}),
    });
    if (isFinal(status) && r.order && isFinal(r.order.status))
      await claimOnFinal(deps, r.order, status, at);
    return;
  }
  // A claim on a sent order is not written before its confirmation: the confirmation's own write
  // carries it (its note names the claim, and a failed query records "claimed X; confirmation
  // failed"), and a claim lost with the process between the 200 and that write is recovered by
  // the reconciler, which queries every sent order that is not final. One read instead of a
  // read and a compare-and-set. An unknown order or one never sent is recorded as before: the
  // claim is all there is to go on (an admin's unmatched list, or the order's history).
  const found = await lookUp(orders, where);
  const stored =
    found && (isFinal(found.status) || SENT_STATES.includes(found.status))
      ? found
      : (
          await orders.apply({
            ...where,
            source: "webhook",
            payload: payloadOf(p),
            status: null,
            at,
            note: `claimed ${status}`,
          })
        ).order;
  if (stored && !isFinal(stored.status)) deps.confirmations.schedule(stored, status);
  else if (stored) await claimOnFinal(deps, stored, status, at);
}

/** The aggregator's contradiction of this final order is already recorded (alerted once). */
const contradictionRecorded = (o: Order): boolean =>
  o.settled ? o.settled.contradictedAt !== undefined : o.contradicted !== undefined;

/**
 * A claim against an order's final outcome costs at most one status query per order in this long,
 * across every process: the aggregator's retries and replays of a claim its own answer does not
 * back (nothing is recorded then) must not spend its rate limit, shared with the reconciler and
 * settle, once per redelivery.
 */
export const CLAIM_COOLDOWN_MS = 10 * 60_000;

/**
 * A final claim on an order already final. The same outcome: nothing to do, no status query (a
 * replay). The opposite: logged, and confirmed with a status query like any final claim; only
 * the aggregator's answer, if it says the same, is recorded on the order and alerted to the
 * admins, once per order (orders/final-order.ts): a redelivery after that costs no query. One the
 * answer did not back costs none either until CLAIM_COOLDOWN_MS is over (store.takeClaimCheck:
 * one Redis command, on this path only). No money moves either way. (A claim against an admin's
 * settlement was never logged before its confirmation.)
 */
async function claimOnFinal(
  deps: ApplyDeps,
  stored: Order,
  status: OrderStatus,
  at: number,
): Promise<void> {
  if (stored.status === status) return;
  if (!stored.settled) contradicts(deps.logger, stored, status);
  if (contradictionRecorded(stored)) return;
  const cooldown = deps.claimCooldownMs ?? CLAIM_COOLDOWN_MS;
  if (!(await deps.orders.takeClaimCheck(stored.reference, at, cooldown))) {
    deps.logger?.info(
      { reference: stored.reference, claimed: status },
      "claim against a final order: asked the aggregator within the cooldown already; no query",
    );
    return;
  }
  deps.confirmations.schedule(stored, status);
}
