// The order search index for orders created before it existed (src/orders/search-backfill.ts):
//   REDIS_URL=redis://… REDIS_PREFIX=ra: npx node scripts/search-backfill.ts
// (Node 24 runs the TypeScript as it is; `npx node` is the project's Node 24 after npm install.)
// Safe while the product runs and safe to repeat. On a Cluster, REDIS_URL is the master holding
// the {money} slot. The image holds neither scripts/ nor src/: run it from a checkout of this
// version (docs/deploying.md).
import { Redis } from "ioredis";
import { backfillSearchIndex } from "../src/orders/search-backfill.ts";

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
try {
  const added = await backfillSearchIndex(redis, process.env.REDIS_PREFIX || "ra:");
  process.stdout.write(`search index: ${added} members added\n`);
} finally {
  redis.disconnect();
}
