import type { Category } from "../../src/catalog/index.ts";
import { inrToNprPaisa } from "../../src/pricing/index.ts";

/**
 * The sandbox's fee rules (the spec names the fields, not the rates). All integer paisa, percentages
 * rounded down to the paisa. Commission is reported only for the categories the spec shows it for
 * (DTH, mobile, landline, India); it never changes the debit.
 *
 * One wallet in Nepal rupees serves both regions. An India order's `amount` is Indian rupees; its
 * debit (and the commission, and the wallet's balance) are the wallet's Nepal rupees: amount +
 * service charge − instant discount in ₹, converted at the sandbox's own rate and rounded up to
 * the paisa. So for India `debit_amount` is not `amount` + charge − discount in the same units.
 */

/** The peg, NPR 1.60 per INR 1: the sandbox's rate unless told another (SandboxOptions). */
export const SANDBOX_INR_TO_NPR_RATE_E4 = 16_000;

interface FeeRule {
  /** Flat service charge in paisa. */
  serviceChargePaisa: number;
  /** Instant discount in basis points of the amount (100 = 1 %). */
  instantDiscountBps: number;
  /** Commission in basis points; undefined where the response carries no commission. */
  commissionBps?: number;
}

export const FEE_RULES: Record<Category, FeeRule> = {
  mobile: { serviceChargePaisa: 0, instantDiscountBps: 0, commissionBps: 300 },
  landline: { serviceChargePaisa: 0, instantDiscountBps: 0, commissionBps: 200 },
  india: { serviceChargePaisa: 0, instantDiscountBps: 0, commissionBps: 200 },
  dth: { serviceChargePaisa: 0, instantDiscountBps: 0, commissionBps: 250 },
  datapack: { serviceChargePaisa: 0, instantDiscountBps: 200 },
  internet: { serviceChargePaisa: 0, instantDiscountBps: 100 },
  water: { serviceChargePaisa: 500, instantDiscountBps: 0 },
  electricity: { serviceChargePaisa: 1000, instantDiscountBps: 0 },
};

export interface Fees {
  serviceChargePaisa: number;
  instantDiscountPaisa: number;
  debitPaisa: number;
  commissionPaisa: number | undefined;
}

const share = (amountPaisa: number, bps: number) => Math.floor((amountPaisa * bps) / 10_000);

/**
 * debit = amount + service charge - instant discount (spec 2.1), in the wallet's Nepal rupees:
 * an India order's ₹ converted at `inrToNprRateE4`. Commission is a share of the debit's rupees.
 */
export function feesFor(
  category: Category,
  amountPaisa: number,
  inrToNprRateE4 = SANDBOX_INR_TO_NPR_RATE_E4,
): Fees {
  const rule = FEE_RULES[category];
  const instantDiscountPaisa = share(amountPaisa, rule.instantDiscountBps);
  const due = amountPaisa + rule.serviceChargePaisa - instantDiscountPaisa;
  const debitPaisa = category === "india" ? inrToNprPaisa(due, inrToNprRateE4) : due;
  const base = category === "india" ? debitPaisa : amountPaisa;
  return {
    serviceChargePaisa: rule.serviceChargePaisa,
    instantDiscountPaisa,
    debitPaisa,
    commissionPaisa: rule.commissionBps === undefined ? undefined : share(base, rule.commissionBps),
  };
}
