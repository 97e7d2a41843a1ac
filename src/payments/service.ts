import { applyLookup, confirmTopUp, visitTopUp } from "./apply.ts";
import { TOPUP_MIN_PAISA, usedToday } from "./caps.ts";
import { topUpContext } from "./context.ts";
import type { PaymentId } from "./gateway/port.ts";
import { decideHeldTopUp } from "./held-decision.ts";
import { isFinalTopUp, type TopUpEvent } from "./model.ts";
import { decidePartialRefund, rejectUncreditedRefund } from "./partial-refund.ts";
import { reconcilePass } from "./reconcile-pass.ts";
import { writeOffRefund } from "./refund-recovery.ts";
import { type StartInput, startTopUp } from "./start.ts";
import type { Decision } from "./state.ts";
import type { TopUpsOptions } from "./types.ts";

export { STUCK_AFTER_MS } from "./context.ts";
export type {
  DecideResult,
  RefundDecideResult,
  StartResult,
  TopUpNotice,
  TopUpsOptions,
  UnreadableNotice,
} from "./types.ts";

/**
 * The top-up service: adding money online through the payment gateway. Its parts:
 *  - start.ts: a checkout within the caps (caps.ts);
 *  - apply.ts: `apply`, the only code that changes a top-up on the gateway's word, with the ledger
 *    transfer of transfers.ts in the store's one atomic update; `confirm` and `visit` ask first;
 *  - held-decision.ts: an admin's decision on a held top-up;
 *  - partial-refund.ts: a partial refund's alert and the admin's figure of what was returned (or,
 *    before any credit, the admin's rejection);
 *  - notices.ts: the customer's push (at least once: the top-up records the status the customer
 *    was told of) and the admins' alerts;
 *  - reconcile-pass.ts: what the reconciler does on each pass (looks up, pushes what a crash left
 *    untold).
 */
export function createTopUps(opts: TopUpsOptions) {
  const ctx = topUpContext(opts);
  const { gateway, store } = ctx;
  return {
    gateway: gateway.name,
    minPaisa: TOPUP_MIN_PAISA,
    maxPaisa: opts.maxPaisa,
    start: (input: StartInput) => startTopUp(ctx, input),
    apply: (gatewayName: string, paymentId: string, e: TopUpEvent) =>
      applyLookup(ctx, gatewayName, paymentId, e),
    confirm: (gatewayName: string, paymentId: PaymentId) =>
      confirmTopUp(ctx, gatewayName, paymentId),
    visit: (paymentId: PaymentId) => visitTopUp(ctx, paymentId),
    /** `shownPaisa`: the gateway's figure the admin was shown (held-decision.ts). */
    decide: (paymentId: string, d: Decision, adminId: number, shownPaisa?: number) =>
      decideHeldTopUp(ctx, paymentId, d, adminId, shownPaisa),
    held: (limit = 20) => store.held(limit),
    /** An admin's figure (paisa) of what the gateway returned of a partial refund. */
    decideRefund: (paymentId: string, returnedPaisa: number, adminId: number) =>
      decidePartialRefund(ctx, paymentId, returnedPaisa, adminId),
    /** An admin's rejection of a partial refund seen before any credit (nothing credited). */
    rejectRefund: (paymentId: string, adminId: number) =>
      rejectUncreditedRefund(ctx, paymentId, adminId),
    partialRefunds: (limit = 20) => store.partialRefunds(limit),
    /** An admin's write-off, with a reason, of a refund's rest the balance never had (4b). */
    writeOffRefund: (paymentId: string, adminId: number, reason: string) =>
      writeOffRefund(ctx, paymentId, adminId, reason),
    /**
     * Open top-ups past the refund watch (no end from the gateway, looked up daily), oldest
     * first, and the time they were listed at (their age is counted from it).
     */
    pastWatch: async (limit = 20) => {
      const at = ctx.now();
      const open = await store.openSince(at - opts.refundWatchMs, limit);
      // Records that do not parse, still scheduled, set aside by the reconciler, or in the held
      // and partial-refund lists (which skip them): counted for the admins, not hidden (review
      // s23-d, 1; s23-e, 1).
      const unreadable = [...new Set([...open.unreadable, ...(await store.unreadable(100))])];
      return { at, topUps: open.topUps, unreadable: unreadable.sort() };
    },
    reconcile: (limit?: number) => reconcilePass(ctx, limit),
    get: (paymentId: string) => store.get(gateway.name, paymentId),
    /**
     * A user's top-ups that are not final (initiated, pending, held, partial_refund): one may
     * still credit or take back money on that account (a balance move waits for them).
     */
    notFinalOf: async (userId: number) =>
      (await store.listByUser(userId, 0)).topUps.filter(
        (t) => !isFinalTopUp(t.status) && t.status !== "completed",
      ),
    remainingToday: async (userId: number) =>
      Math.max(0, opts.dailyCapPaisa - (await usedToday(ctx, userId))),
  };
}

export type TopUps = ReturnType<typeof createTopUps>;
