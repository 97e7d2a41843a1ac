import type { RedisClient } from "../redis/connection.ts";
import type { UnmatchedEvent } from "./model.ts";
import { isFinal, unmatchedEventSchema } from "./model.ts";
import { createOrder } from "./redis-create.ts";
import { createRedisOrderEnv } from "./redis-env.ts";
import { claimCheckTake, nextReference, settledUnwatch } from "./redis-scripts.ts";
import { updateOrder } from "./redis-update.ts";
import { runSearch } from "./search.ts";
import { type ListOpenOptions, type OrderStore, UNMATCHED_CAP } from "./store.ts";

/**
 * Redis adapter of the order store. Each order is a hash {v: version, j: JSON}. Writes are Lua
 * scripts (atomic on the server, replicated and AOF-logged as a unit):
 *  - create: idempotency key, order, user index, open set, alias and the search index's members
 *    (search.ts) in one step;
 *  - update: compare-and-set on the version, plus the indexes AND the outbox stream entries of the
 *    notifications the change produced, so "status changed" and "notification queued" are one write.
 * Plain WATCH/MULTI is avoided on purpose: WATCH state belongs to a connection, and one ioredis
 * connection is shared by every concurrent caller in the process.
 */

export interface RedisOrderStoreOptions {
  redis: RedisClient;
  /** Key prefix (REDIS_PREFIX), e.g. "ra:". */
  prefix: string;
  now?: () => number;
}

/**
 * The parts: the scripts (redis-scripts.ts), the order's JSON (redis-codec.ts), the create
 * (redis-create.ts) and the compare-and-set (redis-update.ts) on shared keys and reads (redis-env.ts).
 */
export function createRedisOrderStore(opts: RedisOrderStoreOptions): OrderStore {
  const env = createRedisOrderEnv(opts);
  const { redis, k, now, load, loadMany } = env;
  const byTx = async (transactionId: string) => {
    const ref = await redis.hget(k.byTransaction, transactionId);
    return ref === null ? null : load(ref);
  };
  return {
    async nextReference() {
      const at = String(Math.floor(now()));
      const ref = await nextReference.run(
        redis,
        { seq: k.referenceSeq },
        at,
        await env.firstSeed(),
      );
      if (ref !== null) {
        env.numbered();
        return ref;
      }
      const seeded = await nextReference.run(
        redis,
        { seq: k.referenceSeq },
        at,
        await env.seedOf(),
      );
      if (seeded === null) throw new Error("the reference counter was not seeded");
      env.numbered();
      return seeded;
    },
    create: (order, o) => createOrder(env, order, o),
    get: load,
    getByTransactionId: byTx,
    async getByIdempotencyKey(key) {
      const ref = await redis.get(k.idempotency(key));
      return ref === null ? null : load(ref);
    },
    async listByUser(userId, limit, offset = 0) {
      if (limit <= 0) return [];
      const refs = await redis.zrevrange(k.byUser(userId), offset, offset + limit - 1);
      return loadMany(refs);
    },
    async listOpen({ createdBefore, limit, offset = 0 }: ListOpenOptions) {
      const refs = await redis.zrangebyscore(k.open, "-inf", createdBefore, "LIMIT", offset, limit);
      return (await loadMany(refs)).filter((o) => !isFinal(o.status));
    },
    async watchSettled(reference, dueAt) {
      await redis.zadd(k.settledWatch, dueAt, reference);
    },
    async dueSettled(at, limit) {
      if (limit <= 0) return [];
      const flat = await redis.zrangebyscore(
        k.settledWatch,
        "-inf",
        at,
        "WITHSCORES",
        "LIMIT",
        0,
        limit,
      );
      const due: { reference: string; dueAt: number }[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2)
        due.push({ reference: flat[i] ?? "", dueAt: Number(flat[i + 1]) });
      return due;
    },
    async unwatchSettled(reference, dueAt) {
      await settledUnwatch.run(redis, { watch: k.settledWatch }, reference, String(dueAt));
    },
    async takeClaimCheck(reference, at, cooldownMs) {
      const ms = Math.max(1, Math.floor(cooldownMs));
      const till = String(Math.floor(at) + ms);
      const key = { check: k.claimCheck(reference) };
      return (await claimCheckTake.run(redis, key, String(Math.floor(at)), till, String(ms))) === 1;
    },
    update: (reference, mutate, known) => updateOrder(env, reference, mutate, known),
    search(query) {
      return runSearch(
        {
          get: load,
          getByTransactionId: byTx,
          range: (min, max, n) =>
            redis.zrevrangebylex(k.orderSearch, `(${max}`, `[${min}`, "LIMIT", 0, n),
          loadMany,
        },
        query,
      );
    },
    async recordUnmatched(event: UnmatchedEvent) {
      await redis
        .multi()
        .lpush(k.unmatched, JSON.stringify(unmatchedEventSchema.parse(event)))
        .ltrim(k.unmatched, 0, UNMATCHED_CAP - 1)
        .exec();
    },
    async listUnmatched(limit) {
      const items = await redis.lrange(k.unmatched, 0, Math.max(0, limit - 1));
      return items.map((j) => unmatchedEventSchema.parse(JSON.parse(j)));
    },
  };
}
