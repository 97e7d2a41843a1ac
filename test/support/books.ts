import type { Redis } from "ioredis";
import { type Books, createBooks, createRedisCrossings } from "../../src/books/index.ts";
import { createRedisLedger } from "../../src/ledger/index.ts";
import { createRedisOrderStore } from "../../src/orders/redis-store.ts";

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
