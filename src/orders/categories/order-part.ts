import { z } from "zod";
import type { Category } from "../../catalog/index.ts";
import type { ExecuteRequest } from "../../provider/requests.ts";

/**
 * The order side of a category: what its orders carry (a details schema, one member of the order's
 * discriminated union) and how its execute request is filled from them. Pure (zod and types only),
 * so the order model and the execute request can use it without depending on the bot.
 */

/** The fields every execute request has, filled in by `toExecuteRequest` for all categories. */
type ExecuteCommon = "category" | "operatorId" | "operatorTypeId" | "connectionNo" | "referenceNo";

/** The category's own fields of its execute request. */
export type ExecuteFields<C extends Category> = Omit<
  Extract<ExecuteRequest, { category: C }>,
  ExecuteCommon
>;

export interface CategoryOrderPart<C extends Category, D extends z.ZodObject> {
  id: C;
  /** Strict: a key the flow adds without the schema knowing it fails `place`, not dropped silently. */
  details: D;
  executeBody(order: { amountPaisa: number; details: z.output<D> }): ExecuteFields<C>;
}

/** Declares an order part; the generics keep its id literal and its details type exact. */
export function orderPart<C extends Category, D extends z.ZodObject>(
  part: CategoryOrderPart<C, D>,
): CategoryOrderPart<C, D> {
  return part;
}

const paisa = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** Amount-only categories (mobile, landline) carry nothing more. */
export const noDetailsSchema = z.strictObject({});

/** Package categories (data packs, internet, DTH): the package chosen, as listed. */
export const packageDetailsSchema = z.strictObject({
  packageId: z.string().min(1),
  packageName: z.string().min(1),
});

/** What every bill order (water, electricity) records of the bill it paid. */
export const billFields = {
  officeCode: z.string().min(1),
  customerName: z.string().optional(),
  billAmountPaisa: paisa.optional(),
};
