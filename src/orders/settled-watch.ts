import type { Logger } from "../logger.ts";
import { ProviderNotFoundError } from "../provider/errors.ts";
import type { Apply } from "./apply.ts";
import { providerReference } from "./execute-request.ts";
import { isFinal, type Order } from "./model.ts";
import { answerAbout, eventFromStatus, type OrdersProvider } from "./provider-events.ts";
import { reversalAsFailed } from "./reversal.ts";
import type { OrderStore } from "./store.ts";

/**
 * Orders an admin settled (settle.ts) are asked about again: the aggregator never gave its final
 * word before, and may give it later. The settlement watches the order (before its own write; an
 * entry whose settlement was never written is dropped when due); the reconciler asks a few due
 * ones per tick, less and less often (half the settlement's age, at least FIRST_ASK_MS, at most
 * MAX_DELAY_MS), until a final answer is recorded on the order (`settled.contradictedAt`: the
 * opposite, recorded and alerted once through the contradiction path of state.ts;
 * `settled.confirmedAt`: the same) or MAX_AGE_MS after the settlement. No money moves either way.
 * An ask that throws (the order unreadable, a write refused) is asked again later, backing off,
 * so that a few such entries cannot hold the head of the due list for good.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const SETTLED_WATCH = {
  /** The first question, this long after the settlement. */
  firstAskMs: 15 * MINUTE,
  maxDelayMs: 6 * HOUR,
  /** Asked no more this long after the settlement. */
  maxAgeMs: 7 * 24 * HOUR,
  /** Settled orders asked per reconciler tick. */
  perTick: 5,
};

/** When a settled order is asked next: half its settlement's age from now, within bounds. */
export function nextAskAt(settledAt: number, now: number): number {
  const half = Math.floor(Math.max(0, now - settledAt) / 2);
  return now + Math.min(SETTLED_WATCH.maxDelayMs, Math.max(SETTLED_WATCH.firstAskMs, half));
}

/** The aggregator's final word is on the order: nothing more to ask. */
export const answered = (s: NonNullable<Order["settled"]>): boolean =>
  s.contradictedAt !== undefined || s.confirmedAt !== undefined;

export interface SettledWatchCounts {
  /** Settled orders asked this tick. */
  settledAsked: number;
  /** Final answers recorded on settled orders this tick. */
  settledAnswered: number;
  errors: number;
}

export function settledWatch(o: {
  orders: { apply: Apply; get(reference: string): Promise<Order | null> };
  store: Pick<OrderStore, "dueSettled" | "watchSettled" | "unwatchSettled">;
  provider: Pick<OrdersProvider, "statusByReference">;
  now: () => number;
  log: Logger | undefined;
  perTick?: number;
  maxAgeMs?: number;
}) {
  const { orders, store, provider, now, log } = o;
  const maxAgeMs = o.maxAgeMs ?? SETTLED_WATCH.maxAgeMs;
  /**
   * Entries whose ask threw (the order unreadable, a write refused), per reference: how often in
   * a row and since when. This process's memory only: a restart starts the back-off anew.
   */
  const failing = new Map<string, { times: number; since: number }>();

  /**
   * An ask that threw is asked again later, FIRST_ASK_MS doubled per failure in a row, at most
   * MAX_DELAY_MS, and no more once it has failed for MAX_AGE_MS: left where it was, an entry that
   * always throws stayed among the soonest due, and a few of them stopped every other settled
   * order from being asked.
   */
  async function afterFailure(reference: string, dueAt: number): Promise<void> {
    const t = now();
    const before = failing.get(reference);
    const f = { times: (before?.times ?? 0) + 1, since: before?.since ?? t };
    if (failing.size >= 10_000 && !before) failing.clear();
    failing.set(reference, f);
    if (t - f.since > maxAgeMs) {
      failing.delete(reference);
      log?.error(
        { reference, failures: f.times, since: f.since },
        "settled order: asking about it kept failing; asked no more",
      );
      return store.unwatchSettled(reference, dueAt);
    }
    const delay = Math.min(
      SETTLED_WATCH.maxDelayMs,
      SETTLED_WATCH.firstAskMs * 2 ** Math.min(f.times - 1, 20),
    );
    return store.watchSettled(reference, t + delay);
  }

  async function askOne(order: Order, dueAt: number, report: SettledWatchCounts): Promise<void> {
    const s = order.settled;
    if (!s) return;
    const ref = order.reference;
    const again = () => store.watchSettled(ref, nextAskAt(s.at, now()));
    report.settledAsked++;
    let event: ReturnType<typeof eventFromStatus>;
    try {
      const asked = providerReference(order);
      const answer = answerAbout(await provider.statusByReference(order.region, asked), asked);
      event = eventFromStatus(
        order,
        answer,
        "reconciler",
        now(),
        "asked after an admin's settlement",
      );
    } catch (err) {
      const why = err instanceof ProviderNotFoundError ? "not found" : String(err).slice(0, 120);
      log?.warn(
        { reference: ref, said: why },
        "settled order: no final answer from the aggregator",
      );
      return again();
    }
    // An answer about another recharge under its reference says nothing of this one (state.ts).
    // A reversal word on a success ("refunded", reversal.ts) is the aggregator's final word too.
    const final = event.status !== null && isFinal(event.status) && !event.otherRecharge;
    if (!final && reversalAsFailed(order, event) === null) return again();
    const r = await orders.apply({ reference: ref, ...event }, order);
    const after = r.order?.settled;
    if (after && answered(after)) {
      report.settledAnswered++;
      log?.warn(
        { reference: ref, settledAs: order.status, aggregator: event.status ?? event.unrecognised },
        "settled order: the aggregator's final answer recorded",
      );
      return store.unwatchSettled(ref, dueAt);
    }
    return again();
  }

  /** One tick's share: a few due settled orders asked, each answer recorded (never throws). */
  async function pass(report: SettledWatchCounts): Promise<void> {
    let due: { reference: string; dueAt: number }[];
    try {
      due = await store.dueSettled(now(), o.perTick ?? SETTLED_WATCH.perTick);
    } catch (err) {
      report.errors++;
      log?.warn({ err: String(err).slice(0, 200) }, "listing settled orders to ask failed");
      return;
    }
    for (const { reference, dueAt } of due) {
      try {
        const order = await orders.get(reference);
        const s = order?.settled;
        // No settlement written (its write failed; a new one watches again), or final word in.
        if (!order || !s || answered(s)) {
          await store.unwatchSettled(reference, dueAt);
        } else if (now() - s.at > maxAgeMs) {
          log?.warn(
            { reference, settledAs: order.status, settledAt: s.at },
            "settled order: no final answer from the aggregator within the limit; asked no more",
          );
          await store.unwatchSettled(reference, dueAt);
        } else await askOne(order, dueAt, report);
        failing.delete(reference);
      } catch (err) {
        report.errors++;
        log?.warn(
          { reference, err: err instanceof Error ? err.message : String(err) },
          "asking about a settled order failed; asked again later",
        );
        await afterFailure(reference, dueAt).catch((e: unknown) =>
          log?.warn(
            { reference, err: e instanceof Error ? e.message : String(e) },
            "rescheduling a settled order failed",
          ),
        );
      }
    }
  }

  return { pass };
}
