import type { Flow } from "../../bot/flow/toolkit.ts";
import type { Operator } from "../../catalog/index.ts";

/**
 * The operators of a category the catalogue offers now, read once through `external` (flow.lookup),
 * so a replay after a refresh changed the offer rebuilds the same keyboards the user pressed. With
 * none left (the provider withdrew them since the menu was shown) the user is told and the flow
 * ends.
 */
export async function offeredOperators(flow: Flow, category: string): Promise<Operator[]> {
  const r = await flow.lookup(async () => flow.deps.catalog.byCategory(category));
  if (r.ok && r.value.length > 0) return r.value;
  return flow.end(flow.t("catalog-category-withdrawn"));
}
