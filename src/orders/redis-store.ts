import type { Redis } from "ioredis";
import {
  isFinal,
  type Order,
  orderSchema,
  type UnmatchedEvent,
  unmatchedEventSchema,
} from "./model.ts";
import { moneyPathKeys } from "./redis-keys.ts";
import {
  CAS_ATTEMPTS,
  type CreateResult,
  type ListOpenOptions,
  type Mutation,
  type OrderStore,
  ReferenceInUseError,
  StoreConflictError,
  UNMATCHED_CAP,
  type UpdateResult,
} from "./store.ts";

/**
 * Redis adapter of the order store. Each order is a hash {v: version, j: JSON}. Writes are Lua
 * scripts (atomic on the server, replicated and AOF-logged as a unit):
 *  - create: idempotency key, order, user index, open set and alias in one step;
 *  - update: compare-and-set on the version, plus the indexes AND the outbox stream entries of the
 *    notifications the change produced, so "status changed" and "notification queued" are one write.
 * Plain WATCH/MULTI is avoided on purpose: WATCH state belongs to a connection, and one ioredis
 * connection is shared by every concurrent caller in the process.
 */

export interface RedisOrderStoreOptions {
  redis: Redis;
  /** Key prefix (REDIS_PREFIX), e.g. "ra:". */
  prefix: string;
  now?: () => number;
}

const NEXT_REFERENCE = `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local nextv = last + 1
local nowms = tonumber(ARGV[1])
if nowms > nextv then nextv = nowms end
local text = string.format('%.0f', nextv)
redis.call('SET', KEYS[1], text)
return text
`;

// KEYS: idempotency, order, byUser, open, alias-or-order. ARGV: reference, json, createdAt, version, alias, open?
const CREATE = `
local existing = redis.call('GET', KEYS[1])
if existing then return {0, existing} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {-1, ARGV[1]} end
if ARGV[5] ~= '' then
  if redis.call('EXISTS', KEYS[5]) == 1 then return {-1, ARGV[5]} end
  redis.call('SET', KEYS[5], ARGV[1])
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'v', ARGV[4], 'j', ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
if ARGV[6] == '1' then redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1]) end
return {1, ARGV[1]}
`;

// KEYS: order, open, byTx, outbox. ARGV: expected version, new version, json, reference, final?, txId, notifications...
const UPDATE = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'j', ARGV[3])
if ARGV[5] == '1' then redis.call('ZREM', KEYS[2], ARGV[4]) end
if ARGV[6] ~= '' then redis.call('HSETNX', KEYS[3], ARGV[6], ARGV[4]) end
for i = 7, #ARGV do redis.call('XADD', KEYS[4], '*', 'n', ARGV[i]) end
return 1
`;

interface Scripts {
  raNextReference(key: string, now: string): Promise<string>;
  raOrderCreate(...args: string[]): Promise<[number, string]>;
  raOrderUpdate(...args: string[]): Promise<number>;
}

/** Registers the scripts once per connection (EVALSHA, falling back to EVAL after a Redis restart). */
function scripts(redis: Redis): Scripts {
  const r = redis as unknown as Partial<Scripts> & Redis;
  if (typeof r.raNextReference !== "function") {
    redis.defineCommand("raNextReference", { numberOfKeys: 1, lua: NEXT_REFERENCE });
    redis.defineCommand("raOrderCreate", { numberOfKeys: 5, lua: CREATE });
    redis.defineCommand("raOrderUpdate", { numberOfKeys: 4, lua: UPDATE });
  }
  return redis as unknown as Scripts;
}

const parseOrder = (json: string): Order => orderSchema.parse(JSON.parse(json));

export function createRedisOrderStore(opts: RedisOrderStoreOptions): OrderStore {
  const { redis } = opts;
  const now = opts.now ?? Date.now;
  const k = moneyPathKeys(opts.prefix);
  const lua = scripts(redis);

  const load = async (reference: string): Promise<Order | null> => {
    const json = await redis.hget(k.order(reference), "j");
    if (json !== null) return parseOrder(json);
    const main = await redis.get(k.alias(reference));
    if (main === null) return null;
    const aliased = await redis.hget(k.order(main), "j");
    return aliased === null ? null : parseOrder(aliased);
  };

  const loadMany = async (references: string[]): Promise<Order[]> => {
    if (references.length === 0) return [];
    const pipe = redis.pipeline();
    for (const ref of references) pipe.hget(k.order(ref), "j");
    const replies = (await pipe.exec()) ?? [];
    const out: Order[] = [];
    for (const [err, json] of replies) {
      if (err) throw err;
      if (typeof json === "string") out.push(parseOrder(json));
    }
    return out;
  };

  return {
    async nextReference() {
      return lua.raNextReference(k.referenceSeq, String(Math.floor(now())));
    },

    async create(order: Order): Promise<CreateResult> {
      const valid = orderSchema.parse(order);
      const alias =
        valid.executeReference !== undefined && valid.executeReference !== valid.reference
          ? valid.executeReference
          : "";
      const [code, ref] = await lua.raOrderCreate(
        k.idempotency(valid.idempotencyKey),
        k.order(valid.reference),
        k.byUser(valid.userId),
        k.open,
        alias ? k.alias(alias) : k.order(valid.reference),
        valid.reference,
        JSON.stringify(valid),
        String(valid.createdAt),
        String(valid.version),
        alias,
        isFinal(valid.status) ? "0" : "1",
      );
      if (code === -1) throw new ReferenceInUseError(ref);
      if (code === 0) {
        const existing = await load(ref);
        if (!existing) throw new Error(`idempotency key points at missing order ${ref}`);
        return { created: false, order: existing };
      }
      return { created: true, order: valid };
    },

    get: load,

    async getByTransactionId(transactionId) {
      const ref = await redis.hget(k.byTransaction, transactionId);
      return ref === null ? null : load(ref);
    },

    async getByIdempotencyKey(key) {
      const ref = await redis.get(k.idempotency(key));
      return ref === null ? null : load(ref);
    },

    async listByUser(userId, limit) {
      const refs = await redis.zrevrange(k.byUser(userId), 0, Math.max(0, limit - 1));
      return loadMany(refs);
    },

    async listOpen({ createdBefore, limit, offset = 0 }: ListOpenOptions) {
      const refs = await redis.zrangebyscore(k.open, "-inf", createdBefore, "LIMIT", offset, limit);
      return (await loadMany(refs)).filter((o) => !isFinal(o.status));
    },

    async update(reference: string, mutate: Mutation, known?: Order): Promise<UpdateResult | null> {
      for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
        const current = attempt === 0 && known ? known : await load(reference);
        if (!current) return null;
        const result = mutate(structuredClone(current));
        if (!result) return { order: current, updated: false, notifications: [] };
        const written = orderSchema.parse({ ...result.order, version: current.version + 1 });
        const ok = await lua.raOrderUpdate(
          k.order(current.reference),
          k.open,
          k.byTransaction,
          k.outbox,
          String(current.version),
          String(written.version),
          JSON.stringify(written),
          current.reference,
          isFinal(written.status) ? "1" : "0",
          written.transactionId ?? "",
          ...result.notifications.map((n) => JSON.stringify(n)),
        );
        if (ok === 1) return { order: written, updated: true, notifications: result.notifications };
        // Another writer won: back off a little (jittered) and re-run the mutation on fresh data.
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
      }
      throw new StoreConflictError(reference);
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
