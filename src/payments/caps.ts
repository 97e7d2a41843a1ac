import { nepalDayStart } from "../nepal-time.ts";
import type { TopUpContext } from "./context.ts";
import type { TopUp } from "./model.ts";

/**
 * The caps on adding money: Khalti's minimum, TOPUP_MAX_AMOUNT per top-up and the daily cap per
 * user, counted over the Nepal day (the merchant's day, whatever the customer's region).
 */

/** Khalti's minimum: Rs 10. */
export const TOPUP_MIN_PAISA = 1_000;

const DAY_MS = 86_400_000;

/** What counts against the daily cap: everything not ended without money. */
const counts = (t: TopUp) =>
  t.status !== "expired" && t.status !== "cancelled" && t.status !== "rejected";
const usedSum = (ts: TopUp[]) =>
  ts.filter(counts).reduce((sum, t) => sum + (t.creditedPaisa ?? t.amountPaisa), 0);

/** What the user's top-ups of today take of the daily cap. */
export async function usedToday(ctx: TopUpContext, userId: number): Promise<number> {
  return usedSum(await ctx.store.listByUser(userId, nepalDayStart(ctx.now())));
}

/**
 * The most `t` may credit now: TOPUP_MAX_AMOUNT, and what the daily cap leaves beside the user's
 * other top-ups of the day `t` was started on (the caps hold at credit time, not only at start).
 */
export async function creditLimit(ctx: TopUpContext, t: TopUp): Promise<number> {
  const { store, opts } = ctx;
  const from = nepalDayStart(t.createdAt);
  // Only money that came in counts here: an open checkout may never be paid, and a held one is
  // checked against the caps again when an admin decides.
  const credited = (await store.listByUser(t.userId, from))
    .filter(
      (o) =>
        o.createdAt < from + DAY_MS && !(o.gateway === t.gateway && o.paymentId === t.paymentId),
    )
    .reduce((sum, o) => sum + (o.creditedPaisa ?? 0), 0);
  return Math.max(0, Math.min(opts.maxPaisa, opts.dailyCapPaisa - credited));
}
