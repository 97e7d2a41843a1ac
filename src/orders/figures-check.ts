import { formatRupees } from "../money.ts";
import { inferredWallet, isInferred, UNKNOWN_DEBIT_FACTOR } from "./inferred-debit.ts";
import type { Order, WalletEffects } from "./model.ts";
import { type TransitionResult, withHistory } from "./transition-kit.ts";

/**
 * The aggregator's figures for an order checked against what the order asked (review s25-c, 1).
 * The books book the aggregator's own figures, whatever they are, so the float agrees with its
 * wallet; but an amount other than the one sent, or a debit far from the face amount, is a slip
 * on one side (units, decimals) or the aggregator's mistake, and the float check cannot see it (it
 * agrees with the aggregator). So it is recorded on the order and the admins are alerted, once per
 * order, in the same step that records the figures.
 *
 * The tolerance: the debit is amount + service charge − instant discount (spec 2.1), an India
 * order's converted at the aggregator's own rate. The spec bounds neither the charge nor the
 * discount, so the debit is off only beyond UNKNOWN_DEBIT_FACTOR either way of the face amount in
 * Nepal rupees (the bound /books uses for a debit not known yet). Commission never changes the
 * debit (it is reported apart, and not booked: LEDGER.md). The amount is the one sent, exactly.
 */

/**
 * The crossings note of the figures-off alert's hourly window (books/figures-off.ts). The order's
 * step that sets `figuresOffAt` also marks the order owed a count in it (the note's `owed:` set,
 * in the same atomic write: redis-update.ts, memory-store.ts), so a crash before the count leaves
 * the mark for the flush's repair (books/hourly-alert.ts), not a lost alert.
 */
export const FIGURES_OFF_NOTE = "figures-off";

/** Whether the write of `written` over `current` owes a count in the figures-off window. */
export const owesFiguresOffCount = (current: Order, written: Order): boolean =>
  current.figuresOffAt === undefined && written.figuresOffAt !== undefined;

/** What is off in the aggregator's figures, in words for the admins; null when nothing is. */
export function figuresOff(order: Order, wallet: WalletEffects): string | null {
  if (isInferred(wallet)) return answeredAmountOff(order, wallet);
  const expected = inferredWallet(order).debitAmountPaisa;
  const off: string[] = [];
  // The amount is in the order's currency (₹ for India), the debit in the wallet's Nepal rupees.
  if (wallet.amountPaisa !== order.amountPaisa) {
    off.push(
      `amount ${formatRupees(wallet.amountPaisa, order.region)}, not the ${formatRupees(order.amountPaisa, order.region)} sent`,
    );
  }
  const debit = wallet.debitAmountPaisa;
  if (debit > UNKNOWN_DEBIT_FACTOR * expected || debit * UNKNOWN_DEBIT_FACTOR < expected) {
    off.push(`debit ${formatRupees(debit)} against about ${formatRupees(expected)} expected`);
  }
  return off.length > 0 ? off.join("; ") : null;
}

/**
 * An inferred debit is the order's own unless a status answer's success named another amount
 * (provider-events.ts eventFromStatus: inferred from that amount, so the float agrees with the
 * aggregator's debit): off then, in words (review s31-orders, 3). Its debit is derived, never off.
 */
function answeredAmountOff(order: Order, wallet: WalletEffects): string | null {
  const sent = inferredWallet(order).amountPaisa;
  if (wallet.amountPaisa === sent) return null;
  return `status answer amount ${formatRupees(wallet.amountPaisa, order.region)}, not the ${formatRupees(sent, order.region)} sent`;
}

/**
 * A step that books the aggregator's figures for an order (it enters success with them, or a
 * late answer replaces inferred ones) with what is off in them: the step gains a history entry
 * and the order `figuresOffAt`, once per order; the result names what is off (`figuresOff`), for
 * the admins' alert, sent after the write within an overall limit (books/figures-off.ts: a
 * systematic slip must not alert every admin for every order, review s25-e 3).
 */
export function withFiguresCheck(before: Order, t: TransitionResult, at: number): TransitionResult {
  const wallet = t.order.wallet;
  // Only where the figures are booked (postings.ts bookingsOf): the step that enters success, or
  // the late answer that replaces a success's inferred figures. A failed order books nothing, so
  // its figures (an execute answer "failed", debit 0) are nobody's concern (review s25-e, 2).
  if (!t.changed || !wallet || t.order.status !== "success") return t;
  if (before.status === "success" && wallet === before.wallet) return t;
  if (t.order.figuresOffAt !== undefined) return t;
  const off = figuresOff(t.order, wallet);
  if (off === null) return t;
  const note = `the aggregator's figures are off: ${off}; booked as reported, admins told`;
  const order: Order = {
    ...t.order,
    figuresOffAt: at,
    history: withHistory(t.order, { source: "system", status: null, at, note }, true),
  };
  return { ...t, order, figuresOff: off };
}
