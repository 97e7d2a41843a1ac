/** Customers' complaints on orders (issue 30): model, rules, stores and the service. */
export { createMemoryComplaintStore } from "./memory-store.ts";
export * from "./model.ts";
export { createRedisComplaintStore } from "./redis-store.ts";
export { backfillRefundMarks, ensureRefundMarks, REFUND_MARKS_BATCH } from "./refund-marks.ts";
export * from "./rules.ts";
export * from "./service.ts";
export type { ComplaintNotice, ComplaintStore, OpenOutcome, UpdateOutcome } from "./store.ts";
