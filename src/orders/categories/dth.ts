import { orderPart, packageDetailsSchema } from "./order-part.ts";

/** DTH orders: the package alone decides the price. */
export const dthOrder = orderPart({
  id: "dth",
  details: packageDetailsSchema,
  executeBody: (order) => ({ packageId: order.details.packageId }),
});
