import { randomUUID } from "node:crypto";
import type { Order } from "../../src/orders/model.ts";
import type { PlaceInput } from "../../src/orders/service.ts";
import type { OrderStore } from "../../src/orders/store.ts";

/** Shared helpers of the money-path tests (orders, notify, webhook). */

export { serveFetch } from "./http.ts";
export { REDIS_URL, testRedis } from "./redis.ts";
export { waitUntil } from "./wait.ts";

/** The fields of a valid NTC prepaid mobile order, shared by the place input and the stored order. */
const NTC_MOBILE = {
  locale: "en",
  category: "mobile",
  region: "np",
  operatorId: 5,
  operatorTypeId: 1,
  operatorName: "NTC Prepaid",
  connectionNo: "9841234567",
  amountPaisa: 10_000,
} as const satisfies Partial<Order>;

let seq = 0;
/**
 * A valid NTC prepaid mobile order input; `over` may make it another category's (or an invalid
 * one on purpose: place() validates), hence the cast.
 */
export function mobileInput(over: Partial<PlaceInput> = {}): PlaceInput {
  seq++;
  return {
    idempotencyKey: `key-${randomUUID()}`,
    userId: 1000 + (seq % 5),
    chatId: 1000 + (seq % 5),
    ...NTC_MOBILE,
    details: {},
    ...over,
  } as PlaceInput;
}

/** A stored-shape order in "placed", for pure state-machine tests (`over` may change its category). */
export function placedOrder(over: Partial<Order> = {}): Order {
  return {
    reference: "1700000000001",
    idempotencyKey: "k1",
    userId: 42,
    chatId: 42,
    ...NTC_MOBILE,
    details: {},
    status: "placed",
    history: [{ source: "system", status: "placed", at: 1 }],
    createdAt: 1,
    updatedAt: 1,
    version: 0,
    ...over,
  } as Order;
}

/** What the two seams below need of the orders service (createOrders satisfies it). */
interface PlaceSubmit {
  place(input: PlaceInput): Promise<Order>;
  submit(reference: string, opts?: { known?: Order }): Promise<Order>;
  store: Pick<OrderStore, "update">;
}

/** place then submit; returns the order after the execute outcome was applied. */
export async function placeAndSubmit(orders: PlaceSubmit, input: PlaceInput): Promise<Order> {
  const order = await orders.place(input);
  return orders.submit(order.reference, { known: order });
}

/**
 * Remembers the chat message the notifier edits in place, as the checkout's submit does with its
 * receipt (a write of the store, not a status change).
 */
export async function attachReceipt(
  orders: Pick<PlaceSubmit, "store">,
  reference: string,
  messageId: number,
): Promise<Order | null> {
  const r = await orders.store.update(reference, (current) =>
    current.receiptMessageId === messageId
      ? null
      : { order: { ...current, receiptMessageId: messageId }, notifications: [] },
  );
  return r?.order ?? null;
}
