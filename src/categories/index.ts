import type { Order, OrderPart } from "../orders/index.ts";
import type { Biller } from "../saved/index.ts";
import { datapack } from "./datapack/index.ts";
import { dth } from "./dth/index.ts";
import { electricity } from "./electricity/index.ts";
import { india } from "./india/index.ts";
import { internet } from "./internet/index.ts";
import { landline } from "./landline/index.ts";
import { mobile } from "./mobile/index.ts";
import type { AnyCategoryModule } from "./shared/module.ts";
import { water } from "./water/index.ts";

export type {
  AnyCategoryModule,
  CategoryModule,
  Rebuilt,
  RepeatKit,
} from "./shared/module.ts";
export * from "./shared/order-part.ts";

/**
 * THE category registry: every category, in menu order, one line each (its folder,
 * src/categories/<id>/, holds everything else about it). The composition root hands this list
 * (or a caller's own, e.g. a test's extra category) to the orders (their order parts), the bot
 * (conversations, menu, repeat) and the notifier (what a success saves); the rest is derived.
 */
export const CATEGORY_MODULES: readonly AnyCategoryModule[] = [
  mobile,
  datapack,
  dth,
  internet,
  landline,
  water,
  electricity,
  india,
];

/** The order parts the orders service is built on (details schema, execute request). */
export const orderPartsOf = (categories: readonly AnyCategoryModule[]): readonly OrderPart[] =>
  categories;

/** What a successful order saves as a biller, by its category's rule (none: the number alone). */
export function billerRule(
  categories: readonly AnyCategoryModule[],
): (order: Order) => Biller | undefined {
  const byId = new Map(categories.map((c) => [c.id, c]));
  return (order) => byId.get(order.category)?.billerOf?.(order);
}
