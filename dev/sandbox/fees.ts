import type { Category } from "../../src/catalog/index.ts";

/**
 * The sandbox's fee rules (the spec names the fields, not the rates). All integer paisa, percentages
 * rounded down to the paisa. Commission is reported only for the categories the spec shows it for
 * (DTH, mobile, landline, India); it never changes the debit.
 */

export interface FeeRule {
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

/** debit = amount + service charge - instant discount (spec 2.1). */
export function feesFor(category: Category, amountPaisa: number): Fees {
  const rule = FEE_RULES[category];
  const instantDiscountPaisa = share(amountPaisa, rule.instantDiscountBps);
  return {
    serviceChargePaisa: rule.serviceChargePaisa,
    instantDiscountPaisa,
    debitPaisa: amountPaisa + rule.serviceChargePaisa - instantDiscountPaisa,
    commissionPaisa:
      rule.commissionBps === undefined ? undefined : share(amountPaisa, rule.commissionBps),
  };
}
