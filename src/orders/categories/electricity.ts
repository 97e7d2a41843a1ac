import { z } from "zod";
import { billFields, orderPart } from "./order-part.ts";

/** Electricity bill orders: office, SC number and the contact phone of the bill checked. */
export const electricityOrder = orderPart({
  id: "electricity",
  details: z.strictObject({ ...billFields, scNo: z.string().min(1), phone: z.string().min(1) }),
  executeBody: ({ details, amountPaisa }) => ({
    officeCode: details.officeCode,
    scNo: details.scNo,
    phone: details.phone,
    amountPaisa,
  }),
});
