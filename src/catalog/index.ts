import { rupeesToPaisa } from "../money.ts";
import {
  buildOperators,
  type CatalogOptions,
  type Category,
  type Operator,
  type Region,
} from "./operators.ts";
import type { AmountBounds } from "./rules.ts";

export * from "./operators.ts";
export * from "./rules.ts";

export interface CatalogSettings extends CatalogOptions {
  /** Upper bound for NTC mobile in rupees: the spec says 3000, a sample comment 5000. */
  ntcMobileMaxAmount?: number;
}

/** The operator catalogue with its amount rules; pure, built once from settings. */
export function createCatalog(settings: CatalogSettings = {}) {
  const operators = buildOperators(settings);
  const byId = new Map<number, Operator>();
  for (const op of operators) byId.set(op.id, op);
  const ntcMax = settings.ntcMobileMaxAmount ?? 3000;

  return {
    operators,
    operator(id: number): Operator | undefined {
      return byId.get(id);
    },
    byCategory(category: Category): Operator[] {
      return operators.filter((o) => o.category === category);
    },
    /** Amount bounds where the spec gives them; undefined where amounts come from packages or bills. */
    amountBounds(op: Operator): AmountBounds | undefined {
      if (op.category === "mobile")
        return { minPaisa: rupeesToPaisa(50), maxPaisa: rupeesToPaisa(ntcMax) };
      if (op.category === "landline" || op.category === "india") {
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
