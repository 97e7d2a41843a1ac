import type { FiguresOff } from "../orders/context.ts";
import { FIGURES_OFF_NOTE, figuresOff } from "../orders/figures-check.ts";
import type { Order } from "../orders/model.ts";
import {
  createHourlyAlert,
  HOURLY_ALERT_WINDOW_MS,
  type HourlyAlertDeps,
  type HourlyAlertKind,
} from "./hourly-alert.ts";

/**
 * The admins' alert for orders whose booked figures are off (orders/figures-check.ts), within an
 * overall limit (review s25-e, 3): a systematic slip (a units change on the aggregator's side, a
 * category whose `amount` it writes otherwise) is the case the check is for. At most one alert an
 * hour (hourly-alert.ts); the orders counted meanwhile keep their own record (`figuresOffAt`).
 */

export const FIGURES_OFF_WINDOW_MS = HOURLY_ALERT_WINDOW_MS;

export const FIGURES_OFF_KIND: HourlyAlertKind = {
  name: FIGURES_OFF_NOTE,
  counted: "figures off: counted",
  more: "order(s) with figures off",
  note: (order, off, since) =>
    `Order ${order.reference}: the aggregator's figures are off (${off}). They are booked as reported, so the float check agrees with the aggregator; check the order (its page in the back office) with the aggregator.${since} Further orders with figures off within the hour are recorded on each order and counted in the next alert.`,
  flush: (count) =>
    `The aggregator's figures are off: ${count} They are booked as reported; check each order (its page in the back office) with the aggregator. Further orders with figures off within the hour are recorded on each order and counted in the next alert.`,
  // Only a success books figures (a failed order books nothing, so its figures alert nobody).
  status: "success",
  owedDetail: owedDetailOf,
};

/**
 * What is off, for an order the flush's repair tells (its own process ended before the count): as
 * its step found it, from the figures recorded on it; else what the order's record says.
 */
function owedDetailOf(order: Order): string {
  const off = order.wallet ? figuresOff(order, order.wallet) : null;
  return off ?? "recorded on the order, see its history";
}

export function createFiguresOffAlert(deps: HourlyAlertDeps): (f: FiguresOff) => Promise<boolean> {
  const tell = createHourlyAlert(deps, FIGURES_OFF_KIND);
  return ({ order, off, at, owed }) => tell(order, off, at, owed === true);
}
