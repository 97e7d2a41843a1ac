import { z } from "zod";
import { toRupeesNumber } from "../../money.ts";
import { idForJson } from "../../provider/index.ts";
import {
  accountHead,
  executeCommon,
  numericReference,
  orderPart,
  packageDetailsSchema,
  paisaAmount,
  text,
} from "../shared/order-part.ts";

/** Internet orders: the package by id and name, and its price. */
export const internetOrder = orderPart({
  id: "internet",
  details: packageDetailsSchema,
  request: z.object({
    category: z.literal("internet"),
    ...executeCommon,
    /** From the internet package listing; sent as a number when it is one (spec), else as text. */
    packageId: text,
    packageName: text,
    amountPaisa: paisaAmount,
    referenceNo: numericReference,
  }),
  executeBody: ({ details, amountPaisa }) => ({
    packageId: details.packageId,
    packageName: details.packageName,
    amountPaisa,
  }),
  wire: (r) => ({
    ...accountHead(r),
    package_id: idForJson(r.packageId),
    package_name: r.packageName,
    amount: toRupeesNumber(r.amountPaisa),
    reference_no: Number(r.referenceNo),
  }),
});
