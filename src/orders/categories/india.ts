import { z } from "zod";
import { orderPart } from "./order-part.ts";

/** India orders: the circle always; the plan when one was picked (a typed amount has none). */
export const indiaOrder = orderPart({
  id: "india",
  details: z.strictObject({
    circleId: z.string().regex(/^\d+$/),
    packageId: z.string().min(1).optional(),
    packageName: z.string().min(1).optional(),
  }),
  executeBody: (order) => ({ circleId: order.details.circleId, amountPaisa: order.amountPaisa }),
});
