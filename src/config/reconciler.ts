import { z } from "zod";
import { bool, emptyToUndefined, int, type Parsed } from "./fields.ts";

/** The reconciler: how often it asks the aggregator about orders without a final word, and which. */
export const reconcilerEnv = {
  RECONCILE_INTERVAL_MS: int(15_000, 100),
  RECONCILE_MIN_AGE_MS: int(20_000, 0),
  RECONCILE_MAX_AGE_MS: int(60 * 60_000, 1000),
  /**
   * An admin may settle an order that is still open after this long (src/orders/settle.ts): the
   * aggregator never ended it. Default 4 hours, past the stuck alert (RECONCILE_MAX_AGE_MS).
   */
  SETTLE_AFTER_MS: int(4 * 3_600_000, 0),
  /**
   * /settle writes what older versions cannot read (a history source "admin", `settled`, a
   * proposal, new alert topics: docs/deploying.md). Off by default: turn it on once no instance
   * of a version before /settle runs (nor will be rolled back to).
   */
  SETTLE_ENABLED: bool(false),
  /**
   * How long "not found" from the provider is not trusted after submit; default: the execute
   * timeout. Half of it is the window for an execute to leave after its submitting mark
   * (system/money-path.ts): at 0 almost no execute is sent, so a second is the floor.
   */
  RECONCILE_NOT_FOUND_GRACE_MS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(
        1000,
        "must be at least 1000: half of it is the window to send an execute after its submitting mark, and below that orders fail unsent",
      )
      .optional(),
  ),
  /**
   * An order whose execute may have reached the aggregator (timed out, 5xx, reset) is failed as
   * never executed, its hold voided, only after this many "not found" answers of the status
   * endpoint, spread over RECONCILE_NOT_FOUND_WINDOW_MS (one counted per window / answers).
   */
  // At most 20: the order's history keeps 20 places past its cap for these answers (transition-kit.ts).
  RECONCILE_NOT_FOUND_ANSWERS: int(3, 2).pipe(z.number().max(20)),
  /**
   * ...and not before this long after the send: a slow or queueing aggregator may record an
   * order minutes late. Default 30 minutes; the floor of 1 s is for test rigs: below minutes, an
   * aggregator that records late gives the customer a free recharge.
   */
  RECONCILE_NOT_FOUND_WINDOW_MS: int(30 * 60_000, 1000),
};
type ReconcilerEnv = Parsed<typeof reconcilerEnv>;

export function reconcilerSettings(e: ReconcilerEnv & { PROVIDER_EXECUTE_TIMEOUT_MS: number }) {
  return {
    intervalMs: e.RECONCILE_INTERVAL_MS,
    minAgeMs: e.RECONCILE_MIN_AGE_MS,
    maxAgeMs: e.RECONCILE_MAX_AGE_MS,
    settleAfterMs: e.SETTLE_AFTER_MS,
    settleEnabled: e.SETTLE_ENABLED,
    notFoundGraceMs: e.RECONCILE_NOT_FOUND_GRACE_MS ?? e.PROVIDER_EXECUTE_TIMEOUT_MS,
    notFoundAnswers: e.RECONCILE_NOT_FOUND_ANSWERS,
    notFoundWindowMs: e.RECONCILE_NOT_FOUND_WINDOW_MS,
  };
}
