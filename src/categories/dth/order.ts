import { z } from "zod";
import {
  accountHead,
  executeCommon,
  orderPart,
  packageDetailsSchema,
  text,
} from "../shared/order-part.ts";

/** DTH orders: the package alone decides the price. */
export const dthOrder = orderPart({
  id: "dth",
  // The subscriber the listing named, for the receipt (issue 30); older orders lack it.
  details: packageDetailsSchema.extend({ subscriber: z.string().min(1).optional() }),
  request: z.object({
    category: z.literal("dth"),
    ...executeCommon,
    packageId: text,
    /** The reference returned by the DTH package listing. */
    referenceNo: text,
  }),
  executeBody: (order) => ({ packageId: order.details.packageId }),
  wire: (r) => ({ ...accountHead(r), package_id: r.packageId, reference_no: r.referenceNo }),
});
