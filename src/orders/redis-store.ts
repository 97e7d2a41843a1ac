import {
  holdArgv,
  LEDGER_KEYS,
  LEDGER_LUA,
  type LedgerKey,
  ledgerKeys,
  ledgerKeysLua,
  parseLedgerReply,
  TRANSFER_ARGC,
  transferArgv,
} from "../ledger/lua.ts";
import type { LedgerResult } from "../ledger/model.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { ensureReplicated } from "../redis/replication.ts";
import { luaScript } from "../redis/scripts.ts";
import { ORDER_PARTS } from "./categories/index.ts";
import {
  holdIdOf,
  isFinal,
  ORDER_STATUSES,
  type Order,
  orderSchema,
  type UnmatchedEvent,
  unmatchedEventSchema,
} from "./model.ts";
import { balanceAccountOf, bookingsOf, holdOf, settlementOf } from "./postings.ts";
import { holdWritesForTurn } from "./redis-batch.ts";
import {
  CAS_ATTEMPTS,
  type CreateResult,
  HoldRefusedError,
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
  redis: RedisClient;
  /** Key prefix (REDIS_PREFIX), e.g. "ra:". */
  prefix: string;
  now?: () => number;
}

// The next reference from the counter (in the money slot), never below the clock: max(last + 1,
// now in ms). A counter not there yet (a deployment's first use since the counter moved into the
// slot, or a counter lost) is seeded from \`seed\`; without one the caller is asked for it (false)
// and nothing is written. The seed (seedOf) is the counter as it was, or the clock, whichever is
// later, plus a day: the processes of the version before still number from the old key for as
// long as they run, around the clock, and never reach the new numbers' range within that day.
const NEXT_REFERENCE_LUA = `
local function next_reference(key, nowms, seed)
  local last = redis.call('GET', key)
  if not last then
    if seed == '' then return false end
    last = seed
  end
  local nextv = tonumber(last) + 1
  if tonumber(nowms) > nextv then nextv = tonumber(nowms) end
  local text = string.format('%.0f', nextv)
  redis.call('SET', key, text)
  return text
end
`;

// KEYS: the counter. ARGV: now (ms), seed (or ''). Returns the reference, or false for "seed me".
const NEXT_REFERENCE = `${NEXT_REFERENCE_LUA}
return next_reference(KEYS[1], ARGV[1], ARGV[2])
`;

/** How far ahead of the old counter (or the clock) a new counter starts. */
const SEED_AHEAD_MS = 86_400_000;

/** The placeholder in a numbered create's hold arguments that the script replaces by the reference. */
export const REFERENCE_SLOT = "@REF@";

// The order's JSON with the customer's available balance now as its last field
// (balanceAfterPaisa), when the step records it (acc not ''): the caller leaves the field out of
// the JSON, an object's text, which ends in '}'. Returns the JSON and the figure ('' if none).
const BALANCE_AFTER_LUA = `
local function with_balance_after(json, acc)
  if acc == '' then return json, '' end
  local avail = ledger_fmt(ledger_available(L, acc))
  return string.sub(json, 1, -2) .. ',"balanceAfterPaisa":' .. avail .. '}', avail
end
`;

// KEYS: idempotency, order, byUser, open, alias-or-order, then the four ledger keys, then the
// reference counter.
// ARGV: reference, json, createdAt, version, alias, open?, hold?, balance account (or ''), then
// the hold's TRANSFER_ARGC, then (a numbered create) the counter's seed (or '') and the hold id.
// A numbered create (reference '') takes the next reference from the counter once the idempotency
// key is known to be new, in the same step as the order: KEYS[2] is then the order key's prefix,
// the JSON has no reference and no hold id (they are put first), and REFERENCE_SLOT in the hold's
// id, fingerprint and reference is replaced by the reference. Every check (and the ledger's) comes
// before the first write: a refusal writes nothing.
const CREATE = `${LEDGER_LUA}
${ledgerKeysLua(6)}
${BALANCE_AFTER_LUA}
${NEXT_REFERENCE_LUA}
local existing = redis.call('GET', KEYS[1])
if existing then return {0, existing} end
local A = {}
for j = 1, #ARGV do A[j] = ARGV[j] end
local ref, okey, json0 = A[1], KEYS[2], A[2]
if ref == '' then
  local extra = 9
  if A[7] == '1' then extra = 9 + ${TRANSFER_ARGC} end
  -- A number an order has already (the counter lost, or numbered by the version before) is skipped.
  local free = false
  for _ = 1, 20 do
    ref = next_reference(KEYS[10], A[3], A[extra])
    if not ref then return {-2} end
    okey = KEYS[2] .. ref
    free = redis.call('EXISTS', okey) == 0
    if free then break end
  end
  if not free then return {-1, ref} end
  local function put(s)
    local a, b = string.find(s, '${REFERENCE_SLOT}', 1, true)
    if not a then return s end
    return string.sub(s, 1, a - 1) .. ref .. string.sub(s, b + 1)
  end
  if A[7] == '1' then
    for j = 9, 9 + ${TRANSFER_ARGC} - 1 do A[j] = put(A[j]) end
  end
  local head = '{"reference":"' .. ref .. '",'
  if A[extra + 1] ~= '' then head = head .. '"holdId":"' .. put(A[extra + 1]) .. '",' end
  json0 = head .. string.sub(json0, 2)
end
if A[1] ~= '' and redis.call('EXISTS', okey) == 1 then return {-1, ref} end
if A[5] ~= '' and redis.call('EXISTS', KEYS[5]) == 1 then return {-1, A[5]} end
if A[7] == '1' then
  local held = ledger_hold(L, A, 9)
  if held[1] ~= 1 then return {2, ref, held} end
end
local json, after = with_balance_after(json0, A[8])
if A[5] ~= '' then redis.call('SET', KEYS[5], ref) end
redis.call('SET', KEYS[1], ref)
redis.call('HSET', okey, 'v', A[4], 'j', json)
redis.call('ZADD', KEYS[3], A[3], ref)
if A[6] == '1' then redis.call('ZADD', KEYS[4], A[3], ref) end
return {1, ref, after}
`;

// KEYS: order, open, byTx, outbox, then the four ledger keys. The notifications carry the order as
// written (field 'o'): while the entry is fresh the notifier renders from it instead of reading
// the order (notifier.ts).
// ARGV: expected version, new version, json, reference, final?, txId, settle (post|void|''),
// hold id, at, balance account (or ''), n (bookings), n × TRANSFER_ARGC booking args,
// notifications...
// The hold is settled, and the success's bookings (bookingsOf) written, in the same step as the
// status change and its notifications; the version check makes the step run once, and the ledger
// answers a repeated post/void or transfer id as a duplicate. Bookings are merchant accounts only
// (no floor): the ledger cannot refuse them for funds. The customer's balance after is read once
// the hold is settled, in the same step.
const UPDATE = `${LEDGER_LUA}
${ledgerKeysLua(5)}
${BALANCE_AFTER_LUA}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return {0} end
local settled = 0
if ARGV[7] == 'post' then settled = ledger_post(L, ARGV[8], ARGV[9]) end
if ARGV[7] == 'void' then settled = ledger_void(L, ARGV[8], ARGV[9]) end
local n = tonumber(ARGV[11])
local booked = {}
for b = 0, n - 1 do booked[#booked + 1] = ledger_transfer(L, ARGV, 12 + b * ${TRANSFER_ARGC}) end
local json, after = with_balance_after(ARGV[3], ARGV[10])
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'j', json)
if ARGV[5] == '1' then redis.call('ZREM', KEYS[2], ARGV[4]) end
if ARGV[6] ~= '' then redis.call('HSETNX', KEYS[3], ARGV[6], ARGV[4]) end
for i = 12 + n * ${TRANSFER_ARGC}, #ARGV do redis.call('XADD', KEYS[4], '*', 'n', ARGV[i], 'o', json) end
return {1, settled, booked, after}
`;

// Every key of each script in the {money} slot (src/redis/keyspace.ts); a numbered create also
// touches the order key it builds from KEYS[2] and the reference, in that slot too.
const nextReference = luaScript<"seq", string | null>("raNextReference", ["seq"], NEXT_REFERENCE);
const orderCreate = luaScript<
  "idempotency" | "order" | "byUser" | "open" | "alias" | LedgerKey | "seq",
  [number, string?, unknown?]
>(
  "raOrderCreate",
  ["idempotency", "order", "byUser", "open", "alias", ...LEDGER_KEYS, "seq"],
  CREATE,
);
const orderUpdate = luaScript<
  "order" | "open" | "byTx" | "outbox" | LedgerKey,
  [number, unknown?, unknown[]?, string?]
>("raOrderUpdate", ["order", "open", "byTx", "outbox", ...LEDGER_KEYS], UPDATE);

const STATUSES: ReadonlySet<unknown> = new Set(ORDER_STATUSES);
const CATEGORIES: ReadonlySet<unknown> = new Set(ORDER_PARTS.map((p) => p.id));
const isInt = (v: unknown): boolean => Number.isSafeInteger(v);

/**
 * An order as stored. Only this store writes the JSON, and only after orderSchema.parse (create,
 * update; the scripts add nothing but an integer balanceAfterPaisa), so a read checks what every
 * reader relies on and trusts the rest: zod's full parse of every order read cost about 3 µs and
 * a copy of the order on the webhook's path. Anything else (an order stored by an older version, a hand edit) still gets the
 * full parse, and its error.
 */
const parseOrder = (json: string): Order => {
  const o = JSON.parse(json) as Record<string, unknown> | null;
  if (
    o !== null &&
    typeof o === "object" &&
    typeof o.reference === "string" &&
    STATUSES.has(o.status) &&
    CATEGORIES.has(o.category) &&
    typeof o.details === "object" &&
    o.details !== null &&
    Array.isArray(o.history) &&
    isInt(o.version) &&
    isInt(o.userId) &&
    isInt(o.chatId) &&
    isInt(o.amountPaisa) &&
    isInt(o.createdAt) &&
    isInt(o.updatedAt) &&
    (o.balanceAfterPaisa === undefined || isInt(o.balanceAfterPaisa))
  ) {
    return o as unknown as Order;
  }
  return orderSchema.parse(o);
};

/**
 * A deep copy of JSON data (an order: objects, arrays, strings, numbers, booleans, null), handed
 * to a mutation so that it cannot change an order a caller holds. structuredClone did the same
 * for seven times the CPU (about 7 µs an order against 1), on every compare-and-set.
 */
function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    copy[key] = cloneJson((value as Record<string, unknown>)[key]);
  return copy as T;
}

/** The JSON a script writes; without balanceAfterPaisa when the script records it (appends it). */
function orderJson(order: Order, balanceAccount: string | null): string {
  if (balanceAccount === null) return JSON.stringify(order);
  const { balanceAfterPaisa: _recorded, ...rest } = order;
  return JSON.stringify(rest);
}

/** The order as the script wrote it: with the balance it recorded, if it recorded one. */
function withBalanceAfter(order: Order, after: unknown): Order {
  return typeof after === "string" && after !== ""
    ? { ...order, balanceAfterPaisa: Number(after) }
    : order;
}

export function createRedisOrderStore(opts: RedisOrderStoreOptions): OrderStore {
  const { redis } = opts;
  const now = opts.now ?? Date.now;
  const k = keyspace(opts.prefix);
  const ledger = ledgerKeys(k);
  // The hot pair (read the order, compare-and-set it) leaves with the turn's other commands.
  const hold = holdWritesForTurn(redis);
  /**
   * What a missing reference counter starts from: the counter as it was (outside the money slot,
   * which the version before still writes while it runs) or the clock, whichever is later, plus a
   * day (SEED_AHEAD_MS), so the numbers of both never meet while both run.
   */
  const seedOf = async (): Promise<string> => {
    const before = Number((await redis.get(k.referenceSeqBefore)) ?? 0);
    return String(Math.max(before, Math.floor(now())) + SEED_AHEAD_MS);
  };

  const load = async (reference: string): Promise<Order | null> => {
    hold();
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
      const at = String(Math.floor(now()));
      const ref = await nextReference.run(redis, { seq: k.referenceSeq }, at, "");
      if (ref !== null) return ref;
      const seeded = await nextReference.run(redis, { seq: k.referenceSeq }, at, await seedOf());
      if (seeded === null) throw new Error("the reference counter was not seeded");
      return seeded;
    },

    async create(order: Order, opts: { numbered?: boolean } = {}): Promise<CreateResult> {
      const numbered = opts.numbered === true;
      const valid = orderSchema.parse(order);
      const alias =
        valid.executeReference !== undefined && valid.executeReference !== valid.reference
          ? valid.executeReference
          : "";
      const hold = holdOf(valid);
      const balanceAccount = balanceAccountOf(null, valid);
      // Numbered here: the script puts the reference (and the hold id) first in the JSON, and in
      // the hold's id, fingerprint and reference (REFERENCE_SLOT).
      const { reference: _placeholder, holdId: _holdId, ...unnumbered } = valid;
      const json = numbered
        ? orderJson(unnumbered as Order, balanceAccount)
        : orderJson(valid, balanceAccount);
      const holdInput =
        hold && numbered
          ? { ...hold, id: holdIdOf(REFERENCE_SLOT), reference: REFERENCE_SLOT }
          : hold;
      const at = now();
      const run = (seed: string) =>
        orderCreate.run(
          redis,
          {
            idempotency: k.idempotency(valid.idempotencyKey),
            order: numbered ? k.order("") : k.order(valid.reference),
            byUser: k.byUser(valid.userId),
            open: k.open,
            alias: alias ? k.alias(alias) : k.order(numbered ? "" : valid.reference),
            ...ledger,
            seq: k.referenceSeq,
          },
          numbered ? "" : valid.reference,
          json,
          String(valid.createdAt),
          String(valid.version),
          alias,
          isFinal(valid.status) ? "0" : "1",
          holdInput ? "1" : "0",
          balanceAccount ?? "",
          ...(holdInput ? holdArgv(holdInput, at) : []),
          ...(numbered ? [seed, valid.holdId === undefined ? "" : holdIdOf(REFERENCE_SLOT)] : []),
        );
      let reply = await run("");
      // The counter is not there yet: seeded, in the same step, from what seedOf reads.
      if (reply[0] === -2) reply = await run(await seedOf());
      const [code, ref, third] = reply;
      if (ref === undefined) throw new Error("the reference counter was not seeded");
      if (code === -1) throw new ReferenceInUseError(ref);
      if (code === 2) {
        const r = parseLedgerReply(third);
        if (!r.ok) throw new HoldRefusedError(r.refusal);
        throw new Error(`order ${ref}: unexpected hold reply`);
      }
      // A receipt is shown for a created order: it must outlive a failover (REDIS_WAIT_REPLICAS).
      const idem = k.idempotency(valid.idempotencyKey);
      await ensureReplicated(
        redis,
        `order ${ref} created`,
        async () => (await redis.get(idem)) === ref,
      );
      if (code === 0) {
        const existing = await load(ref);
        if (!existing) throw new Error(`idempotency key points at missing order ${ref}`);
        return { created: false, order: existing };
      }
      const created: Order = numbered
        ? {
            ...valid,
            reference: ref,
            ...(valid.holdId === undefined ? {} : { holdId: holdIdOf(ref) }),
          }
        : valid;
      return { created: true, order: withBalanceAfter(created, third) };
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

    async listByUser(userId, limit, offset = 0) {
      if (limit <= 0) return [];
      const refs = await redis.zrevrange(k.byUser(userId), offset, offset + limit - 1);
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
        const result = mutate(cloneJson(current));
        if (!result) return { order: current, updated: false, notifications: [] };
        const written = orderSchema.parse({ ...result.order, version: current.version + 1 });
        const action = settlementOf(current, written);
        const at = now();
        const transfers = bookingsOf(current, written);
        const balanceAccount = balanceAccountOf(current, written);
        hold();
        const [ok, settled, booked, after] = await orderUpdate.run(
          redis,
          {
            order: k.order(current.reference),
            open: k.open,
            byTx: k.byTransaction,
            outbox: k.outbox,
            ...ledger,
          },
          String(current.version),
          String(written.version),
          orderJson(written, balanceAccount),
          current.reference,
          isFinal(written.status) ? "1" : "0",
          // Indexed by the write that first carried it (HSETNX): a later one has nothing to add.
          current.version > 0 && current.transactionId === written.transactionId
            ? ""
            : (written.transactionId ?? ""),
          action ?? "",
          action ? (written.holdId ?? "") : "",
          String(at),
          balanceAccount ?? "",
          String(transfers.length),
          ...transfers.flatMap((t) => transferArgv(t, at)),
          ...result.notifications.map((n) => JSON.stringify(n)),
        );
        if (ok === 1) {
          // The submitting mark is what stops a second execute: lost at a failover, the order
          // would be "placed" again. Not on enough replicas: throw, so nothing is sent.
          if (written.status === "submitting" && current.status !== "submitting") {
            const key = k.order(current.reference);
            await ensureReplicated(
              redis,
              `order ${current.reference} submitting`,
              async () => (await redis.hget(key, "v")) === String(written.version),
            );
          }
          const settlement: LedgerResult | undefined =
            settled === undefined || settled === 0 ? undefined : parseLedgerReply(settled);
          const bookings = (booked ?? []).map(parseLedgerReply);
          return {
            order: withBalanceAfter(written, after),
            updated: true,
            notifications: result.notifications,
            ...(settlement ? { settlement } : {}),
            ...(bookings.length > 0 ? { bookings } : {}),
          };
        }
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
