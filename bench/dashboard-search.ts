import { fileURLToPath } from "node:url";
import { createRedisOrderStore } from "../src/orders/redis-store.ts";
import type { OrderSearch } from "../src/orders/search.ts";
import { keyspace } from "../src/redis/keyspace.ts";
import { childMain } from "./lib/child.ts";
import { intEnv } from "./lib/env.ts";
import { benchOrder, benchReference, seedOrders } from "./lib/orders.ts";
import { benchPrefix, connectRedis, deleteKeys } from "./lib/redis.ts";
import { round, summarize } from "./lib/stats.ts";

/**
 * The back office's order search (src/orders/search.ts) over a seeded Redis: SEARCH_ORDERS orders
 * (default 100,000; issue 31 wants 1,000,000) written by the product's own create script (so the
 * index is the one production writes), spread over 30 days, 20,000 numbers, 5,000 customers, 2%
 * failed. Then, one at a time, SEARCH_QUERIES times each: the floor (one HGET of an order, the
 * cheapest read there is, and the store's get), and a page of 50 by number, by customer, the
 * newest, failed ones (a filter: a bounded scan), and one day's failed ones. Prints JSON.
 *
 *   npx tsx bench/dashboard-search.ts     (BENCH_REDIS_URL, default redis://127.0.0.1:6379)
 * and in bench/run.ts as `search` (BENCH_ONLY=search): about 25 s at 100,000 orders on 2 cores.
 */

const DAY = 86_400_000;

async function main() {
  const n = intEnv("SEARCH_ORDERS", 100_000);
  const queries = intEnv("SEARCH_QUERIES", 300);
  const prefix = benchPrefix("search");
  const redis = connectRedis();
  const store = createRedisOrderStore({ redis, prefix });
  const k = keyspace(prefix);
  const end = Date.now();
  const start = end - 30 * DAY;
  const orderAt = (i: number) => start + Math.floor((i / n) * 30 * DAY);
  try {
    const seedStart = performance.now();
    await seedOrders(store, 0, n, (i) => {
      const o = benchOrder(i, i % 50 === 0 ? "failed" : "success", {
        chatId: 2_000_000 + (i % 5_000),
        at: orderAt(i),
      });
      return { ...o, connectionNo: `98${String(i % 20_000).padStart(8, "0")}` };
    });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const pick = () => Math.floor(Math.random() * n);

    const time = async (run: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let q = 0; q < queries; q++) {
        const t = performance.now();
        await run();
        samples.push(performance.now() - t);
      }
      const s = summarize(samples);
      return { p50: round(s.p50), p99: round(s.p99), mean: round(s.mean) };
    };
    const search = (q: () => OrderSearch) => () => store.search(q());
    const scanned: number[] = [];
    const failed = async () => {
      const page = await store.search({ limit: 50, status: "failed" });
      scanned.push(page.scanned);
    };
    const result = {
      orders: n,
      indexMembers: await redis.zcard(k.orderSearch),
      indexBytesPerOrder: round(
        Number(await redis.call("MEMORY", "USAGE", k.orderSearch, "SAMPLES", "0")) / n,
      ),
      seedSeconds: round(seedSeconds),
      ms: {
        floorHget: await time(() => redis.hget(k.order(benchReference(pick())), "j")),
        floorGet: await time(() => store.get(benchReference(pick()))),
        byNumber: await time(
          search(() => ({
            limit: 50,
            connectionNo: `98${String(pick() % 20_000).padStart(8, "0")}`,
          })),
        ),
        byCustomer: await time(search(() => ({ limit: 50, userId: 2_000_000 + (pick() % 5_000) }))),
        newest: await time(search(() => ({ limit: 50 }))),
        failedAnyTime: await time(failed),
        failedOneDay: await time(
          search(() => {
            const from = orderAt(pick());
            return { limit: 50, status: "failed", from, to: from + DAY };
          }),
        ),
      },
      failedScannedPerPage: round(summarize(scanned).mean),
    };
    return result;
  } finally {
    redis.disconnect();
    await deleteKeys(prefix);
  }
}

export type SearchOut = Awaited<ReturnType<typeof runDashboardSearch>>;
export const runDashboardSearch = main;

// Under bench/run.ts (a child process) or by hand.
childMain(import.meta.url, main);
if (!process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
