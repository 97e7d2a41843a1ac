import type { LedgerStore } from "../ledger/store.ts";
import type { Logger } from "../logger.ts";
import type { PaymentGateway } from "./gateway/port.ts";
import { refundShortfall, type TopUp } from "./model.ts";
import { needsLookup, needsPush, owedAlert } from "./state.ts";
import type { TopUpStore } from "./store.ts";
import type { TopUpsOptions } from "./types.ts";

/**
 * What the top-up service's parts share: the store, the gateway, the books, the clock, and the
 * reconciler's schedule (when a top-up is looked at next).
 */
export interface TopUpContext {
  opts: TopUpsOptions;
  store: TopUpStore;
  gateway: PaymentGateway;
  ledger: LedgerStore;
  logger: Logger;
  now: () => number;
}

/** Version races (two lookups at once) settle in a few rounds. */
export const MAX_ROUNDS = 10;
/** An open top-up this long after its link expired has no end in sight: the admins are told. */
export const STUCK_AFTER_MS = 3_600_000;

export function topUpContext(opts: TopUpsOptions): TopUpContext {
  const { store, gateway, ledger, logger } = opts;
  return { opts, store, gateway, ledger, logger, now: opts.now ?? Date.now };
}

/**
 * An open top-up still without an end from the gateway after the refund watch: looked up this
 * often until the gateway ends it (a Completed credits it as ever: the right amount only; the
 * admins had the stuck alert). Before, it left the schedule for good.
 */
export const ABANDONED_LOOKUP_EVERY_MS = 86_400_000;

/** A failed send is tried again at most this far apart (doubling from the lookup interval). */
export const RETRY_CAP_MS = 3_600_000;
/**
 * A customer's push that failed this many times in a row (about a day, at the capped interval) is
 * given up: the chat is as good as gone, and trying forever costs a send each time.
 */
export const PUSH_GIVE_UP_TRIES = 30;

/** How long after its `tries`-th failure in a row a send is tried again. */
export function retryDelay(opts: TopUpsOptions, tries: number): number {
  return Math.min(opts.lookupEveryMs * 2 ** Math.min(Math.max(tries - 1, 0), 30), RETRY_CAP_MS);
}

/**
 * An open top-up's lookups that failed this many times in a row are still tried again at the
 * lookup interval (a payer may be waiting for the chat's message; the gateway's outages are often
 * short); later ones back off, doubling, to at most `LOOKUP_RETRY_CAP_MS` apart.
 */
const LOOKUP_RETRIES_AT_INTERVAL = 4;
/** Well within a payment link's life (Khalti's: an hour), so a payment is seen soon after. */
const LOOKUP_RETRY_CAP_MS = 300_000;

/** How long after its `tries`-th failed lookup in a row an open top-up is looked up again. */
export function lookupRetryDelay(opts: TopUpsOptions, tries: number): number {
  const cap = Math.max(LOOKUP_RETRY_CAP_MS, opts.lookupEveryMs);
  return Math.min(retryDelay(opts, tries - LOOKUP_RETRIES_AT_INTERVAL + 1), cap);
}

/**
 * When an open top-up is next looked up after failed lookups in its status; null: none failed
 * (it is looked up at the lookup interval).
 */
export function lookupRetryAt(opts: TopUpsOptions, t: TopUp): number | null {
  const f = t.lookupFailed;
  if (!needsLookup(t) || !f || f.status !== t.status) return null;
  return f.at + lookupRetryDelay(opts, f.tries);
}

/**
 * When the customer's push of `t`'s status may be tried: -Infinity at once (not tried yet), or
 * after a backoff from its last failure; null: nothing to push (told already, or given up).
 */
export function pushDueAt(opts: TopUpsOptions, t: TopUp): number | null {
  if (!needsPush(t)) return null;
  const f = t.pushFailed;
  if (!f || f.status !== t.status) return Number.NEGATIVE_INFINITY;
  return f.gaveUp ? null : f.at + retryDelay(opts, f.tries);
}

/**
 * When the admins' alert of `t`'s status (held, a partial refund, a refund's reversal, no end in
 * sight) may be sent (again) to the admins that lack it, like `pushDueAt`; null: none is owed, or
 * every admin has it. It is never given up: it is money held, to settle or recover by hand, or a
 * payment nobody else will look at.
 */
export function adminAlertDueAt(opts: TopUpsOptions, t: TopUp): number | null {
  const owed = owedAlert(t);
  if (!owed) return null;
  const a = t[owed.field];
  return a && a.failures > 0 ? a.at + retryDelay(opts, a.failures) : Number.NEGATIVE_INFINITY;
}

/**
 * When a completed top-up's refund is next asked about: an interval after it was last asked (or
 * changed), while the refund watch lasts; null: not watched (any more). The watch counts from the
 * credit, not the creation: a hold an admin credits a week later is watched as long as any other
 * (review s23-a, 3).
 */
export function refundCheckAt(opts: TopUpsOptions, t: TopUp): number | null {
  if (t.status !== "completed") return null;
  const last = t.checkedAt ?? t.updatedAt;
  return refundWatchEnd(opts, t) > last ? last + opts.refundCheckEveryMs : null;
}

/**
 * When a completed top-up's refund watch ends: a Refunded seen before then reverses the credit by
 * itself (the admins' unknown-word alert names it, so nobody takes it back by hand as well).
 */
export function refundWatchEnd(opts: TopUpsOptions, t: TopUp): number {
  return (t.creditedAt ?? t.decision?.at ?? t.createdAt) + opts.refundWatchMs;
}

/** When the gateway should be asked about `t` next, computed at `at`; null: not any more. */
function lookupAt(opts: TopUpsOptions, t: TopUp, at: number): number | null {
  if (needsLookup(t)) {
    // Long past its link's expiry with no end from the gateway: an admin was told; look now
    // and then while the refund watch lasts, then daily until the gateway ends it.
    if (at <= t.expiresAt + STUCK_AFTER_MS)
      return lookupRetryAt(opts, t) ?? at + opts.lookupEveryMs;
    return t.createdAt + opts.refundWatchMs > at
      ? at + opts.refundCheckEveryMs
      : at + Math.max(ABANDONED_LOOKUP_EVERY_MS, opts.refundCheckEveryMs);
  }
  return refundCheckAt(opts, t);
}

/**
 * When the reconciler should look at `t` next; null: never again. The earliest of its lookup
 * and what it still has to tell (a push or an alert a failure or a crash left unsent: no sooner
 * than a lookup interval, as the caller tries it at once).
 */
export function dueAt(opts: TopUpsOptions, t: TopUp, at: number): number | null {
  const times: number[] = [];
  const soonest = at + opts.lookupEveryMs;
  for (const tell of [pushDueAt(opts, t), adminAlertDueAt(opts, t)])
    if (tell !== null) times.push(Math.max(tell, soonest));
  const look = lookupAt(opts, t, at);
  if (look !== null) times.push(look);
  // A refund's shortfall is taken back as the balance rises (an order's hold voided, money added):
  // its balance is read again each lookup interval until nothing is owed (refund-recovery.ts).
  if (refundShortfall(t) > 0) times.push(soonest);
  return times.length > 0 ? Math.min(...times) : null;
}
