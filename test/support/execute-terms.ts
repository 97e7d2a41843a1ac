import { z } from "zod";
import type { Region } from "../../src/catalog/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import {
  createProviderClient as createClient,
  type ExecuteResult,
  type ProviderClient,
  type ProviderClientOptions,
  ProviderInvalidRequestError,
} from "../../src/provider/index.ts";

/**
 * The provider client's execute takes the category-neutral request (region, reference, the JSON
 * body of spec 4.1); each category builds that in its folder (src/categories/<id>/order.ts). These
 * tests speak the program's terms of a built-in category (operatorId, amountPaisa, packageId, …),
 * so their client turns such a request into the wire one through the category's own part first:
 * what the tests assert (the body sent, refusal before sending) is what the product does.
 */
export interface ExecuteTerms {
  category: string;
  referenceNo: string;
  [field: string]: unknown;
}

/** The wire request of a built-in category's request in the program's terms (invalid: refused). */
export function wireRequest(terms: ExecuteTerms) {
  const endpoint = "POST execute";
  const part = CATEGORY_MODULES.find((c) => c.id === terms.category);
  if (!part)
    throw new ProviderInvalidRequestError({ endpoint, detail: `category: ${terms.category}` });
  // Only India's operators are in India.
  const region: Region = terms.category === "india" ? "in" : "np";
  try {
    return part.toWire(terms, region);
  } catch (err) {
    const detail =
      err instanceof z.ZodError ? err.issues.map((i) => i.message).join("; ") : String(err);
    throw new ProviderInvalidRequestError({ endpoint, detail });
  }
}

export type TermsClient = Omit<ProviderClient, "execute"> & {
  execute(terms: ExecuteTerms): Promise<ExecuteResult>;
};

/** A provider client whose execute takes the program's terms (see above). */
export function withTerms(client: ProviderClient): TermsClient {
  return { ...client, execute: async (terms) => client.execute(wireRequest(terms)) };
}

/** createProviderClient, speaking the program's terms at execute. */
export function createProviderClient(opts: ProviderClientOptions): TermsClient {
  return withTerms(createClient(opts));
}
