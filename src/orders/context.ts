import type { Logger, PrimitiveFieldsLogger } from "../logger.ts";
import type { MoneyPathMetrics } from "./metrics.ts";
import type { OrderParts } from "./parts.ts";
import type { RecentOrders } from "./recent.ts";
import type { OrderStore } from "./store.ts";

/** What place, submit and apply share: the store, the clock, the log and the remembered orders. */
export interface OrdersContext {
  store: OrderStore;
  now: () => number;
  log: Logger | undefined;
  /**
   * The status-change and "order placed" lines' logger (primitiveFieldsLogger of `log`: their
   * fields are primitives only); one such line per webhook made a tenth of the route's CPU.
   */
  transitionLog: PrimitiveFieldsLogger | undefined;
  metrics: MoneyPathMetrics;
  recent: RecentOrders;
  /** The registered categories' order parts (details schema, execute request), by id. */
  parts: OrderParts;
  /** Alerted when the aggregator contradicts a final order no admin settled (ADMIN_IDS; state.ts). */
  adminChatIds: readonly number[];
}
