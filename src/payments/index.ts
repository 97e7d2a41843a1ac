/**
 * Top-ups (the customer's words: "add money"): paying into the balance online through the payment
 * gateway. Their state machine, stores, service and reconciler.
 */

export * from "./gateway/index.ts";
export { createMemoryTopUpStore } from "./memory-store.ts";
export * from "./model.ts";
export { createTopUpReconciler } from "./reconciler.ts";
export { createRedisTopUpStore } from "./redis-store.ts";
export { topUpReturnRoutes } from "./return-page.ts";
export {
  createTopUps,
  type DecideResult,
  type RefundDecideResult,
  STUCK_AFTER_MS,
  type StartResult,
  type TopUpNotice,
  type TopUps,
  type UnreadableNotice,
} from "./service.ts";
export type { Decision as HeldDecision } from "./state.ts";
export type { TopUpStore } from "./store.ts";
