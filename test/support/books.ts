import type { Redis } from "ioredis";
import {
  type Books,
  createBooks,
  createMemoryCrossings,
  createRedisCrossings,
} from "../../src/books/index.ts";
import {
  account,
  createMemoryLedger,
  createRedisLedger,
  type LedgerStore,
} from "../../src/ledger/index.ts";
import {
  createMemoryNotificationQueue,
  createRedisNotificationQueue,
} from "../../src/notify/index.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import {
  holdIdOf,
  type Notification,
  type Order,
  type OrderStatus,
  type WalletEffects,
} from "../../src/orders/model.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";
import { transition } from "../../src/orders/state.ts";
import { placedOrder } from "./orders.ts";

/**
 * The books as an admin reads them (GET /books), over the product's Redis under `prefix`, with the
 * aggregator's wallet read from the test's sandbox and no tolerance: any drift shows. The
 * low-float alert off unless `lowFloatPaisa` is given.
 */
export function booksOnRedis(
  redis: Redis,
  prefix: string,
  wallet: () => number,
  opts: { lowFloatPaisa?: number } = {},
): Books {
  return createBooks(
    {
      ledger: createRedisLedger({ redis, prefix }),
      orders: createRedisOrderStore({ redis, prefix }),
      walletBalance: async () => ({ creditAvailablePaisa: wallet() }),
      crossings: createRedisCrossings(redis, prefix),
      now: Date.now,
    },
    { tolerancePaisa: 0, ...opts },
  );
}

/**
 * The books over the memory stores (one outbox queue, the ledger, the order store), reading the
 * aggregator's wallet from `wallet()`, with a tolerance of Rs 1 unless `opts` says otherwise.
 */
export function booksInMemory(
  wallet: () => number | Promise<number>,
  opts: { tolerancePaisa?: number; lowFloatPaisa?: number } = {},
) {
  const queue = createMemoryNotificationQueue();
  const ledger = createMemoryLedger();
  const store = createMemoryOrderStore({ ledger, outbox: queue });
  const books = createBooks(
    {
      ledger,
      orders: store,
      walletBalance: async () => ({ creditAvailablePaisa: await wallet() }),
      crossings: createMemoryCrossings(queue),
      now: Date.now,
    },
    { tolerancePaisa: 100, ...opts },
  );
  return { queue, ledger, store, books };
}

/** A placed prepaid order of customer 11 for `price`, holding its total on the balance. */
export function heldOrder(reference: string, price: NonNullable<Order["price"]>): Order {
  return placedOrder({
    reference,
    idempotencyKey: `k-${reference}`,
    userId: 11,
    chatId: 11,
    amountPaisa: price.amountPaisa,
    price,
    holdId: holdIdOf(reference),
  });
}

/** Moves order `ref` to `status`: by the execute answer when it carries `w`, else by a webhook. */
export async function moveOrder(
  store: Pick<ReturnType<typeof createMemoryOrderStore>, "update">,
  ref: string,
  status: OrderStatus,
  w?: WalletEffects,
) {
  await store.update(ref, (cur) => {
    const t = transition(cur, {
      source: w ? "execute" : "webhook",
      status,
      at: Date.now(),
      ...(w ? { wallet: w } : {}),
    });
    return t.changed ? { order: t.order, notifications: t.notifications } : null;
  });
}

/**
 * Order `ref` of customer 11 held at `price`, then succeeded: the execute answer's `wallet` (what
 * the aggregator took) queues it, a webhook makes it final.
 */
export async function succeededOrder(
  store: Pick<ReturnType<typeof createMemoryOrderStore>, "create" | "update">,
  ref: string,
  price: NonNullable<Order["price"]>,
  wallet: WalletEffects,
) {
  await store.create(heldOrder(ref, price));
  await moveOrder(store, ref, "queued", wallet);
  await moveOrder(store, ref, "success");
}

/** An execute answer's wallet effects: `amountPaisa` sent, `debitPaisa` taken from the float. */
export const walletEffects = (amountPaisa: number, debitPaisa: number): WalletEffects => ({
  amountPaisa,
  serviceChargePaisa: 0,
  instantDiscountPaisa: 0,
  debitAmountPaisa: debitPaisa,
  creditAvailablePaisa: null,
});

/** An admin alert as queued. */
export type AdminAlert = Extract<Notification, { kind: "admin_alert" }>;

/** The books' alert tests start from one journal line: Rs 50 credited to agent 7 (`c1`). */
export async function creditAgentSeven(ledger: Pick<LedgerStore, "transfer">): Promise<void> {
  await ledger.transfer({
    id: "c1",
    debit: account.merchant.funding,
    credit: account.agent("7"),
    amountPaisa: 5_000,
    kind: "credit",
  });
}

/** Reads the admin alerts queued under `prefix` as they come; each call gives all seen so far. */
export function adminAlertReader(redis: Redis, prefix: string): () => Promise<AdminAlert[]> {
  const consumer = createRedisNotificationQueue({ redis, prefix }).consumer("t");
  const seen: AdminAlert[] = [];
  return async () => {
    for (const d of await consumer.read(100, 1)) {
      if (d.notification.kind === "admin_alert") seen.push(d.notification);
    }
    return seen;
  };
}
