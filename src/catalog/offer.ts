import { z } from "zod";
import { type Operator, REGIONS, type Region } from "./operators.ts";

/**
 * What the customer is offered: the catalogue's rules (operators we know how to sell) cut down to
 * what the provider's operator and operator-type lookups list. Pure; the lookups themselves and
 * their cache are in src/provider/catalog-sync.ts.
 */

/** One `{value, label}` record of a lookup, as cached. */
const listedSchema = z.object({ value: z.string(), label: z.string() });
export type Listed = z.infer<typeof listedSchema>;

/** What the provider listed for one region. */
const regionListingSchema = z.object({
  operators: z.array(listedSchema),
  /** Null when the operator-type lookup failed or listed nothing: types then cut nothing. */
  operatorTypes: z.array(listedSchema).nullable(),
});
export type RegionListing = z.infer<typeof regionListingSchema>;

/** The provider's listings as fetched at one time (and cached in Redis as this JSON). */
export const providerListingSchema = z.object({
  fetchedAtMs: z.number().int(),
  /** A region is absent when its operator lookup failed or listed nothing: the rules alone decide. */
  regions: z.object({ np: regionListingSchema.optional(), in: regionListingSchema.optional() }),
});
export type ProviderListing = z.infer<typeof providerListingSchema>;

/**
 * The operators offered: every rule whose id the provider lists in its region and, when the
 * provider lists operator types, whose operator type it lists. With no listing for a region (none
 * ever fetched, none cached), that region's rules are offered as they are.
 */
export function offeredOperators(
  rules: readonly Operator[],
  listing: ProviderListing | null,
): Operator[] {
  return rules.filter((op) => {
    const region = listing?.regions[op.region];
    if (!region) return true;
    if (!region.operators.some((o) => o.value === String(op.id))) return false;
    const types = region.operatorTypes;
    return types === null || types.some((t) => t.value === String(op.operatorTypeId));
  });
}

/** What the provider lists that no rule knows (an id setting to correct, or a new operator). */
export function unknownListed(
  rules: readonly Operator[],
  listing: ProviderListing,
): Array<Listed & { region: Region }> {
  const out: Array<Listed & { region: Region }> = [];
  for (const region of REGIONS) {
    const known = new Set(rules.filter((o) => o.region === region).map((o) => String(o.id)));
    for (const o of listing.regions[region]?.operators ?? []) {
      if (!known.has(o.value)) out.push({ ...o, region });
    }
  }
  return out;
}
