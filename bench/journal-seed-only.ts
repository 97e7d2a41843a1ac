import { createRedisLedger } from "../src/ledger/redis-store.ts";
import { seedBooks } from "./lib/books-seed.ts";
import { connectRedis } from "./lib/redis.ts";

/**
 * Seeds only the journal (lib/books-seed.ts) under a fixed prefix, for measuring the export alone
 * (journal-export.ts) without the orders: BENCH_EXPORT_PREFIX, SEARCH_TRANSFERS. Prints the range
 * (BENCH_EXPORT_FROM / BENCH_EXPORT_TO for journal-export.ts). The keys stay until deleted:
 * `redis-cli --scan --pattern 'bench:export-only:*' | xargs redis-cli unlink`.
 */
const prefix = process.env.BENCH_EXPORT_PREFIX ?? "bench:export-only:";
const transfers = Number(process.env.SEARCH_TRANSFERS ?? 1_000_000);
const DAY = 86_400_000;
const redis = connectRedis();
const clock = { now: Date.now() };
const ledger = createRedisLedger({ redis, prefix, now: () => clock.now });
const end = Date.now();
const start = end - 30 * DAY;
const n = Math.floor(transfers / 4);
const order = (j: number) => ({
  reference: `RA${String(j).padStart(10, "0")}`,
  userId: j % 25 === 0 ? 1_999_999 : 2_000_000 + (j % 5_000),
  at: start + Math.floor((j / n) * 30 * DAY),
});
const customers = [1_999_999, ...Array.from({ length: 5_000 }, (_, u) => 2_000_000 + u)];
const t = performance.now();
await seedBooks(ledger, { transfers, order, customers, clock });
process.stdout.write(
  `${JSON.stringify({ prefix, from: start - DAY, to: end + DAY, seconds: (performance.now() - t) / 1000, xlen: await redis.xlen(`${prefix}ledger:journal`) })}\n`,
);
redis.disconnect();
