import type { Logger } from "../logger.ts";
import { ProviderNotFoundError } from "../provider/errors.ts";
import { providerReference } from "./execute-request.ts";
import {
  type HistoryEntry,
  isFinal,
  isNotFoundAnswer,
  NOT_FOUND_NOTE,
  type Order,
} from "./model.ts";
import { answerAbout, eventFromStatus } from "./provider-events.ts";
import type { Orders, OrdersProvider } from "./service.ts";

/**
 * What the reconciler does with one open order (reconciler.ts says when): fail it as not
 * submitted, ask the provider its status and apply the answer, count a "not found" and fail it as
 * never executed once enough of them came over the window, or flag it to the admins once it is
 * too old.
 */

/** The "not found" answers counted so far for an order (model.ts NOT_FOUND_NOTE), oldest first. */
export function notFoundAnswers(order: Order): HistoryEntry[] {
  return order.history.filter(isNotFoundAnswer);
}

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
  /** Extra wait after the execute timeout before a "not found" answer is counted. */
  grace: number;
  /**
   * When "not found" fails an order (submitting or unknown): after `answers` counted answers, each
   * at least windowMs / answers after the one before, and not before windowMs after the send.
   */
  notFound: { answers: number; windowMs: number };
  /** A placed order not submitted within this time fails as "not submitted". */
  placedTimeout: number;
  maxAgeMs: number;
  adminChatIds: number[];
}

/**
 * An order with a counted "not found" is asked again only once its next answer may matter: the
 * next count (windowMs / answers after the last), or once all are counted, the one that fails it
 * (the window over). Asked on every tick meanwhile, it cost a status query per tick for the whole
 * window, of which only `answers` counted. A late record at the aggregator is still found within
 * one spacing (its webhook comes as it comes). Any other open order keeps the tick's cadence.
 */
function waitingForNextCount(
  order: Order,
  t: number,
  sentAt: number,
  notFound: { answers: number; windowMs: number },
): boolean {
  if (order.status !== "submitting" && order.status !== "unknown") return false;
  const counted = notFoundAnswers(order);
  const last = counted.at(-1)?.at;
  if (last === undefined) return false;
  if (counted.length >= notFound.answers) return t - sentAt < notFound.windowMs;
  return t - last < Math.floor(notFound.windowMs / Math.max(1, notFound.answers));
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
    if (waitingForNextCount(order, t, sentAt, o.notFound)) return;

    report.queried++;
    try {
      const asked = providerReference(order);
      // An answer about another order is a failed query (caught below): retried next tick.
      const answer = answerAbout(await provider.statusByReference(order.region, asked), asked);
      const r = await orders.apply({
        reference: ref,
        ...eventFromStatus(order, answer, "reconciler", now()),
      });
      note(r);
      if (r.outcome === "changed") report.changed++;
    } catch (err) {
      if (err instanceof ProviderNotFoundError) {
        if ((order.status === "submitting" || order.status === "unknown") && inFlightWindowOver) {
          await notFound(order, t, sentAt, report, note);
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

  /**
   * A "not found" for an order whose execute may have reached the aggregator (timed out, 5xx,
   * reset, or a process died after the submitting mark). A slow or queueing aggregator may still
   * record it later, so one answer proves nothing: it is counted (a history entry, spaced; the
   * history cap keeps room for these, transition-kit.ts), and only enough answers over the window fail the
   * order and void its hold. Between two counted answers the order is not asked at all. Until then the order
   * stays open, its hold held, and the customer keeps the "checking with the operator" words.
   */
  async function notFound(
    order: Order,
    t: number,
    sentAt: number,
    report: ReconcileCounts,
    note: (r: { order: Order | null }) => void,
  ): Promise<void> {
    const { answers, windowMs } = o.notFound;
    const counted = notFoundAnswers(order);
    const last = counted.at(-1)?.at;
    const spacing = Math.floor(windowMs / Math.max(1, answers));
    const counts = last === undefined || t - last >= spacing;
    const total = counted.length + (counts ? 1 : 0);
    if (total >= answers && t - sentAt >= windowMs) {
      const r = await orders.apply({
        reference: order.reference,
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
      return;
    }
    if (!counts) return;
    await orders.apply({
      reference: order.reference,
      source: "reconciler",
      status: null,
      at: now(),
      note: `${NOT_FOUND_NOTE} (answer ${total} of ${answers})`,
      expect: ["submitting", "unknown"],
    });
    log?.info(
      { reference: order.reference, status: order.status, answers: total, of: answers },
      "provider does not know the order yet; kept open, its hold held",
    );
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
