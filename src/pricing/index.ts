/** Prices the customer pays (the merchant's schedule) and the merchant's margin: pure, no I/O but the file read at start. */
export {
  DEFAULT_INR_TO_NPR_RATE,
  formatRate,
  inrToNprPaisa,
  type NprCharge,
  nprCharge,
  parseRate,
  RATE_SCALE,
} from "./exchange.ts";
export { margin } from "./margin.ts";
export { type Quote, quote } from "./quote.ts";
export {
  type Adjustment,
  DEFAULT_PRICE_SCHEDULE,
  type PriceRule,
  type PriceSchedule,
  PriceScheduleError,
  parsePriceSchedule,
} from "./schedule.ts";
