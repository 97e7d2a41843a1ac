import type { z } from "zod";
import type { datapackOrder } from "../../src/categories/datapack/order.ts";
import type { dthOrder } from "../../src/categories/dth/order.ts";
import type { electricityOrder } from "../../src/categories/electricity/order.ts";
import type { indiaOrder } from "../../src/categories/india/order.ts";
import type { internetOrder } from "../../src/categories/internet/order.ts";
import type { landlineOrder } from "../../src/categories/landline/order.ts";
import type { mobileOrder } from "../../src/categories/mobile/order.ts";
import type { waterOrder } from "../../src/categories/water/order.ts";
import type { Order } from "../../src/orders/model.ts";

/**
 * The built-in categories' order parts, for tests that type an order's details by its category
 * (the order model itself is category-neutral: each part checks its details at place).
 */
type Parts =
  | typeof mobileOrder
  | typeof datapackOrder
  | typeof dthOrder
  | typeof internetOrder
  | typeof landlineOrder
  | typeof waterOrder
  | typeof electricityOrder
  | typeof indiaOrder;

export type BuiltInCategory = Parts["id"];
export type DetailsOf<C extends BuiltInCategory> = z.output<Extract<Parts, { id: C }>["details"]>;
/** An order of a built-in category, with its details typed. */
export type OrderOf<C extends BuiltInCategory> = Omit<Order, "category" | "details"> & {
  category: C;
  details: DetailsOf<C>;
};
