export { createCatalogSync, memoryListingCache, redisListingCache } from "./catalog-sync.ts";
export {
  createProviderClient,
  type ProviderClient,
  type ProviderClientOptions,
  parseRetryAfter,
} from "./client.ts";
export * from "./errors.ts";
export { parseJsonPreservingBigInts } from "./json.ts";
export * from "./requests.ts";
export * from "./schemas.ts";
export { parseProviderTimestamp } from "./timestamp.ts";
