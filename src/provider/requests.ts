import { z } from "zod";
import { REGIONS } from "../catalog/operators.ts";

/**
 * Request shapes, in the program's terms (ids and references as strings, money as integer paisa),
 * and their translation into the exact JSON bodies of spec 4.1: each field in the JSON type the spec
 * names for that category.
 */

const operatorId = z.number().int().positive();
const text = z.string().trim().min(1);

export type { Region } from "../catalog/operators.ts";

const circleId = z.union([
  z.string().regex(/^\d+$/, "must be digits"),
  z.number().int().nonnegative(),
]);

const common = { operatorId, operatorTypeId: operatorId, connectionNo: text };

export const regionSchema = z.enum(REGIONS);

/**
 * An execute as the client sends it, whatever the category: the category (for the logs), the
 * region (which execute path), the reference_no and the exact JSON body of spec 4.1. Each
 * category builds and validates its own body in its folder (src/categories/<id>/order.ts), so
 * the client names no category.
 */
export const executeRequestSchema = z.object({
  category: z.string().min(1),
  region: regionSchema,
  referenceNo: text,
  body: z.record(z.string(), z.unknown()),
});
export type ExecuteRequest = z.infer<typeof executeRequestSchema>;

/** A safe non-negative integer text as a JSON number, anything else as a JSON string. */
export function idForJson(id: string): number | string {
  return /^(0|[1-9]\d*)$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

/** The fields every Nepal request about one account starts with. */
export function accountHead(r: {
  operatorId: number;
  operatorTypeId: number;
  connectionNo: string;
}) {
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
