import type { Logger } from "../logger.ts";
import { contradicts } from "../orders/contradicts.ts";
import { providerReference } from "../orders/execute-request.ts";
import { isFinal, type Order, type OrderStatus } from "../orders/model.ts";
import { isReversalWord } from "../orders/reversal.ts";
import {
  answerAbout,
  eventFromStatus,
  type Orders,
  type OrdersProvider,
} from "../orders/service.ts";

/**
 * A final claim's confirmation: because the signature covers only the secret, a webhook claiming a
 * FINAL status is confirmed with a status query by reference before anything is applied; the
 * query runs after the webhook's answer (in the background, one per order at a time), and if it
 * fails the claim stays recorded without a status change and the reconciler decides.
 */

/** Webhook claims may move an order that was sent to the provider; never a "placed" one. */
export const SENT_STATES: OrderStatus[] = ["submitting", "unknown", "queued", "pending"];

export interface ConfirmDeps {
  orders: Pick<Orders, "apply">;
  provider: Pick<OrdersProvider, "statusByReference">;
  logger: Logger | undefined;
  now: () => number;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Status query for a final claim, then apply what the provider says (not what the webhook said).
 * `order` is the order as read (or the claim recorded on it) a moment ago: it saves reading it
 * again (changed meanwhile, it costs the compare-and-set a retry, and a final one changes no
 * more). The write names the claim: the answer's entry carries "confirms webhook X", and an
 * answer that says nothing readable, or no answer, leaves "claimed X; confirmation failed".
 */
async function confirm(deps: ConfirmDeps, order: Order, claimed: OrderStatus): Promise<void> {
  const { orders, provider, now } = deps;
  const log = deps.logger;
  let current = order;
  try {
    const asked = providerReference(order);
    // An answer about another order is a failed confirmation (caught below).
    const answer = answerAbout(await provider.statusByReference(order.region, asked), asked);
    const event = eventFromStatus(order, answer, "status", now(), `confirms webhook ${claimed}`);
    const applied = await orders.apply(
      { reference: order.reference, ...event, expect: SENT_STATES },
      order,
    );
    if (isFinal(order.status)) {
      // A claim against a final order (an admin's settlement or not): the answer, if final, was
      // recorded (a contradiction alerted once, or a settlement's agreement: orders/state.ts); an
      // unconfirmed claim is only logged. A reversal word confirms a "failed" (orders/reversal.ts).
      const said = event.status ?? (isReversalWord(event.unrecognised) ? "failed" : null);
      if (said !== claimed) {
        log?.warn(
          { reference: order.reference, claimed, answered: event.status ?? event.unrecognised },
          "webhook claim against a final order not confirmed by a status query; nothing recorded",
        );
      }
      return;
    }
    // The order may have become final since the claim was looked at (another process, a moment
    // ago): the same alarm as for a claim on a final order (the answer, if it contradicts the
    // order too, was recorded and alerted by the write above).
    if (applied.outcome !== "changed") contradicts(log, applied.order, claimed);
    if (event.status !== null) return;
    // An unrecognised word, or an answer about another recharge (recorded once, not applied: an
    // admin decides, orders/provider-events.ts): the claim's note below.
    current = applied.order ?? order;
    log?.warn(
      { reference: order.reference, claimed, answered: event.unrecognised ?? event.note },
      "could not confirm webhook claim; the reconciler will decide",
    );
  } catch (err) {
    log?.warn(
      { reference: order.reference, claimed, err: message(err) },
      "could not confirm webhook claim; the reconciler will decide",
    );
  }
  // A final order takes no claim: the warning above is all there is.
  if (isFinal(order.status)) return;
  await orders.apply(
    {
      reference: order.reference,
      source: "webhook",
      status: null,
      at: now(),
      note: `claimed ${claimed}; confirmation failed`,
    },
    current,
  );
}

/** Final claims being confirmed, one status query per order at a time. */
export function createConfirmations(deps: ConfirmDeps) {
  const confirming = new Map<string, Promise<void>>();
  return {
    schedule(order: Order, claimed: OrderStatus): void {
      const { reference } = order;
      if (confirming.has(reference)) return; // one status query per order at a time
      const task = confirm(deps, order, claimed)
        .catch((err) =>
          deps.logger?.error({ reference, err: message(err) }, "webhook confirmation crashed"),
        )
        .finally(() => confirming.delete(reference));
      confirming.set(reference, task);
    },
    /** Resolves when every confirmation started so far has finished (tests, shutdown). */
    async settled(): Promise<void> {
      while (confirming.size > 0) await Promise.all([...confirming.values()]);
    },
  };
}

export type Confirmations = ReturnType<typeof createConfirmations>;
