import { z } from "zod";
import { toRupeesString } from "../../money.ts";
import { billFields, executeCommon, orderPart, paisaAmount, text } from "../shared/order-part.ts";
import { electricityBillBody } from "./lookup.ts";

/** Electricity bill orders: office, SC number and the contact phone of the bill checked. */
export const electricityOrder = orderPart({
  id: "electricity",
  details: z.strictObject({ ...billFields, scNo: z.string().min(1), phone: z.string().min(1) }),
  request: z.object({
    category: z.literal("electricity"),
    ...executeCommon,
    officeCode: text,
    scNo: text,
    referenceNo: text,
    phone: text,
    /** Sent as `advance_amount`: the due amount from the bill check, or an advance. */
    amountPaisa: paisaAmount,
  }),
  executeBody: ({ details, amountPaisa }) => ({
    officeCode: details.officeCode,
    scNo: details.scNo,
    phone: details.phone,
    amountPaisa,
  }),
  // The bill check's body plus the amount.
  wire: (r) => ({ ...electricityBillBody(r), advance_amount: toRupeesString(r.amountPaisa) }),
});
