import type { Logger } from "../logger.ts";
import type { Notification } from "../orders/model.ts";
import type { WalletReading } from "../orders/service.ts";
import type { Crossings } from "./crossing.ts";

/**
 * The low-float alert (issue 15): every execute answer tells the merchant's wallet at the
 * aggregator (`credit_available`), and a refusal for insufficient balance says it is short. Below
 * the threshold the admins get one alert; the next one only after a reading at or above it.
 */

export interface FloatWatchOptions {
  /**
   * Alert below this (LOW_FLOAT_ALERT); 0 switches the alert off (and clears one standing: see
   * `observe`; /books shows none meanwhile, report.ts).
   */
  thresholdPaisa: number;
  adminChatIds: readonly number[];
  crossings: Crossings;
  /** Asked after a refusal, so the alert can say the wallet's figure; errors leave it out. */
  walletBalance?: () => Promise<{ creditAvailablePaisa: number }>;
  logger?: Logger;
}

export const LOW_FLOAT = "low-float";

export function createFloatWatch(opts: FloatWatchOptions) {
  return async function observe(r: WalletReading): Promise<boolean> {
    if (opts.thresholdPaisa <= 0) {
      // Off: an alert left standing from when it was on is cleared by the next reading, so it
      // does not stand for good (the same one SET a reading above makes when it is on).
      if (r.refused || r.creditAvailablePaisa !== undefined) {
        await opts.crossings.record(LOW_FLOAT, false, [], r.at);
      }
      return false;
    }
    let below: boolean;
    if (r.refused) below = true;
    else if (r.creditAvailablePaisa === undefined) return false;
    else below = r.creditAvailablePaisa < opts.thresholdPaisa;
    const figures: Record<string, number> = { thresholdPaisa: opts.thresholdPaisa };
    let balance = r.creditAvailablePaisa;
    if (balance === undefined && opts.walletBalance) {
      balance = await opts
        .walletBalance()
        .then((w) => w.creditAvailablePaisa)
        .catch(() => undefined);
    }
    if (balance !== undefined) figures.balancePaisa = balance;
    if (r.refused) figures.refused = 1;
    // Only an alert names the order's status: a re-arm does not wait for the order's write.
    const status = below ? await r.status : undefined;
    const alerts: Notification[] = status
      ? opts.adminChatIds.map((chatId) => ({
          kind: "admin_alert",
          topic: "low_float",
          reference: r.reference,
          status,
          chatId,
          at: r.at,
          figures,
        }))
      : [];
    // With the reading's time: a low answer from before a refill, whose alert waited for the
    // order's write while the refill's re-arm did not, is stale and does not alert.
    const alerted = await opts.crossings.record(LOW_FLOAT, below, alerts, r.at);
    if (alerted) opts.logger?.warn({ ...figures, reference: r.reference }, "low float alert");
    return alerted;
  };
}
