import { noDetailsSchema, orderPart } from "./order-part.ts";

/** Landline orders: the amount is everything. */
export const landlineOrder = orderPart({
  id: "landline",
  details: noDetailsSchema,
  executeBody: (order) => ({ amountPaisa: order.amountPaisa }),
});
