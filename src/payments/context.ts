import type { LedgerStore } from "../ledger/store.ts";
import type { Logger } from "../logger.ts";
import type { PaymentGateway } from "./gateway/port.ts";
import type { TopUp } from "./model.ts";
import { needsAdminAlert, needsLookup, needsPush } from "./state.ts";
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

/** When the reconciler should look at `t` next; null: never again. */
export function dueAt(opts: TopUpsOptions, t: TopUp, at: number): number | null {
  if (needsPush(t) || needsAdminAlert(t)) return at + opts.lookupEveryMs;
  if (needsLookup(t)) {
    // Long past its link's expiry with no end from the gateway: an admin was told; look now
    // and then, and give up when the refund watch would have ended.
    if (at <= t.expiresAt + STUCK_AFTER_MS) return at + opts.lookupEveryMs;
    return t.createdAt + opts.refundWatchMs > at ? at + opts.refundCheckEveryMs : null;
  }
  if (t.status === "completed" && t.createdAt + opts.refundWatchMs > at)
    return at + opts.refundCheckEveryMs;
  return null;
}
