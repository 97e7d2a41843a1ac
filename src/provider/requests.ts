import { z } from "zod";
import { toRupeesNumber, toRupeesString } from "../money.ts";

/**
 * Request shapes, in the program's terms (ids and references as strings, money as integer paisa),
 * and their translation into the exact JSON bodies of spec 4.1: each field in the JSON type the spec
 * names for that category.
 */

const operatorId = z.number().int().positive();
const text = z.string().trim().min(1);
/** A reference the spec sends as a JSON number: canonical digits (no leading zero) within 2^53. */
const numericReference = z
  .string()
  .regex(/^(0|[1-9]\d*)$/, "must be digits without a leading zero")
  .refine((s) => Number.isSafeInteger(Number(s)), "must fit a safe integer");
const paisa = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const circleId = z.union([
  z.string().regex(/^\d+$/, "must be digits"),
  z.number().int().nonnegative(),
]);

const common = { operatorId, operatorTypeId: operatorId, connectionNo: text };

export const internetExecuteSchema = z.object({
  category: z.literal("internet"),
  ...common,
  /** From the internet package listing; sent as a number when it is one (spec), else as text. */
  packageId: text,
  packageName: text,
  amountPaisa: paisa,
  referenceNo: numericReference,
});
export const dataPackExecuteSchema = z.object({
  category: z.literal("datapack"),
  ...common,
  packageId: text,
  /** The reference used for the package listing. */
  referenceNo: text,
  /** In the spec's field table though its samples omit it: sent when given. */
  amountPaisa: paisa.optional(),
});
export const dthExecuteSchema = z.object({
  category: z.literal("dth"),
  ...common,
  packageId: text,
  /** The reference returned by the DTH package listing. */
  referenceNo: text,
});
export const mobileExecuteSchema = z.object({
  category: z.literal("mobile"),
  ...common,
  referenceNo: numericReference,
  amountPaisa: paisa,
});
export const indiaExecuteSchema = z.object({
  category: z.literal("india"),
  ...common,
  circleId,
  referenceNo: numericReference,
  amountPaisa: paisa,
});
export const landlineExecuteSchema = z.object({
  category: z.literal("landline"),
  ...common,
  referenceNo: numericReference,
  amountPaisa: paisa,
});
export const waterExecuteSchema = z.object({
  category: z.literal("water"),
  ...common,
  officeCode: text,
  referenceNo: text,
  /** Nepali month number. */
  monthId: z.number().int().min(1).max(12),
  /** The due amount from the bill check, or an advance when there is no bill. */
  amountPaisa: paisa,
});
export const electricityExecuteSchema = z.object({
  category: z.literal("electricity"),
  ...common,
  officeCode: text,
  scNo: text,
  referenceNo: text,
  phone: text,
  /** Sent as `advance_amount`: the due amount from the bill check, or an advance. */
  amountPaisa: paisa,
});

export const executeRequestSchema = z.discriminatedUnion("category", [
  internetExecuteSchema,
  dataPackExecuteSchema,
  dthExecuteSchema,
  mobileExecuteSchema,
  indiaExecuteSchema,
  landlineExecuteSchema,
  waterExecuteSchema,
  electricityExecuteSchema,
]);
export type ExecuteRequest = z.infer<typeof executeRequestSchema>;
export type ExecuteCategory = ExecuteRequest["category"];

/** A safe non-negative integer text as a JSON number, anything else as a JSON string. */
export function idForJson(id: string): number | string {
  return /^(0|[1-9]\d*)$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

/** The fields every Nepal request about one account starts with. */
function accountHead(r: { operatorId: number; operatorTypeId: number; connectionNo: string }) {
  return {
    operator_id: r.operatorId,
    operator_type_id: r.operatorTypeId,
    connection_no: r.connectionNo,
  };
}

/** Body of the package listing (spec 4.2). */
export function packageBody(q: PackageQuery) {
  return { ...accountHead(q), reference_no: q.referenceNo };
}

/** Body of a water bill check; the water execute sends the same plus the amount. */
export function waterBillBody(q: WaterBillQuery) {
  return {
    ...packageBody(q),
    month_id: String(q.monthId),
    office_code: q.officeCode,
  };
}

/** Body of an electricity bill check; the electricity execute sends the same plus the amount. */
export function electricityBillBody(q: ElectricityBillQuery) {
  return { ...packageBody(q), phone: q.phone, sc_no: q.scNo, office_code: q.officeCode };
}

/** The JSON body of spec 4.1 for one request (already validated). */
export function executeBody(r: ExecuteRequest): Record<string, unknown> {
  const head = accountHead(r);
  switch (r.category) {
    case "internet":
      return {
        ...head,
        package_id: idForJson(r.packageId),
        package_name: r.packageName,
        amount: toRupeesNumber(r.amountPaisa),
        reference_no: Number(r.referenceNo),
      };
    case "datapack":
      return {
        ...head,
        package_id: r.packageId,
        reference_no: r.referenceNo,
        ...(r.amountPaisa === undefined ? {} : { amount: toRupeesNumber(r.amountPaisa) }),
      };
    case "dth":
      return { ...head, package_id: r.packageId, reference_no: r.referenceNo };
    case "mobile":
    case "landline":
      return {
        ...head,
        reference_no: Number(r.referenceNo),
        amount: toRupeesNumber(r.amountPaisa),
      };
    case "india":
      return {
        ...head,
        circle_id: Number(r.circleId),
        reference_no: Number(r.referenceNo),
        amount: toRupeesNumber(r.amountPaisa),
      };
    case "water":
      return { ...waterBillBody(r), amount: toRupeesString(r.amountPaisa) };
    case "electricity":
      return { ...electricityBillBody(r), advance_amount: toRupeesString(r.amountPaisa) };
  }
}

// Arguments of the lookups.

/** One Nepal account and the client's reference: what listings and bill checks are about. */
const account = { ...common, referenceNo: text };

export const packageQuerySchema = z.object(account);
export type PackageQuery = z.infer<typeof packageQuerySchema>;

export const waterBillQuerySchema = z.object({
  ...account,
  monthId: z.number().int().min(1).max(12),
  officeCode: text,
});
export type WaterBillQuery = z.infer<typeof waterBillQuerySchema>;

export const electricityBillQuerySchema = z.object({
  ...account,
  phone: text,
  scNo: text,
  officeCode: text,
});
export type ElectricityBillQuery = z.infer<typeof electricityBillQuerySchema>;

export const indiaPlansQuerySchema = z.object({ operatorId, circleId });
export type IndiaPlansQuery = z.infer<typeof indiaPlansQuerySchema>;

export const indiaDthBillQuerySchema = z.object({ operatorId, connectionNo: text, circleId });
export type IndiaDthBillQuery = z.infer<typeof indiaDthBillQuerySchema>;

export const regionSchema = z.enum(["np", "in"]);
export type Region = z.infer<typeof regionSchema>;
