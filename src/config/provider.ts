import { z } from "zod";
import { NEPAL_UTC_OFFSET_MINUTES } from "../nepal-time.ts";
import { apiPath, emptyToUndefined, httpUrl, int, optionalString, type Parsed } from "./fields.ts";

/** The recharge aggregator's API: where, with which token, how patiently, and its paths. */
export const providerEnv = {
  PROVIDER_URL: z.preprocess(
    emptyToUndefined,
    httpUrl
      .refine((u) => /\/api\/v1\/?$/.test(u), "must be the base URL ending in /api/v1")
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  ),
  PROVIDER_TOKEN: optionalString,
  PROVIDER_LOOKUP_TIMEOUT_MS: int(10_000, 1),
  PROVIDER_EXECUTE_TIMEOUT_MS: int(30_000, 1),
  PROVIDER_MAX_RETRIES: int(3, 0),
  PROVIDER_INDIA_EXECUTE_PATH: apiPath("/in/recharge/execute"),
  PROVIDER_OPERATORS_PATH: apiPath("/np/operators"),
  PROVIDER_OPERATOR_TYPES_PATH: apiPath("/np/operator-types"),
  PROVIDER_INDIA_OPERATORS_PATH: apiPath("/in/operators"),
  PROVIDER_INDIA_OPERATOR_TYPES_PATH: apiPath("/in/operator-types"),
  /** The provider's zone-less timestamps are in this UTC offset (Nepal Time, +05:45, assumed). */
  PROVIDER_UTC_OFFSET_MINUTES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(-720).max(840).default(NEPAL_UTC_OFFSET_MINUTES),
  ),
  PROVIDER_INDIA_PLANS_PATH: apiPath("/in/operator-plans"),
  PROVIDER_INDIA_DTH_BILL_PATH: apiPath("/in/operator-plans"),
};
type ProviderEnv = Parsed<typeof providerEnv>;

export function providerRules(e: ProviderEnv): string[] {
  if (e.PROVIDER_URL && !e.PROVIDER_TOKEN)
    return ["PROVIDER_TOKEN: required when PROVIDER_URL is set"];
  return [];
}

export function providerSettings(e: ProviderEnv, sandboxToken: string) {
  return {
    /** Base URL ending in /api/v1; undefined means "the embedded sandbox, filled in at start". */
    baseUrl: e.PROVIDER_URL,
    token: e.PROVIDER_TOKEN ?? sandboxToken,
    lookupTimeoutMs: e.PROVIDER_LOOKUP_TIMEOUT_MS,
    executeTimeoutMs: e.PROVIDER_EXECUTE_TIMEOUT_MS,
    maxRetries: e.PROVIDER_MAX_RETRIES,
    paths: {
      indiaExecute: e.PROVIDER_INDIA_EXECUTE_PATH,
      operators: e.PROVIDER_OPERATORS_PATH,
      operatorTypes: e.PROVIDER_OPERATOR_TYPES_PATH,
      indiaOperators: e.PROVIDER_INDIA_OPERATORS_PATH,
      indiaOperatorTypes: e.PROVIDER_INDIA_OPERATOR_TYPES_PATH,
      indiaPlans: e.PROVIDER_INDIA_PLANS_PATH,
      indiaDthBill: e.PROVIDER_INDIA_DTH_BILL_PATH,
    },
    /** UTC offset of the provider's zone-less timestamps (status answers, webhooks). */
    utcOffsetMinutes: e.PROVIDER_UTC_OFFSET_MINUTES,
  };
}
