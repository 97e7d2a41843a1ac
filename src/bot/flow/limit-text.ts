import { formatMoney, type Region } from "../../money.ts";
import type { LimitReason } from "../../orders/limits.ts";
import type { BotDeps } from "../deps.ts";
import { formatOrderTime } from "../format.ts";
import type { FlowScope } from "./prompt-loop.ts";

/**
 * The words of a limit's refusal. A cap refusal of one order is not "the limit reached" while some
 * of it is left: that order is more than what is left, and the customer is told both figures.
 */

/** Below this (Rs 1) nothing is left of today's cap (as the flows' up-front check counts it). */
const NOTHING_LEFT_PAISA = 100;

/** An order the cap refused: what it counts and what is left today, in Nepal paisa. */
export interface OverCap {
  spendPaisa: number;
  leftPaisa: number;
}

/** A refusal as the checkout keeps it in the conversation's log: the reason, and the cap's figures. */
export type Refusal = { reason: LimitReason; over?: OverCap };

/**
 * `reason`, with the figures of a cap refusal of one order: what is left today is read here (in
 * the caller's `external`, so a replay reads nothing).
 */
export async function refusalOf(
  deps: BotDeps,
  userId: number,
  reason: LimitReason,
  spendPaisa: number,
): Promise<Refusal> {
  if (reason !== "daily_cap") return { reason };
  const { spendLeftPaisa } = await deps.limits.headroom(userId);
  return { reason, over: { spendPaisa, leftPaisa: spendLeftPaisa } };
}

/**
 * Why a limit refuses, with its number and when it ends (the limits' own clock and windows, in
 * Nepal time, the one date format): today's cap, which ends at Nepal midnight, or the hourly count,
 * which ends with the clock hour. With `over` and something left, the order is over what is left.
 * A replay sends nothing new, so the clock read here changes no message once sent.
 */
export function limitText(
  s: FlowScope,
  reason: LimitReason,
  over?: OverCap,
  /** The refused order's amount, in its region's rupees: an India order's ₹ is named as such. */
  order?: { region: Region; amountPaisa: number },
): string {
  const { limits } = s.deps;
  const time = formatOrderTime(limits.resetAt(reason), "np", s.t.locale);
  const rs = (paisa: number) => formatMoney(paisa, { locale: s.t.locale });
  if (reason === "rate")
    // The count as text: Latin digits in every language, like the rest of the message.
    return s.t("limit-rate", { count: String(limits.terms.ordersPerHour), time });
  const cap = rs(limits.terms.dailyCapPaisa);
  if (over && over.leftPaisa >= NOTHING_LEFT_PAISA && over.spendPaisa > over.leftPaisa) {
    // The cap is in Nepal rupees, the India question in ₹: the customer is told which is which
    // (review s33-rvtruth 8). No ₹ figure for what is left: it depends on the rate and the fee.
    if (order?.region === "in")
      return s.t("limit-daily-cap-order-india", {
        amount: formatMoney(order.amountPaisa, { region: "in", locale: s.t.locale }),
        total: rs(over.spendPaisa),
        left: rs(over.leftPaisa),
        cap,
        time,
      });
    return s.t("limit-daily-cap-order", {
      total: rs(over.spendPaisa),
      left: rs(over.leftPaisa),
      cap,
      time,
    });
  }
  return s.t("limit-daily-cap", { cap, time });
}
