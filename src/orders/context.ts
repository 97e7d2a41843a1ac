import type { Logger, PrimitiveFieldsLogger } from "../logger.ts";
import type { MoneyPathMetrics } from "./metrics.ts";
import type { Order } from "./model.ts";
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
  /**
   * A complaint refund already booked for the order (which complaint, how much, when): read before
   * a late word on a successful order, so a contradiction's alert says it was paid (apply.ts).
   * Unset: no complaints (the alert says the customer may be owed a refund).
   */
  refundOf: ((reference: string) => Promise<OrderRefund | null>) | undefined;
  /**
   * Told after the write of a step that found the aggregator's figures off (figures-check.ts):
   * the admins' alert, within an overall limit (books/figures-off.ts). Unset: logged only.
   */
  onFiguresOff: ((f: FiguresOff) => Promise<unknown>) | undefined;
  /**
   * Told after the write of a step whose event carries a note for the admins (an execute refused
   * for a reference the aggregator already holds): the admins' alert, within an overall limit
   * (books/collision-alert.ts). Unset: logged only.
   */
  onAdminNote: ((n: AdminNote) => Promise<unknown>) | undefined;
}

/** An order moved by an event with a note for the admins, and that note. */
export interface AdminNote {
  order: Order;
  note: string;
  at: number;
  /**
   * The order's write marked it owed a count (UpdateResult.owed, owed.ts collisionNoteOf): the
   * count takes the mark, and one left by a crash is told by the flush's repair.
   */
  owed?: boolean;
}

/** An order whose booked figures are off, and what is off in words. */
export interface FiguresOff {
  order: Order;
  off: string;
  at: number;
  /**
   * The order's write marked it owed a count (UpdateResult.owed): the count takes the
   * mark, and one left by a crash is counted by the flush's repair (books/hourly-alert.ts).
   */
  owed?: boolean;
}

/** A complaint's refund of an order, as the contradiction's alert tells it (notification.ts). */
export interface OrderRefund {
  complaint: string;
  paisa: number;
  at: number;
}
