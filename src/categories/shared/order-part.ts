import { z } from "zod";
import type { Region } from "../../catalog/index.ts";
import type { Order } from "../../orders/index.ts";
import { type ExecuteRequest, executeRequestSchema } from "../../provider/index.ts";

/**
 * The order side of a category: what its orders carry (a details schema), the provider's execute
 * request for them in the program's terms (a zod schema: ids as strings, money as paisa) and that
 * request's exact JSON body of spec 4.1. Pure (zod, the catalogue's types, the provider's request
 * helpers): the registry hands it to the orders, which look a category's part up by the order's
 * category at runtime, so the order model itself names no category.
 */

/** The fields every execute request about one account has, filled in for all categories. */
export const executeCommon = {
  operatorId: z.number().int().positive(),
  operatorTypeId: z.number().int().positive(),
  connectionNo: z.string().trim().min(1),
};
/** Text the spec wants non-empty (a package id, an office code). */
export const text = z.string().trim().min(1);
/** A reference the spec sends as a JSON number: canonical digits (no leading zero) within 2^53. */
export const numericReference = z
  .string()
  .regex(/^(0|[1-9]\d*)$/, "must be digits without a leading zero")
  .refine((s) => Number.isSafeInteger(Number(s)), "must fit a safe integer");
/** A positive amount in paisa, as an execute sends it. */
export const paisaAmount = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The fields every Nepal request about one account starts with, as the spec names them. */
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

type Common = "category" | "operatorId" | "operatorTypeId" | "connectionNo" | "referenceNo";

/** An order whose details are known to be `T` (its category's part checked them at `place`). */
export type Detailed<T> = Omit<Order, "details"> & { details: T };
/** The order as its part sees it: the order's fields with this category's own details. */
export type OrderWith<D extends z.ZodObject> = Detailed<z.output<D>>;

export interface OrderPartSpec<
  C extends string,
  D extends z.ZodObject,
  R extends z.ZodObject<{ referenceNo: z.ZodType<string> }>,
> {
  id: C;
  /** Strict: a key the flow adds without the schema knowing it fails `place`, not dropped silently. */
  details: D;
  /** The execute request in the program's terms: the common fields plus the category's own. */
  request: R;
  /** The category's own fields of its execute request, from the order. */
  executeBody(order: { amountPaisa: number; details: z.output<D> }): Omit<z.input<R>, Common>;
  /** The JSON body of spec 4.1 for a validated request. */
  wire(request: z.output<R>): Record<string, unknown>;
}

/** What the orders use of a part (src/orders/parts.ts's OrderPart): its id, details and request. */
export interface CategoryOrderPart<C extends string, D extends z.ZodObject> {
  id: C;
  details: D;
  /**
   * The execute request in the program's terms (common fields and the category's own), checked by
   * the category's request schema and turned into the provider's request (region, body of 4.1).
   */
  toWire(terms: unknown, region: Region): ExecuteRequest;
  /** The provider's execute request for an order of this category, validated (throws if it cannot be). */
  executeRequest(
    order: Pick<
      Order,
      "region" | "operatorId" | "operatorTypeId" | "connectionNo" | "amountPaisa"
    > & {
      details: unknown;
    },
    referenceNo: string,
  ): ExecuteRequest;
}

/** Declares an order part; the generics keep its id literal and its details type exact. */
export function orderPart<
  C extends string,
  D extends z.ZodObject,
  R extends z.ZodObject<{ referenceNo: z.ZodType<string> }>,
>(spec: OrderPartSpec<C, D, R>): CategoryOrderPart<C, D> {
  const toWire = (terms: unknown, region: Region): ExecuteRequest => {
    const request = spec.request.parse(terms);
    return executeRequestSchema.parse({
      category: spec.id,
      region,
      referenceNo: request.referenceNo,
      body: spec.wire(request),
    });
  };
  return {
    id: spec.id,
    details: spec.details,
    toWire,
    executeRequest(order, referenceNo) {
      const details = spec.details.parse(order.details);
      const terms = {
        category: spec.id,
        operatorId: order.operatorId,
        operatorTypeId: order.operatorTypeId,
        connectionNo: order.connectionNo,
        referenceNo,
        ...spec.executeBody({ amountPaisa: order.amountPaisa, details }),
      };
      return toWire(terms, order.region);
    },
  };
}

/** Amount-only categories (mobile, landline) carry nothing more. */
export const noDetailsSchema = z.strictObject({});

/** Package categories (data packs, internet, DTH): the package chosen, as listed. */
export const packageDetailsSchema = z.strictObject({
  packageId: z.string().min(1),
  packageName: z.string().min(1),
});

const paisa = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** What every bill order (water, electricity) records of the bill it paid. */
export const billFields = {
  officeCode: z.string().min(1),
  /** The office as its list named it, for the receipt (issue 30); older orders lack it. */
  officeName: z.string().optional(),
  customerName: z.string().optional(),
  billAmountPaisa: paisa.optional(),
};

/** An execute whose request is the account, a numeric reference and the amount (mobile, landline). */
export const amountRequest = <C extends string>(category: C) =>
  z.object({
    category: z.literal(category),
    ...executeCommon,
    referenceNo: numericReference,
    amountPaisa: paisaAmount,
  });
