import { orderPart, packageDetailsSchema } from "./order-part.ts";

/** Data pack orders: the package; the amount is sent too (in the spec's field table). */
export const datapackOrder = orderPart({
  id: "datapack",
  details: packageDetailsSchema,
  executeBody: (order) => ({ packageId: order.details.packageId, amountPaisa: order.amountPaisa }),
});
