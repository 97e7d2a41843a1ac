import type { Registry } from "prom-client";
import type { Logger } from "../logger.ts";
import type { Lease } from "./lease.ts";
import { createMoneyPathMetrics, type MoneyPathMetrics } from "./metrics.ts";
import { reconcileOne } from "./reconcile-order.ts";
import type { Orders, OrdersProvider } from "./service.ts";
import { settledWatch } from "./settled-watch.ts";

/**
 * Asks the provider about orders whose outcome is not final and feeds the answers through
 * orders.apply. Several processes may run it: a lease lets one of them work per tick (the work is
 * idempotent anyway; the lease avoids duplicate status queries).
 *
 * Per open order older than minAgeMs:
 *  - placed for longer than placedTimeoutMs: the execute request never left (we mark submitting
 *    before sending), so it fails as "not submitted", conditional on still being placed;
 *  - submitting: left alone while its execute request may still be in flight (executeTimeoutMs +
 *    notFoundGraceMs after submittedAt), then queried like unknown;
 *  - unknown / queued / pending / stale submitting: status by reference. An answer goes through
 *    apply; "not found" for a submitting/unknown order past that window is counted (a history
 *    entry, at most one per notFoundWindowMs / notFoundAnswers; the order is not asked again
 *    before its next answer may count, reconcile-order.ts); once notFoundAnswers were counted
 *    and notFoundWindowMs has passed since the send, the provider never executed it: failed,
 *    nothing debited (conditional on the state it was decided from). Until then the order stays
 *    open and its hold held: a slow aggregator may still record it. Only the client's
 *    ProviderNotFoundError (the provider's own error body on a 4xx) counts: a gateway's HTML 404,
 *    a 5xx, an empty body or JSON of another shape is a failed query, tried again next tick;
 *  - still not final after maxAgeMs: flagged once, each admin alerted once (through the outbox).
 *
 * Then a few orders an admin settled are asked about again (settled-watch.ts), until the
 * aggregator's final answer is recorded on them (a contradiction alerts the admins once).
 *
 * Status queries per tick: at most batchSize (each open order at most once), concurrency at a
 * time; an order waiting for its next counted "not found" costs none.
 */

export interface ReconcilerOptions {
  orders: Orders;
  provider: Pick<OrdersProvider, "statusByReference">;
  lease: Lease;
  logger?: Logger;
  now?: () => number;
  /** Tick period (RECONCILE_INTERVAL_MS). */
  intervalMs: number;
  /** Orders younger than this are left to the execute response and the webhook (RECONCILE_MIN_AGE_MS). */
  minAgeMs: number;
  /** Older non-final orders are flagged and admins alerted (RECONCILE_MAX_AGE_MS). */
  maxAgeMs: number;
  /** The provider client's execute timeout (PROVIDER_EXECUTE_TIMEOUT_MS). */
  executeTimeoutMs: number;
  /** Extra wait after the execute timeout before "not found" is believed. Default: executeTimeoutMs. */
  notFoundGraceMs?: number;
  /** "Not found" answers needed before an order is failed as never executed. Default 3. */
  notFoundAnswers?: number;
  /** Not failed as never executed before this long after the send. Default 30 minutes. */
  notFoundWindowMs?: number;
  /** A placed order not submitted within this time fails as "not submitted". Default 2 x executeTimeoutMs + minAgeMs. */
  placedTimeoutMs?: number;
  /** Telegram chat ids of the admins to alert (ADMIN_IDS). */
  adminChatIds: number[];
  /** Orders looked at per tick. Default 500. */
  batchSize?: number;
  /** Parallel status queries. Default 8. */
  concurrency?: number;
  /** Settled orders asked again per tick (settled-watch.ts). Default SETTLED_WATCH.perTick. */
  settledPerTick?: number;
  /**
   * Run first in each tick this process holds the lease (its failure logged, the tick goes on):
   * the books' hourly alerts' flush (books/hourly-alert.ts), so the count of an hour that ended
   * is told within a tick of its end on whichever process reconciles.
   */
  eachTick?: (at: number) => Promise<unknown>;
  /** Lease name, for running independent reconcilers on one Redis (tests). Default "reconciler". */
  leaseName?: string;
  registry?: Registry;
  metrics?: MoneyPathMetrics;
}

export interface ReconcileReport {
  /** Another process holds the lease this tick. */
  skipped: boolean;
  examined: number;
  queried: number;
  changed: number;
  notExecuted: number;
  flagged: number;
  errors: number;
  /** Settled orders asked again, and final answers recorded on them (settled-watch.ts). */
  settledAsked: number;
  settledAnswered: number;
}

export { NOT_EXECUTED_MESSAGE } from "./reconcile-order.ts";

const emptyReport = (): ReconcileReport => ({
  skipped: false,
  examined: 0,
  queried: 0,
  changed: 0,
  notExecuted: 0,
  flagged: 0,
  errors: 0,
  settledAsked: 0,
  settledAnswered: 0,
});

/** The tick's own task (`eachTick`): a failure is logged and counted, the tick goes on. */
async function runEachTick(opts: ReconcilerOptions, at: number, report: ReconcileReport) {
  try {
    await opts.eachTick?.(at);
  } catch (err) {
    report.errors++;
    opts.logger?.warn(
      { err: err instanceof Error ? err.message : String(err) },
      "the reconciler's each-tick task failed",
    );
  }
}

export function createReconciler(opts: ReconcilerOptions) {
  const { orders, provider, lease } = opts;
  const now = opts.now ?? Date.now;
  const log = opts.logger;
  const metrics = opts.metrics ?? createMoneyPathMetrics(opts.registry);
  const batchSize = opts.batchSize ?? 500;
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  const leaseName = opts.leaseName ?? "reconciler";
  let cursor = 0;

  const one = reconcileOne({
    orders,
    provider,
    now,
    log,
    executeTimeoutMs: opts.executeTimeoutMs,
    grace: opts.notFoundGraceMs ?? opts.executeTimeoutMs,
    notFound: {
      answers: Math.max(1, opts.notFoundAnswers ?? 3),
      windowMs: opts.notFoundWindowMs ?? 30 * 60_000,
    },
    placedTimeout: opts.placedTimeoutMs ?? 2 * opts.executeTimeoutMs + opts.minAgeMs,
    maxAgeMs: opts.maxAgeMs,
    adminChatIds: opts.adminChatIds,
  });

  const settled = settledWatch({
    orders,
    store: orders.store,
    provider,
    now,
    log,
    ...(opts.settledPerTick === undefined ? {} : { perTick: opts.settledPerTick }),
  });

  async function runOnce(): Promise<ReconcileReport> {
    const report = emptyReport();
    let held: boolean;
    try {
      held = await lease.acquire(leaseName, Math.max(opts.intervalMs, 1_000));
    } catch (err) {
      metrics.reconcilerRuns.inc({ outcome: "error" });
      log?.warn(
        { err: err instanceof Error ? err.message : String(err) },
        "reconciler lease failed",
      );
      return { ...report, skipped: true, errors: 1 };
    }
    if (!held) {
      metrics.reconcilerRuns.inc({ outcome: "skipped" });
      return { ...report, skipped: true };
    }
    await runEachTick(opts, now(), report);
    // Pages through the open set across ticks, so orders stuck for good (flagged, still pending)
    // cannot starve newer ones out of the batch. The cursor skips only what is still open.
    const open = await orders.store.listOpen({
      createdBefore: now() - opts.minAgeMs,
      limit: batchSize,
      offset: cursor,
    });
    const finalized = new Set<string>();
    report.examined = open.length;
    let next = 0;
    const worker = async () => {
      while (next < open.length) {
        const order = open[next++];
        if (!order) break;
        try {
          await one.examine(order, report, finalized);
          await one.flagIfStuck(order, report);
        } catch (err) {
          report.errors++;
          log?.warn(
            { reference: order.reference, err: err instanceof Error ? err.message : String(err) },
            "reconciling an order failed",
          );
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, open.length) }, worker));
    cursor = open.length < batchSize ? 0 : cursor + open.length - finalized.size;
    await settled.pass(report);
    metrics.reconcilerRuns.inc({ outcome: report.errors > 0 ? "partial" : "ok" });
    if (report.changed || report.flagged || report.errors || report.settledAnswered) {
      log?.info({ ...report }, "reconciler tick");
    }
    return report;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  const tick = () => {
    if (stopped) return;
    running = runOnce()
      .catch((err) =>
        log?.error(
          { err: err instanceof Error ? err.message : String(err) },
          "reconciler tick failed",
        ),
      )
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, opts.intervalMs);
      });
  };

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(tick, opts.intervalMs);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

export type Reconciler = ReturnType<typeof createReconciler>;
