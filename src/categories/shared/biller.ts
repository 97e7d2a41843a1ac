import type { Order } from "../../orders/index.ts";
import type { Biller } from "../../saved/index.ts";

/**
 * What a category saves as a biller (a module's `billerOf`): paying it again needs the operator
 * besides the number (an India mobile and DTH id are both ten digits), and a bill also its office
 * and, for electricity, the SC number and phone; the holder named by the bill is kept for labels.
 */

/** The operator alone (internet, DTH, India). */
export function operatorBiller(order: Pick<Order, "operatorId">): Biller {
  return { operatorId: order.operatorId };
}

/** A bill's account: the operator, the office, the category's own ids, and the holder if named. */
export function billBiller(
  order: Pick<Order, "operatorId"> & { details: { officeCode: string; customerName?: string } },
  ids: { scNo?: string; phone?: string } = {},
): Biller {
  const { officeCode, customerName } = order.details;
  return {
    operatorId: order.operatorId,
    officeCode,
    ...ids,
    ...(customerName ? { holder: customerName } : {}),
  };
}
