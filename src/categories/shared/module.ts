import type { z } from "zod";
import type { BotDeps, OrderDraft } from "../../bot/deps.ts";
import type { FlowBuilder } from "../../bot/features.ts";
import type { Flow } from "../../bot/flow/toolkit.ts";
import type { Category, Operator } from "../../catalog/index.ts";
import type { CategoryOrderPart } from "../../orders/categories/order-part.ts";
import type { Order, OrderOf } from "../../orders/model.ts";

/**
 * Everything that is true of one category, in one object: its order side (details schema, execute
 * fields), its conversation, how a repeat from /history is rebuilt, and its menu button. The
 * registry (../index.ts) lists the modules; nothing else names a category.
 */
export interface CategoryModule<C extends Category> extends CategoryOrderPart<C, z.ZodObject> {
  /** The menu button; its position is the module's place in the registry. */
  menu: { labelKey: string };
  conversation(deps: BotDeps): FlowBuilder;
  /** The same recharge again as a new draft, or why it cannot be (method: bivariant in `order`). */
  rebuildForRepeat(kit: RepeatKit, order: OrderOf<C>): Promise<Rebuilt>;
}

/**
 * A module as the registry holds it, whatever its category. The repeat flow calls a module only
 * with an order of that module's category (it looks the module up by the order's category).
 */
export interface AnyCategoryModule {
  id: Category;
  details: z.ZodObject;
  menu: { labelKey: string };
  conversation(deps: BotDeps): FlowBuilder;
  rebuildForRepeat(kit: RepeatKit, order: Order): Promise<Rebuilt>;
}

export type Rebuilt =
  | { ok: true; draft: OrderDraft; extra: string[] }
  | { ok: false; message: string };

/** What the generic repeat flow hands to a category's rebuild. */
export interface RepeatKit {
  flow: Flow;
  /** The order's operator as the catalogue has it today (same category, checked). */
  operator: Operator;
  /** The draft's fields every category copies from the order: operator and number. */
  base: Pick<
    OrderDraft,
    "region" | "operatorId" | "operatorTypeId" | "operatorName" | "connectionNo"
  >;
  /** A new reference of ours for a lookup (through `external`: replays get the same one). */
  fresh(): Promise<string>;
  /** One of the user's recent orders that `same` picks and that is not final yet, if any. */
  unsettled(same: (order: Order) => boolean): Promise<Order | null>;
  /** The order cannot be repeated as it was (limits or data changed). */
  unavailable: Rebuilt;
  /** A lookup failed; `message` says why. */
  failed(message: string): Rebuilt;
  /** The package or plan of the order is no longer offered. */
  gone(packageName: string): Rebuilt;
}
