import { toRupeesNumber } from "../../money.ts";
import { accountHead, amountRequest, noDetailsSchema, orderPart } from "../shared/order-part.ts";

/** Landline orders: the amount is everything; sent with a numeric reference (spec 4.1). */
export const landlineOrder = orderPart({
  id: "landline",
  details: noDetailsSchema,
  request: amountRequest("landline"),
  executeBody: (order) => ({ amountPaisa: order.amountPaisa }),
  wire: (r) => ({
    ...accountHead(r),
    reference_no: Number(r.referenceNo),
    amount: toRupeesNumber(r.amountPaisa),
  }),
});
