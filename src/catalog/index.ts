import { rupeesToPaisa } from "../money.ts";
import { offeredOperators, type ProviderListing } from "./offer.ts";
import { buildOperators, type CatalogOptions, type Operator, type Region } from "./operators.ts";
import type { AmountBounds } from "./rules.ts";

export * from "./nepali-calendar.ts";
export * from "./offer.ts";
export * from "./operators.ts";
export * from "./rules.ts";

export interface CatalogSettings extends CatalogOptions {
  /** Upper bound for NTC mobile in rupees: the spec says 3000, a sample comment 5000. */
  ntcMobileMaxAmount?: number;
  /**
   * Bounds of a typed bill amount (an advance, or more than the due) in rupees: a guard against
   * typos, not a documented limit. Defaults 1 and 1,00,000.
   */
  advanceMinRupees?: number;
  advanceMaxRupees?: number;
}

/**
 * The operator catalogue with its amount rules, built once from settings. `operator(id)` knows
 * every rule; `byCategory` and `isOffered` answer with what is offered, the rules cut down to the
 * provider's last listing (`setListing`, fed by src/provider/catalog-sync.ts; none: all the rules).
 */
export function createCatalog(settings: CatalogSettings = {}) {
  const operators = buildOperators(settings);
  const byId = new Map<number, Operator>();
  for (const op of operators) {
    // Two rules under one id would make an order's operator ambiguous (India ids are settings).
    if (byId.has(op.id)) throw new Error(`catalogue: operator id ${op.id} is used twice`);
    byId.set(op.id, op);
  }
  const ntcMax = settings.ntcMobileMaxAmount ?? 3000;
  const advance: AmountBounds = {
    minPaisa: rupeesToPaisa(settings.advanceMinRupees ?? 1),
    maxPaisa: rupeesToPaisa(settings.advanceMaxRupees ?? 100_000),
  };
  let listing: ProviderListing | null = null;
  let offered: readonly Operator[] = operators;
  let offeredIds = new Set(operators.map((o) => o.id));

  return {
    /** Every rule, offered or not. */
    operators,
    /** The rule of an operator id, offered or not (an order or a flow may name a withdrawn one). */
    operator(id: number): Operator | undefined {
      return byId.get(id);
    },
    /** The operators of a category offered now. */
    byCategory(category: string): Operator[] {
      return offered.filter((o) => o.category === category);
    },
    isOffered(id: number): boolean {
      return offeredIds.has(id);
    },
    /** Whether a category has any operator offered now (its menu button shows). */
    offersCategory(category: string): boolean {
      return offered.some((o) => o.category === category);
    },
    /** The provider's listing in force (null: none yet, the rules alone). */
    listing(): ProviderListing | null {
      return listing;
    },
    setListing(next: ProviderListing | null): void {
      listing = next;
      offered = offeredOperators(operators, next);
      offeredIds = new Set(offered.map((o) => o.id));
    },
    /** Bounds of a typed bill amount (advance or more than the due). */
    advanceBounds(): AmountBounds {
      return advance;
    },
    /**
     * Amount bounds where the spec gives them, by the operator's amount rule (operator data);
     * undefined where amounts come from packages or bills.
     */
    amountBounds(op: Operator): AmountBounds | undefined {
      if (op.amounts === "ntc_mobile")
        return { minPaisa: rupeesToPaisa(50), maxPaisa: rupeesToPaisa(ntcMax) };
      if (op.amounts === "up_to_5000") {
        return { minPaisa: rupeesToPaisa(50), maxPaisa: rupeesToPaisa(5000) };
      }
      return undefined;
    },
    regionOf(op: Operator): Region {
      return op.region;
    },
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
