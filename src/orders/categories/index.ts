import { z } from "zod";
import type { Category } from "../../catalog/index.ts";
import { datapackOrder } from "./datapack.ts";
import { dthOrder } from "./dth.ts";
import { electricityOrder } from "./electricity.ts";
import { indiaOrder } from "./india.ts";
import { internetOrder } from "./internet.ts";
import { landlineOrder } from "./landline.ts";
import { mobileOrder } from "./mobile.ts";
import type { CategoryOrderPart } from "./order-part.ts";
import { waterOrder } from "./water.ts";

/**
 * The order side of every category (details schema, execute fields): what the order model and the
 * execute request are generic over. Pure, so src/orders may import it; the bot side of each
 * category (flow, repeat, menu) is in its module, listed by ./index.ts.
 */
export const ORDER_PARTS = [
  mobileOrder,
  datapackOrder,
  dthOrder,
  internetOrder,
  landlineOrder,
  waterOrder,
  electricityOrder,
  indiaOrder,
] as const;

type Parts = typeof ORDER_PARTS;
type Member<S extends z.ZodRawShape, P> =
  P extends CategoryOrderPart<infer C, infer D>
    ? z.ZodObject<S & { category: z.ZodLiteral<C>; details: D }, z.core.$strip>
    : never;
type PerCategory<S extends z.ZodRawShape> = z.ZodDiscriminatedUnion<
  { [K in keyof Parts]: Member<S, Parts[K]> },
  "category"
>;

/**
 * `shape` plus `category` and that category's `details`, as a discriminated union on `category`:
 * one member per order part, so water always has its office and month, and so on.
 */
export function perCategory<S extends z.ZodRawShape>(shape: S): PerCategory<S> {
  const [first, ...rest] = ORDER_PARTS.map((p) =>
    z.object({ ...shape, category: z.literal(p.id), details: p.details }),
  );
  // The members are built from the parts in order, as the type says.
  return z.discriminatedUnion("category", [first!, ...rest]) as unknown as PerCategory<S>;
}

/** The category's own execute fields of an order (the caller adds ids and reference, and validates). */
export function executeFieldsOf(order: {
  category: Category;
  amountPaisa: number;
  details: unknown;
}): Record<string, unknown> {
  const part = ORDER_PARTS.find((p) => p.id === order.category);
  if (!part) throw new Error(`no order part for category ${order.category}`);
  // The order was parsed with this part's details schema (the union member of its category).
  const body = part.executeBody as (o: {
    amountPaisa: number;
    details: unknown;
  }) => Record<string, unknown>;
  return body(order);
}
