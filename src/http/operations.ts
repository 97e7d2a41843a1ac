import { Gauge, type Registry } from "prom-client";
import { toRupeesNumber } from "../money.ts";
import { ORDER_STATUSES, type Order, type OrderStatus } from "../orders/model.ts";
import type { ProviderWatch } from "./provider-watch.ts";

/**
 * The gauges an operator watches (issue 26), computed when Prometheus scrapes, from figures that
 * cost little to read whatever the number of orders: balances the books keep as running totals
 * (one hash field each), the open-orders set (non-final orders only, read up to OPEN_SCAN_MAX),
 * the notification stream's length and oldest entry, the top-up schedule (open and watched
 * top-ups only), and the crossing marks of the product's own alerts. One snapshot per scrape
 * (all gauges read it); a part that fails makes its gauges NaN (no labels) or absent (labels).
 */

/** Open orders read per scrape at most (orders stuck by the thousand are an alarm in themselves). */
const OPEN_SCAN_MAX = 5_000;
const OPEN_PAGE = 500;
/** Top-ups on the reconciler's schedule read per scrape at most. */
const TOPUP_SCAN_MAX = 1_000;
const OPEN_TOPUP = ["initiated", "pending"] as const;

export interface OperationsSources {
  now: () => number;
  /** merchant:float (debit-normal) and merchant:sales's pending credits (held money), in paisa. */
  booksFloatPaisa: () => Promise<number>;
  heldPaisa: () => Promise<number>;
  orders: {
    listOpen(opts: { createdBefore: number; limit: number; offset?: number }): Promise<Order[]>;
  };
  /** Notifications queued and not yet done with. */
  notificationsQueued: () => Promise<number>;
  /** When the oldest queued notification was written (ms), null when none; Redis only. */
  oldestNotificationAt?: () => Promise<number | null>;
  /** The top-ups on the reconciler's schedule and each one's status; absent without a gateway. */
  topUps?: {
    due(now: number, limit: number): Promise<Array<[string, string]>>;
    get(gateway: string, paymentId: string): Promise<{ status: string } | null>;
  };
  /** Whether one of the product's own alerts is raised now (its crossing is "below"); Redis only. */
  alarm?: (name: "low-float" | "books-drift") => Promise<boolean>;
  provider: ProviderWatch;
  lowFloatAlertPaisa: number;
}

interface Snapshot {
  booksFloatPaisa?: number;
  heldPaisa?: number;
  open?: {
    byStatus: Map<OrderStatus, number>;
    oldestAt: number | null;
    inFlightPaisa: number;
    truncated: boolean;
  };
  queued?: number;
  oldestNotificationAt?: number | null;
  topUps?: { byGateway: Map<string, Map<string, number>> };
  alarms?: { lowFloat: boolean; booksDrift: boolean };
}

async function openOrders(src: OperationsSources): Promise<NonNullable<Snapshot["open"]>> {
  const byStatus = new Map<OrderStatus, number>();
  let oldestAt: number | null = null;
  let inFlightPaisa = 0;
  let read = 0;
  const before = src.now();
  for (;;) {
    const page = await src.orders.listOpen({
      createdBefore: before,
      limit: OPEN_PAGE,
      offset: read,
    });
    for (const o of page) {
      byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
      if (oldestAt === null || o.createdAt < oldestAt) oldestAt = o.createdAt;
      // The aggregator's debit known from the execute answer, not booked until success (books/report.ts).
      if (o.wallet) inFlightPaisa += o.wallet.debitAmountPaisa;
    }
    read += page.length;
    if (page.length < OPEN_PAGE) return { byStatus, oldestAt, inFlightPaisa, truncated: false };
    if (read >= OPEN_SCAN_MAX) return { byStatus, oldestAt, inFlightPaisa, truncated: true };
  }
}

async function topUpsOpen(t: NonNullable<OperationsSources["topUps"]>) {
  const byGateway = new Map<string, Map<string, number>>();
  const due = await t.due(Number.MAX_SAFE_INTEGER, TOPUP_SCAN_MAX);
  // Read together, not one round trip after the other (up to TOPUP_SCAN_MAX each scrape).
  const read = await Promise.all(due.map(([gateway, id]) => t.get(gateway, id)));
  for (const [i, [gateway]] of due.entries()) {
    const status = read[i]?.status;
    if (!status || !(OPEN_TOPUP as readonly string[]).includes(status)) continue;
    const counts = byGateway.get(gateway) ?? new Map<string, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    byGateway.set(gateway, counts);
  }
  return { byGateway };
}

/** Each part on its own: one that fails leaves only its gauges out. */
async function snapshot(src: OperationsSources): Promise<Snapshot> {
  const part = <T>(p: Promise<T>) => p.catch(() => undefined);
  const [booksFloat, held, open, queued, oldest, topUps, lowFloat, booksDrift] = await Promise.all([
    part(src.booksFloatPaisa()),
    part(src.heldPaisa()),
    part(openOrders(src)),
    part(src.notificationsQueued()),
    src.oldestNotificationAt ? part(src.oldestNotificationAt()) : undefined,
    src.topUps ? part(topUpsOpen(src.topUps)) : undefined,
    src.alarm ? part(src.alarm("low-float")) : undefined,
    src.alarm ? part(src.alarm("books-drift")) : undefined,
  ]);
  // The aggregator's figure: asked again when the last one is stale (one call in flight, shared
  // with readiness), not waited for: a scrape stays quick while the aggregator is down, and the
  // figure's timestamp gauge shows its age.
  void src.provider.answering();
  return {
    ...(booksFloat !== undefined ? { booksFloatPaisa: booksFloat } : {}),
    ...(held !== undefined ? { heldPaisa: held } : {}),
    ...(open ? { open } : {}),
    ...(queued !== undefined ? { queued } : {}),
    ...(oldest !== undefined ? { oldestNotificationAt: oldest } : {}),
    ...(topUps ? { topUps } : {}),
    ...(lowFloat !== undefined && booksDrift !== undefined
      ? { alarms: { lowFloat, booksDrift } }
      : {}),
  };
}

/** One gauge: its name, help and labels, and how it is filled from the scrape's snapshot. */
interface GaugeDef {
  name: string;
  help: string;
  labelNames: string[];
  fill: (g: Gauge, s: Snapshot) => void;
}

/**
 * A gauge without labels: prom-client always prints one of those (0 after a reset), so a figure
 * this scrape could not read is NaN, never a 0 that would be a false word about money.
 */
const single = (
  name: string,
  help: string,
  value: (s: Snapshot) => number | undefined,
): GaugeDef => ({ name, help, labelNames: [], fill: (g, s) => g.set(value(s) ?? Number.NaN) });
const rupees = (paisa: number | undefined) =>
  paisa === undefined ? undefined : toRupeesNumber(paisa);
const seconds = (ms: number) => ms / 1000;

export function registerOperationsMetrics(registry: Registry, src: OperationsSources) {
  // One snapshot per scrape: prom-client starts every metric's collect in the same tick, so
  // they share the read in flight; the next scrape reads afresh.
  let current: Promise<Snapshot> | undefined;
  const read = () => {
    current ??= snapshot(src).finally(() => {
      current = undefined;
    });
    return current;
  };
  const ageOf = (at: number | null | undefined) =>
    at === undefined ? undefined : at === null ? 0 : seconds(Math.max(0, src.now() - at));
  for (const def of [...moneyGauges(src), ...orderGauges(ageOf), ...queueGauges(ageOf)]) {
    new Gauge({
      name: def.name,
      help: def.help,
      labelNames: def.labelNames,
      registers: [registry],
      async collect() {
        const s = await read();
        this.reset();
        def.fill(this, s);
      },
    });
  }
}

type AgeOf = (at: number | null | undefined) => number | undefined;

/** The float (books, expected, reported), its alert threshold and the money held. */
function moneyGauges(src: OperationsSources): GaugeDef[] {
  return [
    single(
      "recharge_float_books_rupees",
      "The merchant's wallet at the aggregator as the books have it (merchant:float)",
      (s) => rupees(s.booksFloatPaisa),
    ),
    single(
      "recharge_float_expected_rupees",
      "The wallet the books expect at the aggregator: the books' float less the debits of open orders the aggregator already took",
      (s) =>
        s.booksFloatPaisa === undefined || !s.open
          ? undefined
          : rupees(s.booksFloatPaisa - s.open.inFlightPaisa),
    ),
    single(
      "recharge_float_reported_rupees",
      "The aggregator's credit_available in its last answer to this process",
      () => rupees(src.provider.last()?.creditAvailablePaisa),
    ),
    single(
      "recharge_float_reported_timestamp_seconds",
      "When the aggregator last answered this process with the wallet's figure",
      () => {
        const at = src.provider.last()?.at;
        return at === undefined ? undefined : seconds(at);
      },
    ),
    single(
      "recharge_float_low_alert_threshold_rupees",
      "LOW_FLOAT_ALERT: a reported float below this alerts the admins (0: off)",
      () => rupees(src.lowFloatAlertPaisa),
    ),
    single(
      "recharge_held_rupees",
      "Customers' and agents' money held for orders not final yet (merchant:sales pending credits)",
      (s) => rupees(s.heldPaisa),
    ),
  ];
}

/** Orders not final: by status, the oldest's age, and whether the count was cut short. */
function orderGauges(ageOf: AgeOf): GaugeDef[] {
  return [
    {
      name: "recharge_open_orders",
      help: "Orders not final, by status",
      labelNames: ["status"],
      fill: (g, s) => {
        if (!s.open) return;
        for (const status of ORDER_STATUSES) {
          if (status === "success" || status === "failed") continue;
          g.set({ status }, s.open.byStatus.get(status) ?? 0);
        }
      },
    },
    single(
      "recharge_open_orders_oldest_age_seconds",
      "Age of the oldest order not final (0 when none)",
      (s) => (s.open ? ageOf(s.open.oldestAt) : undefined),
    ),
    single(
      "recharge_open_orders_truncated",
      `1 when more than ${OPEN_SCAN_MAX} orders are open and the open-order gauges count only the oldest ${OPEN_SCAN_MAX}`,
      (s) => (s.open ? (s.open.truncated ? 1 : 0) : undefined),
    ),
  ];
}

/** What waits: pushes queued (and for how long), top-ups not yet paid, alerts standing. */
function queueGauges(ageOf: AgeOf): GaugeDef[] {
  return [
    single(
      "recharge_notifications_queued",
      "Push messages queued and not yet delivered, dropped or dead-lettered",
      (s) => s.queued,
    ),
    single(
      "recharge_notifications_oldest_age_seconds",
      "How long the oldest queued push has waited (0 when none): the notifier's lag",
      (s) => ageOf(s.oldestNotificationAt),
    ),
    {
      name: "recharge_gateway_topups_open",
      help: "Online top-ups (Khalti) started and not yet paid, expired or cancelled, by gateway and status",
      labelNames: ["gateway", "status"],
      fill: (g, s) => {
        if (!s.topUps) return;
        const gateways = s.topUps.byGateway.size > 0 ? [...s.topUps.byGateway.keys()] : ["khalti"];
        for (const gateway of gateways) {
          for (const status of OPEN_TOPUP) {
            g.set({ gateway, status }, s.topUps.byGateway.get(gateway)?.get(status) ?? 0);
          }
        }
      },
    },
    {
      name: "recharge_alert_active",
      help: "1 while one of the product's own alerts to the admins stands (low_float, books_drift): re-armed only by a reading back on the right side",
      labelNames: ["alert"],
      fill: (g, s) => {
        if (!s.alarms) return;
        g.set({ alert: "low_float" }, s.alarms.lowFloat ? 1 : 0);
        g.set({ alert: "books_drift" }, s.alarms.booksDrift ? 1 : 0);
      },
    },
  ];
}
