import { toRupeesNumber } from "../../money.ts";
import { accountHead, amountRequest, noDetailsSchema, orderPart } from "../shared/order-part.ts";

/** Mobile top-up orders: the amount is everything; sent with a numeric reference (spec 4.1). */
export const mobileOrder = orderPart({
  id: "mobile",
  details: noDetailsSchema,
  request: amountRequest("mobile"),
  executeBody: (order) => ({ amountPaisa: order.amountPaisa }),
  wire: (r) => ({
    ...accountHead(r),
    reference_no: Number(r.referenceNo),
    amount: toRupeesNumber(r.amountPaisa),
  }),
});
