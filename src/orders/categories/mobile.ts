import { noDetailsSchema, orderPart } from "./order-part.ts";

/** Mobile top-up orders: the amount is everything. */
export const mobileOrder = orderPart({
  id: "mobile",
  details: noDetailsSchema,
  executeBody: (order) => ({ amountPaisa: order.amountPaisa }),
});
