import type { System } from "../../src/system/index.ts";

/**
 * A running system by the flat names tests and benchmarks read it by. The composition root
 * returns what main.ts needs (url, logger, stop) and its parts by concern (`parts`); this is the
 * one place that names where each of them is.
 */
export function viewOf(system: System) {
  const { parts } = system;
  const { money, stores, local } = parts;
  return {
    url: system.url,
    port: system.port,
    metricsUrl: system.metricsUrl,
    logger: system.logger,
    stop: system.stop,
    config: parts.config,
    app: parts.app,
    registry: parts.registry,
    redis: parts.redis,
    bot: parts.bot,
    deps: parts.deps,
    notifier: parts.notifier,
    /** The reminder worker (src/reminders/): tests tick it after moving the clock. */
    reminders: parts.reminders,
    catalogSync: parts.catalogSync,
    provider: money.provider,
    orders: money.orders,
    webhook: money.webhook,
    reconciler: money.reconciler,
    books: money.books,
    booksCheck: money.booksCheck,
    store: stores.store,
    ledger: stores.ledger,
    queue: stores.queue,
    /** The books' crossings and notes (alerts' states, the hourly alerts' windows). */
    crossings: stores.crossings,
    /** What the notifier sent for each order (the back office's timeline). */
    sentLog: stores.sentLog,
    topUps: parts.topUp?.topUps,
    topUpReconciler: parts.topUp?.reconciler,
    sandbox: local?.sandbox,
    emulator: local?.emulator,
    /** The Khalti stand-in of local mode (tests drive its faults and refunds). */
    khalti: local?.khaltiStandIn,
    /** The WhatsApp Cloud API stand-in of local mode (tests write as customers' phones). */
    whatsapp: local?.whatsappStandIn,
    /** The product's WhatsApp channel (its chat store, queue), when one is wired. */
    whatsappChannel: parts.whatsapp,
  };
}

export type SystemView = ReturnType<typeof viewOf>;
