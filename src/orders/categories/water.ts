import { z } from "zod";
import { billFields, orderPart } from "./order-part.ts";

/** Water bill orders: office and Nepali month of the bill checked. */
export const waterOrder = orderPart({
  id: "water",
  details: z.strictObject({ ...billFields, monthId: z.number().int().min(1).max(12) }),
  executeBody: ({ details, amountPaisa }) => ({
    officeCode: details.officeCode,
    monthId: details.monthId,
    amountPaisa,
  }),
});
