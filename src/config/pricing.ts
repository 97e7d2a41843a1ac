import { z } from "zod";
import { DEFAULT_INR_TO_NPR_RATE, parseRate } from "../pricing/exchange.ts";
import type { PriceSchedule } from "../pricing/schedule.ts";
import { emptyToUndefined, optionalString, type Parsed } from "./fields.ts";

/** What an order costs the customer: the merchant's price schedule and the rupee rate. */
export const pricingEnv = {
  /** The merchant's price schedule (src/pricing/); unset: face amount, no fee, no discount. */
  PRICE_SCHEDULE_FILE: optionalString,
  /**
   * Nepal rupees per 1 Indian rupee (at most four decimals; default the official peg, 1.6): an India
   * order in prepaid mode is paid from the Nepal-rupee balance at this rate, rounded up to the paisa.
   */
  INR_TO_NPR_RATE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(DEFAULT_INR_TO_NPR_RATE)
      .transform((text, ctx) => {
        const r = parseRate(text);
        if (!r.ok) {
          ctx.addIssue({ code: "custom", message: r.why });
          return z.NEVER;
        }
        return r.rateE4;
      }),
  ),
};
type PricingEnv = Parsed<typeof pricingEnv>;

/** `schedule`: the file's, read once at start (src/config/prices-file.ts). */
export function pricingSettings(e: PricingEnv, schedule: PriceSchedule) {
  return {
    scheduleFile: e.PRICE_SCHEDULE_FILE,
    schedule,
    /** NPR per 1 INR in ten-thousandths (INR_TO_NPR_RATE "1.6" -> 16000). */
    inrToNprRateE4: e.INR_TO_NPR_RATE,
  };
}
