import { Counter, type Registry } from "prom-client";

/**
 * Counters of the money path. Optional: without a registry every hook is a no-op. Several parts (and
 * several instances in one process, as in tests) may ask for the same registry: an existing metric
 * is reused rather than registered twice.
 */

type Labels = Record<string, string>;
export interface CounterHook {
  inc(labels?: Labels): void;
}

const NOOP: CounterHook = { inc() {} };

function counter(
  registry: Registry | undefined,
  name: string,
  help: string,
  labelNames: string[],
): CounterHook {
  if (!registry) return NOOP;
  const existing = registry.getSingleMetric(name);
  const c =
    existing instanceof Counter
      ? existing
      : new Counter({ name, help, labelNames, registers: [registry] });
  return { inc: (labels) => (labels ? c.inc(labels) : c.inc()) };
}

export function createMoneyPathMetrics(registry?: Registry) {
  return {
    webhooksReceived: counter(
      registry,
      "recharge_webhooks_received_total",
      "Provider webhook requests received",
      ["method"],
    ),
    webhooksRejected: counter(
      registry,
      "recharge_webhooks_rejected_total",
      "Provider webhook requests rejected (reason is internal, never sent back)",
      ["reason"],
    ),
    transitions: counter(registry, "recharge_order_transitions_total", "Order status changes", [
      "from",
      "to",
      "source",
    ]),
    notificationsSent: counter(
      registry,
      "recharge_notifications_sent_total",
      "Notifications delivered to a chat",
      ["kind"],
    ),
    notificationsFailed: counter(
      registry,
      "recharge_notifications_failed_total",
      "Notification delivery failures",
      ["reason"],
    ),
    reconcilerRuns: counter(registry, "recharge_reconciler_runs_total", "Reconciler ticks", [
      "outcome",
    ]),
  };
}
export type MoneyPathMetrics = ReturnType<typeof createMoneyPathMetrics>;
