import {
  LEDGER_KEYS,
  LEDGER_LUA,
  type LedgerKey,
  ledgerKeysLua,
  TRANSFER_ARGC,
} from "../ledger/lua.ts";
import { luaScript } from "../redis/scripts.ts";
import { SEARCH_ARGC } from "./search.ts";

/**
 * The Lua scripts of the Redis order store (redis-store.ts): the reference counter, the create and
 * the compare-and-set update, each one atomic step on the server, replicated and AOF-logged as a
 * unit.
 */

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
export const SEED_AHEAD_MS = 86_400_000;

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

// KEYS: idempotency, order, byUser, open, alias-or-order, then the five ledger keys, then the
// reference counter, then the search index.
// ARGV: reference, json, createdAt, version, alias, open?, hold?, balance account (or ''), then
// the hold's TRANSFER_ARGC, then (a numbered create) the counter's seed (or '') and the hold id,
// then LAST the search index's SEARCH_ARGC (search.ts indexArgs: the time, then the prefixes):
// one ZADD writes the order's members, prefix .. time .. ':' .. reference, each with score 0.
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
    ref = next_reference(KEYS[${6 + LEDGER_KEYS.length}], A[3], A[extra])
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
local first = #A - ${SEARCH_ARGC} + 1
local members = {}
for j = first + 1, #A do
  members[#members + 1] = 0
  members[#members + 1] = A[j] .. A[first] .. ':' .. ref
end
redis.call('ZADD', KEYS[${7 + LEDGER_KEYS.length}], unpack(members))
return {1, ref, after}
`;

// KEYS: order, open, byTx, outbox, then the five ledger keys, then the owed sets of the hourly
// windows the step owes a count in (owed.ts owedWindows: the order marked in each, scored by at;
// none: none). The notifications carry the order as written (field 'o'): while the entry is fresh
// the notifier renders from it instead of reading the order (notifier.ts).
// ARGV: expected version, new version, json, reference, final?, txId, settle (post|void|''),
// hold id, at, balance account (or ''), n (bookings), n × TRANSFER_ARGC booking args,
// notifications...
// The hold is settled, and the success's bookings (bookingsOf) written, in the same step as the
// status change and its notifications; the version check makes the step run once, and the ledger
// answers a repeated post/void or transfer id as a duplicate. A transaction id the step first
// gives the order is indexed first, before any write (HSETNX: the normal path's one command for
// it); found indexed to another order, nothing is written and {-3, that order} is returned: one
// recharge is one order's (review s31-orders, 2). Bookings are merchant accounts only
// (no floor): the ledger cannot refuse them for funds. The customer's balance after is read once
// the hold is settled, in the same step.
const UPDATE = `${LEDGER_LUA}
${ledgerKeysLua(5)}
${BALANCE_AFTER_LUA}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return {0} end
if ARGV[6] ~= '' and redis.call('HSETNX', KEYS[3], ARGV[6], ARGV[4]) == 0 then
  local owner = redis.call('HGET', KEYS[3], ARGV[6])
  if owner ~= ARGV[4] then return {-3, owner} end
end
local settled = 0
if ARGV[7] == 'post' then settled = ledger_post(L, ARGV[8], ARGV[9]) end
if ARGV[7] == 'void' then settled = ledger_void(L, ARGV[8], ARGV[9]) end
local n = tonumber(ARGV[11])
local booked = {}
for b = 0, n - 1 do booked[#booked + 1] = ledger_transfer(L, ARGV, 12 + b * ${TRANSFER_ARGC}) end
local json, after = with_balance_after(ARGV[3], ARGV[10])
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'j', json)
if ARGV[5] == '1' then redis.call('ZREM', KEYS[2], ARGV[4]) end
for i = ${5 + LEDGER_KEYS.length}, #KEYS do redis.call('ZADD', KEYS[i], ARGV[9], ARGV[4]) end
for i = 12 + n * ${TRANSFER_ARGC}, #ARGV do redis.call('XADD', KEYS[4], '*', 'n', ARGV[i], 'o', json) end
return {1, settled, booked, after}
`;

// Every key of each script in the {money} slot (src/redis/keyspace.ts); a numbered create also
// touches the order key it builds from KEYS[2] and the reference, in that slot too.
export const nextReference = luaScript<"seq", string | null>(
  "raNextReference",
  ["seq"],
  NEXT_REFERENCE,
);
export const orderCreate = luaScript<
  "idempotency" | "order" | "byUser" | "open" | "alias" | LedgerKey | "seq" | "search",
  [number, string?, unknown?]
>(
  "raOrderCreate",
  ["idempotency", "order", "byUser", "open", "alias", ...LEDGER_KEYS, "seq", "search"],
  CREATE,
);
export const orderUpdate = luaScript<
  "order" | "open" | "byTx" | "outbox" | LedgerKey,
  [number, unknown?, unknown[]?, string?]
>("raOrderUpdate", ["order", "open", "byTx", "outbox", ...LEDGER_KEYS], UPDATE);

// KEYS: the settled-watch set. ARGV: reference, the due time read. Removes the entry only if it is
// still due at that time: a newer settlement's watch (a later due time) stays.
export const settledUnwatch = luaScript<"watch", number>(
  "raSettledUnwatch",
  ["watch"],
  `local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if s and tonumber(s) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0`,
);

// KEYS: the order's claim-check key. ARGV: now (ms), the cooldown's end (ms), the cooldown (ms).
// 1 and the key set to the cooldown's end when no cooldown is running at `now`; 0 otherwise. The
// callers' clock decides (as for every order time); the TTL only bounds the key's life.
export const claimCheckTake = luaScript<"check", number>(
  "raClaimCheckTake",
  ["check"],
  `local till = tonumber(redis.call('GET', KEYS[1]) or '0')
if till and till > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`,
);
