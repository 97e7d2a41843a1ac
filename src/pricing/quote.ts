import type { z } from "zod";
import type { Adjustment, categoryRuleSchema, PriceRule, PriceSchedule } from "./schedule.ts";

type CategoryRule = z.output<typeof categoryRuleSchema>;

/**
 * The price a customer pays for one order, from the merchant's schedule. Pure integer arithmetic
 * on paisa: the confirm screen, the hold and the receipt all show these same four numbers.
 */

export interface QuoteInput {
  category: string;
  operatorId: number;
  /** The face amount sent to the aggregator, in paisa. */
  amountPaisa: number;
}

export interface Quote {
  amountPaisa: number;
  feePaisa: number;
  discountPaisa: number;
  /** amount + fee - discount; never below zero. */
  totalPaisa: number;
}

/**
 * The fee and the discount that apply, each chosen on its own: the operator's rule, else its
 * category's, else the default's, else none. So an operator rule that sets only a discount keeps
 * its category's fee.
 */
function ruleFor(schedule: PriceSchedule, category: string, operatorId: number): PriceRule {
  // A category the schedule does not name (one added at start) has no rule of its own.
  const cat = (schedule.categories as Partial<Record<string, CategoryRule>>)[category];
  const op = cat?.operators[String(operatorId)];
  return {
    fee: op?.fee ?? cat?.fee ?? schedule.default.fee,
    discount: op?.discount ?? cat?.discount ?? schedule.default.discount,
  };
}

/**
 * One fee or discount on a face amount. A percentage is of the face amount, rounded half up to
 * the whole paisa (0.5 paisa becomes 1), then held within its min and max.
 */
function adjustmentPaisa(adj: Adjustment | undefined, amountPaisa: number): number {
  if (!adj) return 0;
  if (adj.kind === "flat") return adj.paisa;
  // BigInt: amount × basis points may pass 2^53 for large amounts; no float is ever involved.
  let paisa = Number((BigInt(amountPaisa) * BigInt(adj.bps) + 5_000n) / 10_000n);
  if (adj.minPaisa !== undefined && paisa < adj.minPaisa) paisa = adj.minPaisa;
  if (adj.maxPaisa !== undefined && paisa > adj.maxPaisa) paisa = adj.maxPaisa;
  return paisa;
}

/**
 * What the customer pays. The discount may be larger than the fee (a discount off the face
 * amount, as the aggregator's instant discount is), but never larger than amount + fee: the total
 * is never below zero, and the discount shown is the one given.
 */
export function quote(schedule: PriceSchedule, input: QuoteInput): Quote {
  const { amountPaisa } = input;
  if (!Number.isSafeInteger(amountPaisa) || amountPaisa < 0)
    throw new RangeError("amountPaisa must be a non-negative safe integer");
  const rule = ruleFor(schedule, input.category, input.operatorId);
  const feePaisa = adjustmentPaisa(rule.fee, amountPaisa);
  const gross = amountPaisa + feePaisa;
  if (!Number.isSafeInteger(gross)) throw new RangeError("amount and fee exceed a safe integer");
  const discountPaisa = Math.min(adjustmentPaisa(rule.discount, amountPaisa), gross);
  return { amountPaisa, feePaisa, discountPaisa, totalPaisa: gross - discountPaisa };
}
