import { DEFAULT_INR_TO_NPR_RATE, inrToNprPaisa, parseRate } from "../pricing/index.ts";
import type { Order, WalletEffects } from "./model.ts";

/**
 * The aggregator's debit of an order whose own figures never reached us (issue 25): the execute
 * answer was lost (a reset or 5xx after the aggregator committed, a timeout, Redis down when it
 * came, the process killed) and the success came from a status query or a webhook, neither of
 * which carries `credit_consumed` (spec 4.6, 6.2). The best figure the order has is what the
 * aggregator was asked to recharge: the face amount (spec 2.1: debit = amount + service charge −
 * instant discount; the charge and discount are unknown and taken as zero), an India order's ₹
 * converted to the wallet's Nepal rupees at the order's rate (the rate configured when it was
 * placed; the built-in default only for orders placed before it was recorded), rounded up as the
 * aggregator does. Also an execute answer without `debit_amount` on an India order: its worked-out
 * figure is in ₹ (eventFromExecute). Marked `inferred`: /books counts these apart.
 */
export function inferredWallet(order: Order): WalletEffects {
  const amountPaisa = order.price?.amountPaisa ?? order.amountPaisa;
  const debitAmountPaisa =
    order.region === "in"
      ? inrToNprPaisa(
          amountPaisa,
          order.exchange?.rateE4 ?? order.inrToNprRateE4 ?? DEFAULT_RATE_E4,
        )
      : amountPaisa;
  return {
    amountPaisa,
    serviceChargePaisa: 0,
    instantDiscountPaisa: 0,
    debitAmountPaisa,
    creditAvailablePaisa: null,
    source: "inferred",
  };
}

const DEFAULT_RATE_E4 = (() => {
  const r = parseRate(DEFAULT_INR_TO_NPR_RATE);
  if (!r.ok) throw new Error(r.why);
  return r.rateE4;
})();

/**
 * How far the aggregator's debit may be from an order's face amount in Nepal rupees, either way:
 * it adds its service charge and takes off its instant discount, neither bounded by the spec;
 * taken as at most the amount again. /books bounds a debit not known yet with it (books/scan.ts),
 * and a reported debit beyond it is alerted (figures-check.ts).
 */
export const UNKNOWN_DEBIT_FACTOR = 2;

/** Whether an order's recorded debit is an inference rather than the aggregator's own figure. */
export const isInferred = (w: WalletEffects | undefined): boolean => w?.source === "inferred";
