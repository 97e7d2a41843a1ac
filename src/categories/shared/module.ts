import type { z } from "zod";
import type { BotDeps, OrderDraft } from "../../bot/deps.ts";
import type { FlowBuilder } from "../../bot/features.ts";
import type { Flow } from "../../bot/flow/toolkit.ts";
import type { Operator } from "../../catalog/index.ts";
import type { Order } from "../../orders/index.ts";
import type { Biller } from "../../saved/index.ts";
import type { CategoryOrderPart, OrderWith } from "./order-part.ts";

/**
 * Everything that is true of one category, in one object: its order side (details schema, execute
 * request), its conversation, how a repeat from /history is rebuilt, what it saves as a biller and
 * its menu button. The registry (../index.ts) lists the modules; nothing else names a category.
 */
export interface CategoryModule<C extends string, D extends z.ZodObject = z.ZodObject>
  extends CategoryOrderPart<C, D> {
  /**
   * The menu button; its position is the module's place in the registry. It is shown while the
   * catalogue offers operators of `operatorsOf` (default: the category's own id), e.g. a category
   * made on existing mobile operators names "mobile".
   */
  menu: { labelKey: string; operatorsOf?: string };
  conversation(deps: BotDeps): FlowBuilder;
  /** The same recharge again as a new draft, or why it cannot be (method: bivariant in `order`). */
  rebuildForRepeat(kit: RepeatKit, order: OrderWith<D>): Promise<Rebuilt>;
  /**
   * What a successful order saves besides its number, for a biller (paying it again needs more
   * than the number). Absent: the category saves the number alone.
   */
  billerOf?(order: OrderWith<D>): Biller;
  /**
   * Locale files of the category's own strings (Fluent, one per language: en, ne, hi), loaded
   * with the shared ones by the bot's i18n. Absent: its strings are in the shared locales/.
   */
  localesDir?: string;
}

/**
 * A module as the registry holds it, whatever its category. The registry calls a module only with
 * an order of that module's category, whose details its part checked at `place`.
 */
export interface AnyCategoryModule {
  id: string;
  details: z.ZodObject;
  executeRequest: CategoryOrderPart<string, z.ZodObject>["executeRequest"];
  toWire: CategoryOrderPart<string, z.ZodObject>["toWire"];
  menu: { labelKey: string; operatorsOf?: string };
  conversation(deps: BotDeps): FlowBuilder;
  rebuildForRepeat(kit: RepeatKit, order: Order): Promise<Rebuilt>;
  billerOf?(order: Order): Biller;
  localesDir?: string;
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
