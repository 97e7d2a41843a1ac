import { z } from "zod";
import { toRupeesString } from "../../money.ts";
import { billFields, executeCommon, orderPart, paisaAmount, text } from "../shared/order-part.ts";
import { waterBillBody } from "./lookup.ts";

/** Water bill orders: office and Nepali month of the bill checked. */
export const waterOrder = orderPart({
  id: "water",
  details: z.strictObject({ ...billFields, monthId: z.number().int().min(1).max(12) }),
  request: z.object({
    category: z.literal("water"),
    ...executeCommon,
    officeCode: text,
    referenceNo: text,
    /** Nepali month number. */
    monthId: z.number().int().min(1).max(12),
    /** The due amount from the bill check, or an advance when there is no bill. */
    amountPaisa: paisaAmount,
  }),
  executeBody: ({ details, amountPaisa }) => ({
    officeCode: details.officeCode,
    monthId: details.monthId,
    amountPaisa,
  }),
  // The bill check's body plus the amount.
  wire: (r) => ({ ...waterBillBody(r), amount: toRupeesString(r.amountPaisa) }),
});
