/**
 * Two layers. The domain schemas (`packageSchema`, `billSchema`, ...) describe what the client hands
 * to the rest of the program: ids as strings, money as integer paisa, camelCase. The `wire*` schemas
 * read the provider's JSON, tolerating the documented variations (numbers as strings, ids as strings
 * or numbers, credits_available vs credit_available, two error shapes, two timestamp formats), and
 * transform it into the domain shapes.
 */

export * from "./domain.ts";
export * from "./wire.ts";
export * from "./wire-payloads.ts";
