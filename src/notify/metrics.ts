import { Counter, type Registry } from "prom-client";

/**
 * The notifier's own counters: pushes whose first send has an unknown outcome. Telegram has no
 * idempotency key for sendMessage, so after a lost answer (timeout, reset, 5xx) or a consumer that
 * died mid-send, nobody can tell whether the chat has the message. Without a registry, no-ops.
 */
export interface PushMetrics {
  /** A send's outcome was unknown; `then`: "receipt" (not sent again) or "sent_again". */
  outcomeUnknown(kind: string, then: "receipt" | "sent_again"): void;
  /** Sent again after an unknown outcome: the chat may show this push twice. */
  possibleDuplicate(kind: string): void;
  /** Not sent: the store, read again after a reconnect, no longer holds the announced status. */
  withheld(kind: string): void;
}

function counter(registry: Registry, name: string, help: string, labelNames: string[]) {
  const existing = registry.getSingleMetric(name);
  return existing instanceof Counter
    ? existing
    : new Counter({ name, help, labelNames, registers: [registry] });
}

export function createPushMetrics(registry?: Registry): PushMetrics {
  if (!registry) return { outcomeUnknown() {}, possibleDuplicate() {}, withheld() {} };
  const unknown = counter(
    registry,
    "notify_push_outcome_unknown_total",
    "Pushes whose send may or may not have reached the chat (answer lost, or the sender died mid-send), by what was done then",
    ["kind", "then"],
  );
  const duplicates = counter(
    registry,
    "notify_push_possible_duplicates_total",
    "Pushes sent again after a send with an unknown outcome: the chat may show them twice",
    ["kind"],
  );
  const withheld = counter(
    registry,
    "notify_push_withheld_total",
    "Final pushes not sent because the order no longer had the status they announce (a Redis restart or failover lost it); the order's next final status is pushed instead",
    ["kind"],
  );
  return {
    outcomeUnknown: (kind, then) => unknown.inc({ kind, then }),
    possibleDuplicate: (kind) => duplicates.inc({ kind }),
    withheld: (kind) => withheld.inc({ kind }),
  };
}
