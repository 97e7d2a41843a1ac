import type { Order, OrderStatus } from "../../src/orders/model.ts";
import type { OrderStore } from "../../src/orders/store.ts";

/**
 * Orders written straight into the Redis order store (the same Lua create the product uses), in
 * the state a benchmark needs them: "queued" (executed, waiting for the provider's events) or
 * "pending" (a pending webhook already applied).
 */

/** 15-digit references of the benchmark's own, never colliding with the product's time-based ones. */
export const benchReference = (i: number) => String(100_000_000_000_000 + i);
export const benchTransactionId = (i: number) => String(500_000_000 + i);

export function benchOrder(
  i: number,
  status: OrderStatus,
  opts: { chatId?: number; receiptMessageId?: number; at?: number } = {},
): Order {
  const at = opts.at ?? Date.now();
  const chatId = opts.chatId ?? 1_000_000 + (i % 10_000);
  const history: Order["history"] = [
    { source: "system", status: "placed", at },
    { source: "execute", status: "queued", at },
  ];
  if (status === "pending") history.push({ source: "webhook", status: "pending", at });
  if (status === "success" || status === "failed") {
    history.push({ source: "webhook", status, at });
  }
  return {
    reference: benchReference(i),
    idempotencyKey: `bench-${i}`,
    userId: chatId,
    chatId,
    locale: "en",
    category: "mobile",
    region: "np",
    operatorId: 5,
    operatorTypeId: 1,
    operatorName: "NTC Prepaid",
    connectionNo: `98412${String(i % 100_000).padStart(5, "0")}`,
    amountPaisa: 15_000,
    details: {},
    transactionId: benchTransactionId(i),
    status,
    ...(opts.receiptMessageId === undefined ? {} : { receiptMessageId: opts.receiptMessageId }),
    ...(status === "failed" ? { providerMessage: "Operator declined the recharge" } : {}),
    history,
    createdAt: at,
    updatedAt: at,
    submittedAt: at,
    version: 0,
  };
}

/** Creates orders [from, to) with `make`, `concurrency` writes in flight. */
export async function seedOrders(
  store: OrderStore,
  from: number,
  to: number,
  make: (i: number) => Order,
  concurrency = 500,
): Promise<void> {
  for (let start = from; start < to; start += concurrency) {
    const batch: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(to, start + concurrency); i++)
      batch.push(store.create(make(i)));
    await Promise.all(batch);
  }
}
