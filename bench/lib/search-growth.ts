import type { Redis } from "ioredis";
import { createRedisOrderEnv } from "../../src/orders/redis-env.ts";
import { type OrderSearch, runSearch, type SearchSource } from "../../src/orders/search.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { round, summarize } from "./stats.ts";

/**
 * Issue 31 target 7 for the back office, measured so that a shared machine's load cannot decide
 * it: the order index of the full store (every order) and a copy holding half of it (the even
 * orders: the same numbers, customers and days, half as many orders of the store), both in Redis
 * at once, read through the product's own runSearch. Each sample runs the same query on both,
 * the order alternating, one right after the other: the ratio of their p50s is the cost of
 * doubling the orders under the same load, with no floor to divide by (a ~40 us HGET's p50 moved
 * by a fifth between two phases minutes apart, more than the queries it was dividing).
 *
 * The subject of each query is taken from the even orders, so it is in both indexes: a customer's
 * or a number's page holds the same orders in both (their orders are all even or all odd), a
 * week's or the newest page 50 of twice as many. The order hashes are shared: what doubles is the
 * index, the only structure a search reads that grows with the orders (an order is one key read).
 */

export type GrowthQuery = () => OrderSearch;

/** Copies the members of the even orders' (`keep`) of the index to `halfKey`, in chunks. */
async function copyHalf(
  redis: Redis,
  from: string,
  halfKey: string,
  keep: (ref: string) => boolean,
) {
  await redis.unlink(halfKey);
  let min = "-";
  for (;;) {
    const members = await redis.zrangebylex(from, min, "+", "LIMIT", 0, 10_000);
    if (members.length === 0) break;
    const kept = members.filter((m) => keep(m.slice(m.lastIndexOf(":") + 1)));
    if (kept.length) await redis.zadd(halfKey, ...kept.flatMap((m) => ["0", m]));
    min = `(${members.at(-1)}`;
  }
  return redis.zcard(halfKey);
}

export async function measureIndexGrowth(opts: {
  redis: Redis;
  prefix: string;
  /** Whether an order (by reference) is in the half. */
  inHalf: (reference: string) => boolean;
  queries: Record<string, GrowthQuery>;
  times: number;
}) {
  const { redis, prefix } = opts;
  const k = keyspace(prefix);
  const halfKey = `${k.orderSearch}:half`;
  const halfMembers = await copyHalf(redis, k.orderSearch, halfKey, opts.inHalf);
  const env = createRedisOrderEnv({ redis, prefix });
  const source = (key: string): SearchSource => ({
    get: env.load,
    getByTransactionId: async () => null,
    range: (min, max, n) => redis.zrevrangebylex(key, `(${max}`, `[${min}`, "LIMIT", 0, n),
    loadMany: env.loadMany,
  });
  const full = source(k.orderSearch);
  const half = source(halfKey);
  const timed = async (src: SearchSource, q: OrderSearch) => {
    const t = performance.now();
    const page = await runSearch(src, q);
    return { ms: performance.now() - t, found: page.orders.length };
  };
  const out: Record<string, { halfP50: number; fullP50: number; growth: number; pages: string }> =
    {};
  try {
    for (const [name, make] of Object.entries(opts.queries)) {
      const h: number[] = [];
      const f: number[] = [];
      let halfFound = 0;
      let fullFound = 0;
      // A short pass first (JIT), then the samples.
      for (let i = -Math.min(50, opts.times); i < opts.times; i++) {
        const q = make();
        const first = i % 2 === 0 ? half : full;
        const a = await timed(first, q);
        const b = await timed(first === half ? full : half, q);
        if (i < 0) continue;
        const [hs, fs] = first === half ? [a, b] : [b, a];
        h.push(hs.ms);
        f.push(fs.ms);
        halfFound += hs.found;
        fullFound += fs.found;
      }
      const halfP50 = summarize(h).p50;
      const fullP50 = summarize(f).p50;
      out[name] = {
        halfP50: round(halfP50),
        fullP50: round(fullP50),
        growth: round(fullP50 / halfP50),
        pages: `${round(halfFound / opts.times)} vs ${round(fullFound / opts.times)} orders a page`,
      };
    }
  } finally {
    await redis.unlink(halfKey);
  }
  return { halfMembers, fullMembers: await redis.zcard(k.orderSearch), queries: out };
}
