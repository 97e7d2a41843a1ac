import type { Order } from "../orders/model.ts";
import { OUR_SIDE_WINDOW } from "../orders/owed.ts";
import { ourSideNote, ourSideStatusOf } from "../orders/provider-events.ts";
import type { HourlyAlertKind } from "./hourly-alert.ts";

/**
 * The admins' alert for executes refused on the merchant's side (review s33-rvprov, 3): our token
 * (401), our IP (403) or our rate (429). A token bound to another IP refuses every order, so one
 * alert per order would bury the admin lane: at most one an hour (hourly-alert.ts), the orders
 * counted meanwhile each keep their own record. A topic of its own: the collisions' words ("a
 * reference counter set back") would send the admins to the wrong place.
 */
export const OUR_SIDE_KIND: HourlyAlertKind = {
  name: OUR_SIDE_WINDOW,
  counted: "an execute refused on our side: counted",
  more: "order(s) refused on our side (token, IP or rate)",
  note: (order, note, since) =>
    `Order ${order.reference}: ${note}${since} Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
  flush: (count) =>
    `Execute refused on our side (our token, IP or request rate: HTTP 401, 403 or 429): ${count} None was executed: each failed with nothing charged and its customer was told the service is briefly unavailable. Check the token and this deployment's egress IP. Further orders refused so within the hour are recorded on each order and counted in the next alert.`,
  // Every order counted here failed with the refusal.
  status: "failed",
  owedDetail: (order: Order) => ourSideNote(ourSideStatusOf(order), order.providerMessage ?? ""),
};
