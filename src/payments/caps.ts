import { nepalDayStart } from "../nepal-time.ts";
import type { TopUpContext } from "./context.ts";
import type { TopUp } from "./model.ts";
import type { Effect } from "./state.ts";
import type { CreditCap } from "./store.ts";
import type { TopUpsOptions } from "./types.ts";

/**
 * The caps on adding money: Khalti's minimum, TOPUP_MAX_AMOUNT per top-up and the daily cap per
 * user, counted over the Nepal day (the merchant's day, whatever the customer's region).
 */

/** Khalti's minimum: Rs 10. */
export const TOPUP_MIN_PAISA = 1_000;

const DAY_MS = 86_400_000;

/**
 * What counts against the daily cap: everything not ended without money. A top-up refunded in
 * whole before any credit brought nothing in, as a rejected one (review s31-pay, 6: it used the
 * cap at /addmoney while the credit-time reading, `limitBeside`, counted it 0).
 */
const counts = (t: TopUp) =>
  t.status !== "expired" &&
  t.status !== "cancelled" &&
  t.status !== "rejected" &&
  !(t.status === "refunded" && t.creditedPaisa === undefined);
const usedSum = (ts: TopUp[]) =>
  ts.filter(counts).reduce((sum, t) => sum + (t.creditedPaisa ?? t.amountPaisa), 0);

/**
 * What the user's top-ups of today take of the daily cap. A record that does not parse may have
 * credited anything up to TOPUP_MAX_AMOUNT: counted as that much (review s31-pay, 1), not 0.
 */
export async function usedToday(ctx: TopUpContext, userId: number): Promise<number> {
  const day = await ctx.store.listByUser(userId, nepalDayStart(ctx.now()));
  return usedSum(day.topUps) + day.unreadable.length * ctx.opts.maxPaisa;
}

/**
 * The caps a credit of `creditPaisa` to `t` must stay within: TOPUP_MAX_AMOUNT, and the daily cap
 * over the user's top-ups started on the Nepal day `t` was started on. The store checks it again
 * in the step that books the credit (store.ts `CreditCap`).
 */
export function creditCap(
  opts: Pick<TopUpsOptions, "maxPaisa" | "dailyCapPaisa">,
  t: TopUp,
  creditPaisa: number,
): CreditCap {
  const from = nepalDayStart(t.createdAt);
  return {
    creditPaisa,
    maxPaisa: opts.maxPaisa,
    dailyCapPaisa: opts.dailyCapPaisa,
    from,
    until: from + DAY_MS,
  };
}

/**
 * The most `t` may credit beside `others` (the user's top-ups, any of them): only money that came
 * in counts here: an open checkout may never be paid, and a held one is checked against the caps
 * again when an admin decides. `unreadable`: how many of the user's records of the window do not
 * parse; each may have credited up to TOPUP_MAX_AMOUNT, so each counts as that much: a paid
 * top-up beside one is credited within what is then left, or held for an admin ("cap"), never
 * credited past the daily cap (review s31-pay, 1). The memory store runs this in its update; the
 * Redis update script does the same in Lua (redis-scripts.ts).
 */
export function limitBeside(
  others: readonly TopUp[],
  t: TopUp,
  cap: Omit<CreditCap, "creditPaisa">,
  unreadable = 0,
) {
  const credited = others
    .filter(
      (o) =>
        o.createdAt >= cap.from &&
        o.createdAt < cap.until &&
        !(o.gateway === t.gateway && o.paymentId === t.paymentId),
    )
    .reduce((sum, o) => sum + (o.creditedPaisa ?? 0), unreadable * cap.maxPaisa);
  return Math.max(0, Math.min(cap.maxPaisa, cap.dailyCapPaisa - credited));
}

/**
 * The most `t` may credit now: TOPUP_MAX_AMOUNT, and what the daily cap leaves beside the user's
 * other top-ups of the day `t` was started on (the caps hold at credit time, not only at start).
 * A reading: the store checks it again as it books the credit, and refuses ("cap") when another
 * credit came in between.
 */
export async function creditLimit(ctx: TopUpContext, t: TopUp): Promise<number> {
  const cap = creditCap(ctx.opts, t, 0);
  const day = await ctx.store.listByUser(t.userId, cap.from, cap.until);
  return limitBeside(day.topUps, t, cap, day.unreadable.length);
}

/** The caps the store checks with a transition's credit (none for any other effect). */
export function capOf(ctx: TopUpContext, t: TopUp, effect: Effect | undefined) {
  return effect?.kind === "credit" ? creditCap(ctx.opts, t, effect.amountPaisa) : undefined;
}
