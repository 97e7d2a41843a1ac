import type { z } from "zod";
import type { ExecuteRequest } from "../provider/index.ts";
import type { Order } from "./model.ts";

/**
 * What the orders need of a category, handed in at start by the composition root from the
 * category registry (src/categories/index.ts): its details schema, checked at `place`, and how an
 * order of it becomes the provider's execute request. The order model names no category; a
 * category added at start (a test's, or a new folder) is found here by the order's `category`.
 */
export interface OrderPart {
  id: string;
  details: z.ZodType;
  /** Validated: throws when the order could never be executed. */
  executeRequest(
    order: Pick<
      Order,
      "region" | "operatorId" | "operatorTypeId" | "connectionNo" | "amountPaisa" | "details"
    >,
    referenceNo: string,
  ): ExecuteRequest;
}

/** The categories' order parts by id. */
export type OrderParts = ReadonlyMap<string, OrderPart>;

export function orderPartsOf(parts: readonly OrderPart[]): OrderParts {
  return new Map(parts.map((p) => [p.id, p]));
}
