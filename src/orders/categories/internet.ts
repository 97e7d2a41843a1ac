import { orderPart, packageDetailsSchema } from "./order-part.ts";

/** Internet orders: the package by id and name, and its price. */
export const internetOrder = orderPart({
  id: "internet",
  details: packageDetailsSchema,
  executeBody: ({ details, amountPaisa }) => ({
    packageId: details.packageId,
    packageName: details.packageName,
    amountPaisa,
  }),
});
