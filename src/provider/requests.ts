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

// Arguments of the lookups.

/** One Nepal account and the client's reference: what listings and bill checks are about. */
export const account = { ...common, referenceNo: text };

export const packageQuerySchema = z.object(account);
export type PackageQuery = z.infer<typeof packageQuerySchema>;

/**
 * A bill check (spec 4.3, one path for every bill) as a category asks it: the arguments' schema
 * (nothing is sent when they fail it) and the JSON body. Each bill category has its own, in its
 * folder (src/categories/<id>/lookup.ts).
 */
export interface BillCheck<I extends PackageQuery> {
  input: z.ZodType<I>;
  body(query: I): Record<string, unknown>;
}

export const indiaPlansQuerySchema = z.object({ operatorId, circleId });
export type IndiaPlansQuery = z.infer<typeof indiaPlansQuerySchema>;

export const indiaDthBillQuerySchema = z.object({ operatorId, connectionNo: text, circleId });
export type IndiaDthBillQuery = z.infer<typeof indiaDthBillQuerySchema>;
