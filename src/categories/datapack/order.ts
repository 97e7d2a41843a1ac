import { z } from "zod";
import { toRupeesNumber } from "../../money.ts";
import {
  accountHead,
  executeCommon,
  orderPart,
  packageDetailsSchema,
  paisaAmount,
  text,
} from "../shared/order-part.ts";

/** Data pack orders: the package; the amount is sent too (in the spec's field table). */
export const datapackOrder = orderPart({
  id: "datapack",
  details: packageDetailsSchema,
  request: z.object({
    category: z.literal("datapack"),
    ...executeCommon,
    packageId: text,
    /** The reference used for the package listing. */
    referenceNo: text,
    /** In the spec's field table though its samples omit it: sent when given. */
    amountPaisa: paisaAmount.optional(),
  }),
  executeBody: (order) => ({ packageId: order.details.packageId, amountPaisa: order.amountPaisa }),
  wire: (r) => ({
    ...accountHead(r),
    package_id: r.packageId,
    reference_no: r.referenceNo,
    ...(r.amountPaisa === undefined ? {} : { amount: toRupeesNumber(r.amountPaisa) }),
  }),
});
