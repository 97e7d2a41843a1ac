import {
  DEFAULT_INR_TO_NPR_RATE,
  DEFAULT_PRICE_SCHEDULE,
  inrToNprPaisa,
  type NprCharge,
  nprCharge,
  type PriceSchedule,
  parseRate,
  type Quote,
  quote,
} from "../pricing/index.ts";
import type { Order } from "./model.ts";

/**
 * Who pays (ACCESS_MODE): prepaid, the customer's balance is held; staff, the merchant's wallet
 * pays (no hold; the chat lets only listed users order). No default: whoever builds the service
 * says which (the composition root: config.accessMode).
 */
export type AccessMode = "prepaid" | "staff";

type Draft = { category: Order["category"]; operatorId: number; amountPaisa: number };

function defaultRateE4(): number {
  const r = parseRate(DEFAULT_INR_TO_NPR_RATE);
  if (!r.ok) throw new Error(r.why);
  return r.rateE4;
}

/** What a customer pays for a draft, in the price's currency and in their balance's. */
export function createCharges(opts: {
  pricing?: PriceSchedule | undefined;
  accessMode: AccessMode;
  inrToNprRateE4?: number | undefined;
}) {
  const schedule = opts.pricing ?? DEFAULT_PRICE_SCHEDULE;
  const rateE4 = opts.inrToNprRateE4 ?? defaultRateE4();

  /**
   * The price a customer pays for a draft: the same figures the confirm screen shows. In staff
   * mode nobody pays a fee (the merchant's wallet pays the face amount and no fee is booked), so
   * the price is the face amount: confirmation, receipt and /history all show what is collected.
   */
  const priceOf = (d: Draft): Quote =>
    opts.accessMode === "staff"
      ? { amountPaisa: d.amountPaisa, feePaisa: 0, discountPaisa: 0, totalPaisa: d.amountPaisa }
      : quote(schedule, {
          category: d.category,
          operatorId: d.operatorId,
          amountPaisa: d.amountPaisa,
        });

  /**
   * What a prepaid customer's Nepal-rupee balance pays for a draft priced in ₹ (an India order):
   * the price converted at the configured rate. Undefined when the balance pays the price as it
   * is (a Nepal order) or nobody's balance pays (staff mode).
   */
  const exchangeOf = (d: Draft & { region: Order["region"] }): NprCharge | undefined =>
    opts.accessMode === "prepaid" && d.region === "in" ? nprCharge(priceOf(d), rateE4) : undefined;

  /**
   * What the daily spend cap counts for a draft, in Nepal paisa (the cap is in Nepal rupees): what
   * the balance pays (the converted total of an India order, fee included); in staff mode the face
   * amount, an India one converted at the rate.
   */
  const spendOf = (d: Draft & { region: Order["region"] }): number => {
    const x = exchangeOf(d);
    if (x) return x.totalPaisa;
    const total = priceOf(d).totalPaisa;
    return d.region === "in" ? inrToNprPaisa(total, rateE4) : total;
  };

  return { priceOf, exchangeOf, spendOf, rateE4 };
}

export type Charges = ReturnType<typeof createCharges>;
