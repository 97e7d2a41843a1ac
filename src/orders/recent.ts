import type { Order } from "./model.ts";

/**
 * The orders this process last wrote or read, by reference, as starting points for a
 * compare-and-set, never as an answer: the store's write compares versions, so a hint that another
 * process has since overtaken only costs that write a retry from a fresh read. On one instance, where
 * the bot places an order and the webhook route moves it on, this saves the read before the
 * provider's pending event (a final claim is still read first: webhook/routes.ts lookUp says why;
 * README, Performance, Redis commands). Bounded: the oldest entry goes first.
 * Orders are held as the store returned them; nothing in the product mutates an order it was handed.
 */
export interface RecentOrders {
  remember(order: Order | null | undefined): void;
  hint(reference: string | undefined): Order | undefined;
}

const RECENT_ORDERS_CAP = 2000;

export function recentOrders(cap = RECENT_ORDERS_CAP): RecentOrders {
  const byReference = new Map<string, Order>();
  return {
    remember(order) {
      if (!order || cap <= 0) return;
      // The latest word wins, even an older version: after a failover the store itself can be
      // back at an older version (a write the replica never had), and a read of it must be
      // believed; a late reply that puts an older copy back only costs the next write a retry.
      byReference.delete(order.reference);
      byReference.set(order.reference, order);
      if (byReference.size > cap) {
        const oldest = byReference.keys().next().value;
        if (oldest !== undefined) byReference.delete(oldest);
      }
    },
    hint: (reference) => (reference === undefined ? undefined : byReference.get(reference)),
  };
}
