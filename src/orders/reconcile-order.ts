import type { Logger } from "../logger.ts";
import { ProviderNotFoundError } from "../provider/errors.ts";
import { providerReference } from "./execute-request.ts";
import { isFinal, type Order } from "./model.ts";
import { answerAbout, eventFromStatus } from "./provider-events.ts";
import type { Orders, OrdersProvider } from "./service.ts";

/**
 * What the reconciler does with one open order (reconciler.ts says when): fail it as not
 * submitted, ask the provider its status and apply the answer, fail it as never executed, or flag
 * it to the admins once it is too old.
 */

export const NOT_EXECUTED_MESSAGE = "The provider never received this order; nothing was charged.";
const NOT_SUBMITTED_MESSAGE = "This order was not sent to the provider; nothing was charged.";
/** The reconciler's own failure words: for staff; a customer is told the order did not go through. */
export const RECONCILER_MESSAGES: readonly string[] = [NOT_EXECUTED_MESSAGE, NOT_SUBMITTED_MESSAGE];

/** The counts one tick reports (reconciler.ts ReconcileReport). */
export interface ReconcileCounts {
  queried: number;
  changed: number;
  notExecuted: number;
  flagged: number;
  errors: number;
}

export interface ReconcileOneOptions {
  orders: Pick<Orders, "apply" | "get">;
  provider: Pick<OrdersProvider, "statusByReference">;
  now: () => number;
  log: Logger | undefined;
  executeTimeoutMs: number;
  /** Extra wait after the execute timeout before "not found" is believed. */
  grace: number;
  /** A placed order not submitted within this time fails as "not submitted". */
  placedTimeout: number;
  maxAgeMs: number;
  adminChatIds: number[];
}

export function reconcileOne(o: ReconcileOneOptions) {
  const { orders, provider, now, log, grace, placedTimeout } = o;

  async function examine(
    order: Order,
    report: ReconcileCounts,
    finalized: Set<string>,
  ): Promise<void> {
    const note = (r: { order: Order | null }) => {
      if (r.order && isFinal(r.order.status)) finalized.add(r.order.reference);
    };
    const t = now();
    const ref = order.reference;
    const sentAt = order.submittedAt ?? order.createdAt;
    const inFlightWindowOver = t - sentAt >= o.executeTimeoutMs + grace;

    if (order.status === "placed") {
      if (t - order.createdAt < placedTimeout) return;
      const r = await orders.apply({
        reference: ref,
        source: "reconciler",
        status: "failed",
        at: t,
        note: "not submitted",
        providerMessage: NOT_SUBMITTED_MESSAGE,
        expect: ["placed"],
      });
      note(r);
      if (r.outcome === "changed") report.changed++;
      return;
    }
    if (order.status === "submitting" && !inFlightWindowOver) return;

    report.queried++;
    try {
      const asked = providerReference(order);
      // An answer about another order is a failed query (caught below): retried next tick.
      const answer = answerAbout(await provider.statusByReference(order.region, asked), asked);
      const r = await orders.apply({
        reference: ref,
        ...eventFromStatus(answer, "reconciler", now()),
      });
      note(r);
      if (r.outcome === "changed") report.changed++;
    } catch (err) {
      if (err instanceof ProviderNotFoundError) {
        if ((order.status === "submitting" || order.status === "unknown") && inFlightWindowOver) {
          const r = await orders.apply({
            reference: ref,
            source: "reconciler",
            status: "failed",
            at: now(),
            note: "not executed (provider has no such reference)",
            providerMessage: NOT_EXECUTED_MESSAGE,
            expect: ["submitting", "unknown"],
          });
          note(r);
          if (r.outcome === "changed") {
            report.changed++;
            report.notExecuted++;
          }
        } else {
          log?.warn({ reference: ref, status: order.status }, "provider does not know the order");
        }
      } else {
        report.errors++;
        log?.warn(
          { reference: ref, err: err instanceof Error ? err.message : String(err) },
          "status query failed; will retry next tick",
        );
      }
    }
  }

  async function flagIfStuck(order: Order, report: ReconcileCounts): Promise<void> {
    if (order.flaggedAt !== undefined || now() - order.createdAt < o.maxAgeMs) return;
    const current = await orders.get(order.reference);
    if (!current || isFinal(current.status) || current.flaggedAt !== undefined) return;
    const minutes = Math.floor((now() - current.createdAt) / 60_000);
    const r = await orders.apply({
      reference: current.reference,
      source: "reconciler",
      status: null,
      at: now(),
      note: `not final after ${minutes} min`,
      flag: { adminChatIds: o.adminChatIds },
    });
    if (r.outcome !== "unchanged" && r.outcome !== "unmatched") {
      report.flagged++;
      log?.warn(
        { reference: current.reference, status: current.status, minutes },
        "order flagged: not final after the maximum age",
      );
    }
  }

  return { examine, flagIfStuck };
}
