// The order search index for orders created before it existed (src/orders/search-backfill.ts):
//   REDIS_URL=redis://… REDIS_PREFIX=ra: node scripts/search-backfill.ts
// Safe while the product runs and safe to repeat. On a Cluster, REDIS_URL is the master holding
// the {money} slot. In the image: docker compose exec -T app node scripts/search-backfill.ts
import { Redis } from "ioredis";
import { backfillSearchIndex } from "../src/orders/search-backfill.ts";

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
try {
  const added = await backfillSearchIndex(redis, process.env.REDIS_PREFIX || "ra:");
  process.stdout.write(`search index: ${added} members added\n`);
} finally {
  redis.disconnect();
}
