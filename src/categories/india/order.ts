import { z } from "zod";
import { toRupeesNumber } from "../../money.ts";
import {
  accountHead,
  executeCommon,
  numericReference,
  orderPart,
  paisaAmount,
} from "../shared/order-part.ts";

const circleId = z.union([
  z.string().regex(/^\d+$/, "must be digits"),
  z.number().int().nonnegative(),
]);

/** India orders: the circle always; the plan when one was picked (a typed amount has none). */
export const indiaOrder = orderPart({
  id: "india",
  details: z.strictObject({
    circleId: z.string().regex(/^\d+$/),
    packageId: z.string().min(1).optional(),
    packageName: z.string().min(1).optional(),
  }),
  request: z.object({
    category: z.literal("india"),
    ...executeCommon,
    circleId,
    referenceNo: numericReference,
    amountPaisa: paisaAmount,
  }),
  executeBody: (order) => ({ circleId: order.details.circleId, amountPaisa: order.amountPaisa }),
  wire: (r) => ({
    ...accountHead(r),
    circle_id: Number(r.circleId),
    reference_no: Number(r.referenceNo),
    amount: toRupeesNumber(r.amountPaisa),
  }),
});
