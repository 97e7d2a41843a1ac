import {
  LEDGER_KEYS,
  LEDGER_LUA,
  type LedgerKey,
  ledgerKeys,
  ledgerKeysLua,
  parseLedgerReply,
  transferArgv,
} from "../ledger/lua.ts";
import { transferInputSchema } from "../ledger/model.ts";
import { notificationSchema } from "../orders/model.ts";
import type { RedisClient } from "../redis/connection.ts";
import { complaintRefundedOrdersKey, keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";
import { type Complaint, complaintSchema, isClosed } from "./model.ts";
import type { ComplaintStore, UpdateOutcome } from "./store.ts";

/**
 * Complaints in Redis, in the {money} slot beside the books: a hash {v, j} per complaint, the
 * order -> open complaint hash that keeps one open complaint per order (checked and written in
 * one script, so two instances raising at once give one complaint and one refusal naming it),
 * the open list by due time and the per-order and per-user indexes. The update script checks the
 * version and, for a refund, that the order has no refund yet (the order -> refunded complaint
 * hash), books the refund with the ledger's own Lua (which checks before it writes), and only
 * then writes the complaint, the order's refund mark and queues the customer's notice in the
 * notifier's outbox (in {money} too): a resolution, its refund and its notice are one step, and
 * an order is refunded once (review s24-b, 6).
 */

// KEYS: complaint, openByOrder, open, ofOrder, ofUser, the notifier's outbox. ARGV: ref, orderRef,
// json, dueAt, createdAt, then the admins' alerts (JSON each), queued only when the complaint is
// written, in the same step (a crash cannot lose them).
const OPEN = `
local existing = redis.call('HGET', KEYS[2], ARGV[2])
if existing then return {0, existing} end
if redis.call('EXISTS', KEYS[1]) == 1 then return {2} end
redis.call('HSET', KEYS[1], 'v', '0', 'j', ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[5], ARGV[1])
for i = 6, #ARGV do redis.call('XADD', KEYS[6], '*', 'n', ARGV[i]) end
return {1}
`;

// KEYS: complaint, openByOrder, open, refunded (order -> complaint), the notifier's outbox, then
// the ledger's keys.
// ARGV: expected version, new version, json, ref, orderRef, closed ('1'/'0'), refund ('1'/'0'),
// the customer's notice (JSON, '' for none), then the refund's TRANSFER_ARGC (its credit, the
// customer's account, is ARGV[13]). The notice is queued in the same step as the change, so a
// crash cannot lose it; after a refund it carries the balance the refund left. A refund of an
// order another complaint refunded: {3, that one}.
const UPDATE = `${LEDGER_LUA}
${ledgerKeysLua(6)}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return {0} end
local booked = false
local notice = ARGV[8]
if ARGV[7] == '1' then
  local prior = redis.call('HGET', KEYS[4], ARGV[5])
  if prior and prior ~= ARGV[4] then return {3, prior} end
  booked = ledger_transfer(L, ARGV, 9)
  if booked[1] ~= 1 then return {2, booked} end
  redis.call('HSET', KEYS[4], ARGV[5], ARGV[4])
  if notice ~= '' then
    notice = string.sub(notice, 1, -2) .. ',"balancePaisa":' .. ledger_fmt(ledger_available(L, ARGV[13])) .. '}'
  end
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'j', ARGV[3])
if ARGV[6] == '1' then
  redis.call('ZREM', KEYS[3], ARGV[4])
  if redis.call('HGET', KEYS[2], ARGV[5]) == ARGV[4] then redis.call('HDEL', KEYS[2], ARGV[5]) end
end
if notice ~= '' then redis.call('XADD', KEYS[5], '*', 'n', notice) end
if booked then return {1, booked} end
return {1}
`;

const openScript = luaScript<
  "complaint" | "openByOrder" | "open" | "ofOrder" | "ofUser" | "outbox",
  [number, string?]
>("raComplaintOpen", ["complaint", "openByOrder", "open", "ofOrder", "ofUser", "outbox"], OPEN);

const updateScript = luaScript<
  "complaint" | "openByOrder" | "open" | "refunded" | "outbox" | LedgerKey,
  [number, unknown?]
>(
  "raComplaintUpdate",
  ["complaint", "openByOrder", "open", "refunded", "outbox", ...LEDGER_KEYS],
  UPDATE,
);

type StoreOptions = { redis: RedisClient; prefix: string; now?: () => number };

function parse(raw: string | null): Complaint | null {
  return raw === null ? null : complaintSchema.parse(JSON.parse(raw));
}

async function update(
  opts: StoreOptions,
  expectedVersion: number,
  next: Complaint,
  refund: Parameters<ComplaintStore["update"]>[2],
  notice: Parameters<ComplaintStore["update"]>[3],
): Promise<UpdateOutcome> {
  const k = keyspace(opts.prefix);
  const now = opts.now ?? Date.now;
  const written = complaintSchema.parse({ ...next, version: expectedVersion + 1 });
  const t = refund ? transferInputSchema.parse(refund) : undefined;
  const reply = await updateScript.run(
    opts.redis,
    {
      complaint: k.complaint(written.reference),
      openByOrder: k.complaintOpenByOrder,
      open: k.complaintsOpen,
      refunded: complaintRefundedOrdersKey(opts.prefix),
      outbox: k.outbox,
      ...ledgerKeys(k),
    },
    String(expectedVersion),
    String(written.version),
    JSON.stringify(written),
    written.reference,
    written.orderReference,
    isClosed(written.status) ? "1" : "0",
    t ? "1" : "0",
    notice ? JSON.stringify(notificationSchema.parse(notice)) : "",
    ...(t ? transferArgv(t, now()) : []),
  );
  if (reply[0] === 0) return { ok: false, reason: "version" };
  if (reply[0] === 3) return { ok: false, reason: "refunded", by: String(reply[1]) };
  if (reply[0] === 2) {
    const r = parseLedgerReply(reply[1]);
    if (r.ok) throw new Error("a booked refund reported as refused");
    return { ok: false, reason: "ledger", refusal: r.refusal };
  }
  return reply[1] === undefined ? { ok: true } : { ok: true, ledger: parseLedgerReply(reply[1]) };
}

export function createRedisComplaintStore(opts: StoreOptions): ComplaintStore {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  const get = async (ref: string) => parse(await redis.hget(k.complaint(ref), "j"));
  const many = async (refs: string[]) =>
    (await Promise.all(refs.map(get))).filter((c): c is Complaint => c !== null);

  return {
    async nextReference() {
      // The first number is C100001, as in memory.
      const n = await redis.incr(k.complaintSeq);
      return `C${100_000 + n}`;
    },
    async open(c, alerts = []) {
      const v = complaintSchema.parse({ ...c, version: 0 });
      const queued = alerts.map((a) => JSON.stringify(notificationSchema.parse(a)));
      const reply = await openScript.run(
        redis,
        {
          complaint: k.complaint(v.reference),
          openByOrder: k.complaintOpenByOrder,
          open: k.complaintsOpen,
          ofOrder: k.complaintsOfOrder(v.orderReference),
          ofUser: k.complaintsOfUser(v.userId),
          outbox: k.outbox,
        },
        v.reference,
        v.orderReference,
        JSON.stringify(v),
        String(v.dueAt),
        String(v.createdAt),
        ...queued,
      );
      if (reply[0] === 1) return { created: true, complaint: v };
      if (reply[0] === 2) throw new Error(`complaint ${v.reference} exists`);
      const existing = await get(String(reply[1]));
      if (!existing) throw new Error(`open complaint ${reply[1]} of ${v.orderReference} not found`);
      return { created: false, complaint: existing };
    },
    get,
    update: (expectedVersion, next, refund, notice) =>
      update(opts, expectedVersion, next, refund, notice),
    async listOpen(limit) {
      return many(await redis.zrange(k.complaintsOpen, "0", String(limit - 1)));
    },
    countOpen: () => redis.zcard(k.complaintsOpen),
    async ofOrder(orderRef) {
      return many(await redis.zrevrange(k.complaintsOfOrder(orderRef), 0, 99));
    },
    async ofUser(userId, limit) {
      return many(await redis.zrevrange(k.complaintsOfUser(userId), 0, limit - 1));
    },
    refundOf: (orderRef) => redis.hget(complaintRefundedOrdersKey(opts.prefix), orderRef),
    // One HMGET for a page of orders (none for an empty page).
    refundsOf: async (orderRefs) =>
      orderRefs.length === 0
        ? []
        : redis.hmget(complaintRefundedOrdersKey(opts.prefix), ...orderRefs),
  };
}
