import { z } from "zod";
import { accountHead, amountRequest, orderPart } from "../../../src/categories/index.ts";
import { toRupeesNumber } from "../../../src/money.ts";

/** The fixed amounts a gift recharge offers, in paisa (Rs 100, 200, 500). */
export const GIFT_AMOUNTS = [10_000, 20_000, 50_000] as const;

/**
 * A gift recharge's order part: it records which fixed amount was picked, and is executed as an
 * ordinary top-up of the operator it is made on (the spec's mobile execute body).
 */
export const giftOrder = orderPart({
  id: "gift",
  details: z.strictObject({ gift: z.literal(GIFT_AMOUNTS.map(String)) }),
  request: amountRequest("gift"),
  executeBody: (order) => ({ amountPaisa: order.amountPaisa }),
  wire: (r) => ({
    ...accountHead(r),
    reference_no: Number(r.referenceNo),
    amount: toRupeesNumber(r.amountPaisa),
  }),
});
